import { describe, expect, it } from 'vitest';
import { accessStatusText, AccessibleNamespacesByContextSchema, AccessSummarySchema, kindPlural, KindAccessSchema, type AccessSummary } from '../../../shared/access.ts';

const base: AccessSummary = { restricted: true, namespaces: ['shop', 'payments'], hiddenKinds: [], checked: [], reviews: [], reviewsOmitted: 0, noAccess: false, checkedAt: 1 };
const summary = (over: Partial<AccessSummary>): AccessSummary => AccessSummarySchema.parse({ ...base, ...over });
const hidden = (kind: string) => ({ key: kind.toLowerCase(), kind, message: `${kindPlural(kind)} are hidden by your permissions` });

describe('access status text', () => {
  it('names the namespaces and the hidden kinds as the status bar says them', () => {
    expect(accessStatusText(summary({ hiddenKinds: [hidden('Node')] }))).toBe('Namespaces shop, payments · Nodes hidden by your permissions');
    expect(accessStatusText(summary({ hiddenKinds: [hidden('Namespace'), hidden('Node')] }))).toBe('Namespaces shop, payments · Namespaces and Nodes hidden by your permissions');
  });

  it('counts the hidden kinds past the third instead of listing them all', () => {
    const kinds = ['Namespace', 'Node', 'Secret', 'Role', 'RoleBinding'].map(hidden);
    expect(accessStatusText(summary({ hiddenKinds: kinds }))).toBe('Namespaces shop, payments · Namespaces, Nodes, Secrets and 2 more kinds hidden by your permissions');
    expect(accessStatusText(summary({ hiddenKinds: kinds.slice(0, 4) }))).toBe('Namespaces shop, payments · Namespaces, Nodes, Secrets and Roles hidden by your permissions');
  });

  it('says all namespaces for an unrestricted user, and no access for a user with none', () => {
    expect(accessStatusText(summary({ restricted: false, namespaces: [] }))).toBe('All namespaces');
    expect(accessStatusText(summary({ noAccess: true, namespaces: [], hiddenKinds: [hidden('Pod')] }))).toBe('No access beyond the self-reviews');
  });

  it('writes English plurals of kinds', () => {
    expect(['Ingress', 'NetworkPolicy', 'Gateway', 'Node'].map(kindPlural)).toEqual(['Ingresses', 'NetworkPolicies', 'Gateways', 'Nodes']);
  });
});

describe('access schemas', () => {
  it('accepts per-context hand-added namespaces and rejects bad names and duplicates with a message', () => {
    expect(AccessibleNamespacesByContextSchema.parse({ 'kubedrift-demo-dev': ['shop', 'payments'] })).toEqual({ 'kubedrift-demo-dev': ['shop', 'payments'] });
    const bad = AccessibleNamespacesByContextSchema.safeParse({ dev: ['Shop'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/lower-case letters, digits and "-"/);
    expect(AccessibleNamespacesByContextSchema.safeParse({ dev: ['shop', 'shop'] }).error?.issues[0]?.message).toBe('each namespace may be listed once');
  });

  it('needs at least one namespace for a per-namespace kind', () => {
    expect(KindAccessSchema.safeParse({ scope: 'namespaces', namespaces: [] }).success).toBe(false);
    expect(KindAccessSchema.parse({ scope: 'hidden', message: 'Nodes are hidden by your permissions' })).toEqual({ scope: 'hidden', message: 'Nodes are hidden by your permissions' });
  });
});
