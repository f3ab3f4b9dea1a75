/**
 * Access checks against the simulated cluster's real RBAC, through the kinds discovery finds for
 * each user: a cluster-admin sees everything cluster-wide; the demo's developer (view in shop and
 * payments) is found in exactly those namespaces by each source of namespaces on its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { accessStatusText, AccessSummarySchema } from '../../../../../shared/access.ts';
import { AccessChecker } from '../../../../../electron/engine/cluster/access/checker.ts';
import { watchableKinds } from '../../../../../electron/engine/cluster/access/kinds.ts';
import type { PlanChanges } from '../../../../../electron/engine/cluster/access/plan.ts';
import type { AccessKind } from '../../../../../electron/engine/cluster/access/probe.ts';
import { DiscoveryRegistry } from '../../../../../electron/engine/cluster/discovery/registry.ts';
import { createTransport } from '../../../../../electron/engine/cluster/informers/http.ts';
import { createApiClient, type ApiClient } from '../../../../../electron/engine/diff/cluster/client.ts';
import { startSimCluster, type SimCluster } from '../../../../../electron/engine/simcluster/index.ts';
import type { PresetUser } from '../../../../../electron/engine/simcluster/rbac/preset-users.ts';
import { FakeClock, waitFor } from '../../informers/helpers.ts';

let sim: SimCluster | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await sim?.stop();
  sim = undefined;
});

const DEV: PresetUser = { name: 'dev', role: 'view', namespaces: ['shop', 'payments'] };
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

async function startCluster(users: PresetUser[]): Promise<SimCluster> {
  sim = await startSimCluster({ scenario: 'demo', controllers: false, tls: false, users, onError: () => {} });
  return sim;
}

async function client(config: object): Promise<ApiClient> {
  const api = await createApiClient(config);
  cleanups.push(() => api.close());
  return api;
}

/** The kinds discovery gives the user, as the access checks would get them from the registry. */
async function discoveredKinds(config: object): Promise<AccessKind[]> {
  const transport = createTransport(config);
  const registry = new DiscoveryRegistry({ transport, clock: new FakeClock() });
  try {
    await registry.start();
    return watchableKinds(registry.kinds());
  } finally {
    registry.stop();
    transport.close();
  }
}

/** Creates an object as the cluster's admin; fails the test on anything but 201. */
async function adminCreate(path: string, json: object): Promise<void> {
  const admin = await client((sim as SimCluster).kubeconfigObject());
  const response = await admin.request('POST', path, { json, contentType: 'application/json' });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

/** Grants `user` a ClusterRole cluster-wide, made of one rule. */
async function grantClusterWide(user: string, name: string, rule: { resources: string[]; verbs: string[]; apiGroups: string[] }): Promise<void> {
  await adminCreate(`${RBAC}/clusterroles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: [rule] });
  await adminCreate(`${RBAC}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  });
}

/** A checker for a preset user with the kinds discovery finds for it. */
async function checkerFor(user: string, options: { contextNamespace?: string; userNamespaces?: string[]; clock?: FakeClock } = {}): Promise<AccessChecker> {
  const config = (sim as SimCluster).userKubeconfigObject(user);
  if (options.contextNamespace) (config.contexts[0] as { context: { namespace?: string } }).context.namespace = options.contextNamespace;
  const api = await client(config);
  const kinds = await discoveredKinds(config);
  const checker = new AccessChecker({ api, kinds: () => kinds, contextNamespace: api.namespace, userNamespaces: options.userNamespaces ?? [], clock: options.clock ?? new FakeClock() });
  cleanups.push(() => checker.stop());
  await checker.start();
  return checker;
}

/** Scopes of the namespaced kinds a developer with `view` reads, and of the cluster-scoped ones. */
function scopes(checker: AccessChecker): Record<string, unknown> {
  const plan = checker.plan();
  return { pods: plan.pods, deployments: plan['deployments.apps'], events: plan.events, nodes: plan.nodes?.scope, namespaces: plan.namespaces?.scope, crds: plan['customresourcedefinitions.apiextensions.k8s.io']?.scope };
}

const SHOP_AND_PAYMENTS = { scope: 'namespaces', namespaces: ['payments', 'shop'] };

describe('access checks against the simulated cluster', () => {
  it('gives a cluster-admin every kind cluster-wide in two reviews', async () => {
    await startCluster([{ name: 'root', role: 'cluster-admin' }]);
    const checker = await checkerFor('root');
    const plan = checker.plan();
    expect(Object.keys(plan).length).toBeGreaterThan(20);
    expect(Object.values(plan).every((a) => a.scope === 'cluster')).toBe(true);
    const summary = AccessSummarySchema.parse(checker.summary());
    expect(summary).toMatchObject({ restricted: false, hiddenKinds: [], noAccess: false, checked: [] });
    expect(summary.reviews.map((r) => r.question)).toEqual(['list *.*', 'watch *.*']);
    expect(accessStatusText(summary)).toBe('All namespaces');
  });

  it('calls a cluster-wide viewer unrestricted, with the kinds view leaves out hidden', async () => {
    await startCluster([{ name: 'auditor', role: 'view' }]);
    const checker = await checkerFor('auditor');
    expect(scopes(checker)).toEqual({ pods: { scope: 'cluster' }, deployments: { scope: 'cluster' }, events: { scope: 'cluster' }, nodes: 'hidden', namespaces: 'cluster', crds: 'hidden' });
    const summary = checker.summary();
    expect(summary).toMatchObject({ restricted: false, namespaces: [], noAccess: false });
    // Secrets are hidden cluster-wide, so every namespace is asked about them too, in vain.
    expect(summary.checked.map((c) => c.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system', 'monitoring', 'payments', 'platform', 'shop']);
    expect(summary.checked.find((c) => c.name === 'shop')).toEqual({ name: 'shop', sources: ['namespace-list'], state: 'none', kinds: [], message: 'You may not list and watch any kind hidden cluster-wide in "shop"' });
    expect(summary.howToFix).toBeUndefined();
    expect(checker.plan().secrets?.scope).toBe('hidden');
    expect(accessStatusText(summary)).toMatch(/^All namespaces · Nodes, Certificates, ClusterRoleBindings and \d+ more kinds hidden by your permissions$/);
  });

  it('finds the developer\'s namespaces from the namespace list, and hides Nodes, Namespaces and CRDs', async () => {
    await startCluster([DEV]);
    await grantClusterWide('dev', 'namespace-lister', { apiGroups: [''], resources: ['namespaces'], verbs: ['list'] });
    const checker = await checkerFor('dev');
    expect(scopes(checker)).toEqual({ pods: SHOP_AND_PAYMENTS, deployments: SHOP_AND_PAYMENTS, events: SHOP_AND_PAYMENTS, nodes: 'hidden', namespaces: 'hidden', crds: 'hidden' });
    const summary = checker.summary();
    expect(summary.checked.map((c) => [c.name, c.state, c.sources])).toEqual(
      expect.arrayContaining([
        ['shop', 'watched', ['namespace-list']],
        ['payments', 'watched', ['namespace-list']],
        ['platform', 'none', ['namespace-list']],
      ]),
    );
    expect(checker.plan().nodes).toEqual({ scope: 'hidden', message: 'Nodes are hidden by your permissions: you may not list and watch nodes at the cluster scope' });
    // view reads neither Secrets nor RBAC objects, and the demo's custom kinds are not aggregated to it.
    expect(summary.hiddenKinds.map((k) => k.key)).toEqual([
      'namespaces',
      'nodes',
      'certificates.cert-manager.io',
      'clusterrolebindings.rbac.authorization.k8s.io',
      'clusterroles.rbac.authorization.k8s.io',
      'customresourcedefinitions.apiextensions.k8s.io',
      'databases.db.kubedrift.dev',
      'issuers.cert-manager.io',
      'rolebindings.rbac.authorization.k8s.io',
      'roles.rbac.authorization.k8s.io',
      'secrets',
    ]);
    expect(accessStatusText(summary)).toBe('Namespaces payments, shop · Namespaces, Nodes, Certificates and 8 more kinds hidden by your permissions');
  });

  it('finds the developer\'s namespace from the kubeconfig context alone', async () => {
    await startCluster([DEV]);
    const checker = await checkerFor('dev', { contextNamespace: 'shop' });
    expect(scopes(checker)).toMatchObject({ pods: { scope: 'namespaces', namespaces: ['shop'] }, nodes: 'hidden' });
    expect(checker.summary().checked).toEqual([expect.objectContaining({ name: 'shop', sources: ['context'], state: 'watched' })]);
  });

  it('finds the developer\'s namespaces from the user\'s own list alone', async () => {
    await startCluster([DEV]);
    const checker = await checkerFor('dev', { userNamespaces: ['shop', 'payments'] });
    expect(scopes(checker)).toEqual({ pods: SHOP_AND_PAYMENTS, deployments: SHOP_AND_PAYMENTS, events: SHOP_AND_PAYMENTS, nodes: 'hidden', namespaces: 'hidden', crds: 'hidden' });
    expect(checker.summary().checked.every((c) => c.sources.join() === 'user')).toBe(true);
  });

  it('finds the developer\'s namespaces from the RoleBindings it can read, skipping other users\' bindings', async () => {
    await startCluster([DEV, { name: 'ops', role: 'view', namespaces: ['platform'] }]);
    await grantClusterWide('dev', 'rolebinding-reader', { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['list'] });
    const checker = await checkerFor('dev');
    expect(scopes(checker)).toEqual({ pods: SHOP_AND_PAYMENTS, deployments: SHOP_AND_PAYMENTS, events: SHOP_AND_PAYMENTS, nodes: 'hidden', namespaces: 'hidden', crds: 'hidden' });
    expect(checker.summary().checked.map((c) => [c.name, c.sources])).toEqual([
      ['payments', ['role-bindings']],
      ['shop', ['role-bindings']],
    ]);
  });

  it('says plainly that a user with no rights beyond the self-reviews sees nothing, and how to fix it', async () => {
    await startCluster([{ name: 'nobody', role: 'none' }]);
    const checker = await checkerFor('nobody', { contextNamespace: 'shop' });
    expect(checker.watches()).toEqual([]);
    const summary = AccessSummarySchema.parse(checker.summary());
    expect(summary).toMatchObject({ noAccess: true, restricted: true, namespaces: [], howToFix: expect.stringContaining('RoleBinding') });
    expect(summary.howToFix).toContain('Accessible namespaces');
    expect(summary.checked).toEqual([{ name: 'shop', sources: ['context'], state: 'none', kinds: [], message: 'You may not list and watch anything Kubedrift shows in "shop" (or it does not exist)' }]);
    expect(accessStatusText(summary)).toBe('No access beyond the self-reviews');
  });

  it('puts a message on a hand-added namespace that does not exist or is not allowed, and on it alone', async () => {
    await startCluster([DEV]);
    await grantClusterWide('dev', 'namespace-getter', { apiGroups: [''], resources: ['namespaces'], verbs: ['get'] });
    const checker = await checkerFor('dev', { userNamespaces: ['shop', 'no-such-team', 'platform'] });
    const byName = Object.fromEntries(checker.summary().checked.map((c) => [c.name, c]));
    expect(byName['no-such-team']).toMatchObject({ state: 'not-found', message: 'Namespace "no-such-team" does not exist' });
    expect(byName.platform).toMatchObject({ state: 'none', message: 'You may not list and watch anything Kubedrift shows in "platform"' });
    expect(byName.shop).toMatchObject({ state: 'watched' });
    expect(byName.shop?.message).toBeUndefined();
    expect(checker.plan().pods).toEqual({ scope: 'namespaces', namespaces: ['shop'] });
  });

  it('adds a namespace whose RoleBinding is granted at run time on recheck, and drops it when revoked', async () => {
    await startCluster([DEV]);
    await grantClusterWide('dev', 'rolebinding-reader', { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['list'] });
    const checker = await checkerFor('dev');
    const changes: PlanChanges[] = [];
    checker.onChange((c) => changes.push(c));
    await adminCreate(`${RBAC}/namespaces/platform/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'dev-view', namespace: 'platform' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }],
    });
    await checker.recheck('Check again');
    expect(checker.plan().pods).toEqual({ scope: 'namespaces', namespaces: ['payments', 'platform', 'shop'] });
    expect(changes).toHaveLength(1);
    expect(changes[0]?.removed).toEqual([]);
    expect(changes[0]?.added).toContainEqual({ kind: 'pods', namespace: 'platform' });
    expect(changes[0]?.added.every((w) => w.namespace === 'platform')).toBe(true);

    const admin = await client((sim as SimCluster).kubeconfigObject());
    expect((await admin.request('DELETE', `${RBAC}/namespaces/platform/rolebindings/dev-view`)).status).toBe(200);
    await checker.recheck('Check again');
    expect(checker.plan().pods).toEqual(SHOP_AND_PAYMENTS);
    expect(changes[1]?.added).toEqual([]);
    expect(changes[1]?.removed).toContainEqual({ kind: 'pods', namespace: 'platform' });
  });

  it('quotes the server\'s 403 for a namespace that was watched and is allowed nothing after a revoke, and only for it', async () => {
    await startCluster([DEV]);
    const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'dev-view', namespace: 'platform' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }] };
    await adminCreate(`${RBAC}/namespaces/platform/rolebindings`, binding);
    const checker = await checkerFor('dev', { userNamespaces: ['shop', 'payments', 'platform'] });
    expect(checker.plan().pods).toEqual({ scope: 'namespaces', namespaces: ['payments', 'platform', 'shop'] });
    const lists = () => checker.summary().reviews.filter((r) => r.review === 'list' && r.namespace === 'platform');
    expect(lists()).toEqual([]);

    const admin = await client((sim as SimCluster).kubeconfigObject());
    expect((await admin.request('DELETE', `${RBAC}/namespaces/platform/rolebindings/dev-view`)).status).toBe(200);
    await checker.recheck('Check again');
    expect(checker.plan().pods).toEqual(SHOP_AND_PAYMENTS);
    expect(checker.summary().checked.find((c) => c.name === 'platform')?.state).toBe('none');
    expect(lists()).toEqual([
      { review: 'list', namespace: 'platform', question: 'list pods', allowed: false, message: 'pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "platform"' },
    ]);
    // The next check finds nothing newly lost: the notice is about the change, not the state.
    await checker.recheck('Check again');
    expect(lists()).toEqual([]);
  });

  it('checks again every 5 minutes and picks up a RoleBinding granted meanwhile', async () => {
    await startCluster([DEV]);
    const clock = new FakeClock();
    const checker = await checkerFor('dev', { userNamespaces: ['shop', 'payments', 'platform'], clock });
    expect(checker.plan().pods).toEqual(SHOP_AND_PAYMENTS);
    const [timer] = clock.pending();
    expect(clock.pending()).toHaveLength(1);
    expect(timer?.ms).toBe(5 * 60_000);
    await adminCreate(`${RBAC}/namespaces/platform/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'dev-view', namespace: 'platform' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }],
    });
    expect(checker.plan().pods).toEqual(SHOP_AND_PAYMENTS);
    clock.fire(timer as NonNullable<typeof timer>);
    await waitFor('the periodic check', () => checker.summary().checkedAt === clock.now());
    expect(checker.plan().pods).toEqual({ scope: 'namespaces', namespaces: ['payments', 'platform', 'shop'] });
  });
});
