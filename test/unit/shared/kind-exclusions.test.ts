import { describe, expect, it } from 'vitest';
import { DEFAULT_KIND_EXCLUSIONS, describeExclusion, exclusionsOrDefault, findExclusion, KindExclusionListSchema, matchesPattern } from '../../../shared/kind-exclusions.ts';

describe('kind exclusions', () => {
  it('exclude Leases, EndpointSlices and core Endpoints by default, and nothing else', () => {
    expect(findExclusion(DEFAULT_KIND_EXCLUSIONS, { group: 'coordination.k8s.io', kind: 'Lease' })).toBeDefined();
    expect(findExclusion(DEFAULT_KIND_EXCLUSIONS, { group: 'discovery.k8s.io', kind: 'EndpointSlice' })).toBeDefined();
    expect(findExclusion(DEFAULT_KIND_EXCLUSIONS, { group: '', kind: 'Endpoints' })).toBeDefined();
    expect(findExclusion(DEFAULT_KIND_EXCLUSIONS, { group: 'example.com', kind: 'Lease' })).toBeUndefined();
    expect(findExclusion(DEFAULT_KIND_EXCLUSIONS, { group: 'example.com', kind: 'Endpoints' })).toBeUndefined();
  });

  it('match * as any run of characters, and exactly without one', () => {
    expect(matchesPattern('*.cilium.io', 'cilium.io')).toBe(false);
    expect(matchesPattern('*.cilium.io', 'isovalent.cilium.io')).toBe(true);
    expect(matchesPattern('*', '')).toBe(true);
    expect(matchesPattern('Cilium*', 'CiliumEndpoint')).toBe(true);
    expect(matchesPattern('apps', 'apps.example.com')).toBe(false);
    // A dot in a pattern is a dot, not any character.
    expect(matchesPattern('*.k8s.io', 'metricsXk8sXio')).toBe(false);
  });

  it('need a group and a kind match in the same rule', () => {
    const rules = [{ apiGroups: ['*.cilium.io'], kinds: ['CiliumEndpoint', 'CiliumIdentity'] }];
    expect(findExclusion(rules, { group: 'x.cilium.io', kind: 'CiliumIdentity' })).toBe(rules[0]);
    expect(findExclusion(rules, { group: 'x.cilium.io', kind: 'CiliumNetworkPolicy' })).toBeUndefined();
    expect(findExclusion([{ apiGroups: [''], kinds: ['*'] }], { group: '', kind: 'ConfigMap' })).toBeDefined();
    expect(findExclusion([{ apiGroups: [''], kinds: ['*'] }], { group: 'apps', kind: 'Deployment' })).toBeUndefined();
  });

  it('describe a rule in one line', () => {
    expect(describeExclusion({ apiGroups: ['', 'apps'], kinds: ['*'] })).toBe('core,apps/*');
  });

  it('use the defaults until a context stores its own rules, even an empty list', () => {
    expect(exclusionsOrDefault(undefined)).toBe(DEFAULT_KIND_EXCLUSIONS);
    expect(exclusionsOrDefault([])).toEqual([]);
  });

  it('reject malformed stored rules, naming each problem', () => {
    expect(() => exclusionsOrDefault([{ apiGroups: [], kinds: ['Lease'] }])).toThrow('Invalid kind exclusion rules: 0.apiGroups: list at least one API group (use "*" for every one)');
    expect(() => exclusionsOrDefault([{ apiGroups: ['a b'], kinds: ['Lease'] }])).toThrow('0.apiGroups.0: API group patterns hold letters, digits, ".", "-" and "*" only');
    expect(KindExclusionListSchema.safeParse('Lease').success).toBe(false);
  });
});
