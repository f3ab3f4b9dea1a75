/**
 * LiveCluster as a restricted user, end to end against the simulated cluster's RBAC: "dev" has
 * `view` in shop and payments and may list and watch namespaces, nothing more. The access checks
 * move each namespaced kind to shop and payments, one list and watch per namespace; Nodes are
 * hidden by the permissions (not an error); a namespace whose RoleBinding is removed fails alone
 * and leaves the view; one granted later is picked up when access is checked again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { accessStatusText, AccessSummarySchema } from '../../../shared/access.ts';
import { ClusterAccessSchema, type ClusterAccess } from '../../../shared/contracts/access.ts';
import { createApiClient, type ApiClient } from '../../../electron/engine/diff/cluster/client.ts';
import { StreamHub } from '../../../electron/engine/hub.ts';
import { LiveCluster } from '../../../electron/engine/live-cluster.ts';
import { startSimCluster, type SimCluster } from '../../../electron/engine/simcluster/index.ts';
import { T, waitFor } from './informers/helpers.ts';
import { seedPods } from './informers/seed-pods.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const NODES_HIDDEN = 'Nodes are hidden by your permissions: you may not list and watch nodes at the cluster scope';

let sim: SimCluster | undefined;
let live: LiveCluster | undefined;
let admin: ApiClient | undefined;
afterEach(async () => {
  await live?.stop();
  admin?.close();
  await sim?.stop();
  live = undefined;
  admin = undefined;
  sim = undefined;
});

async function adminRequest(method: 'POST' | 'DELETE', path: string, json?: object): Promise<void> {
  admin ??= await createApiClient((sim as SimCluster).kubeconfigObject());
  const response = await admin.request(method, path, json ? { json, contentType: 'application/json' } : undefined);
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
}

function viewBinding(namespace: string): object {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'dev-view', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }],
  };
}

/**
 * The demo's namespaces with pods in each, "dev" allowed to list and watch namespaces (unless
 * `namespaceReader` is false), and LiveCluster watching as dev.
 */
async function watchAsDev(options: { namespaceReader?: boolean; userNamespaces?: string[] } = {}): Promise<{ cluster: LiveCluster; published: ClusterAccess[] }> {
  sim = await startSimCluster({ scenario: 'demo', controllers: false, tls: false, users: [{ name: 'dev', role: 'view', namespaces: ['shop', 'payments'] }], onError: () => {} });
  for (const namespace of ['shop', 'payments', 'platform']) seedPods(sim, namespace, 2);
  if (options.namespaceReader !== false) await grantNamespaceReader();
  const hub = new StreamHub();
  const published: ClusterAccess[] = [];
  hub.listen((stream, payload) => {
    if (stream === 'cluster:access') published.push(ClusterAccessSchema.parse(payload));
  });
  const cluster = new LiveCluster({ hub, log: () => undefined });
  live = cluster;
  await cluster.reset('kubedrift-demo-dev');
  if (options.userNamespaces) await cluster.setAccessibleNamespaces(options.userNamespaces);
  await cluster.watch(sim.userKubeconfigObject('dev'));
  return { cluster, published };
}

async function grantNamespaceReader(): Promise<void> {
  await adminRequest('POST', `${RBAC}/clusterroles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'namespace-reader' }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] }] });
  await adminRequest('POST', `${RBAC}/clusterrolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'dev-namespace-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'namespace-reader' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }],
  });
}

/** Uids of the store's pods in these namespaces. */
function podsIn(namespaces: readonly string[]): string {
  return (sim as SimCluster).store
    .all(T('pods'))
    .filter((p) => namespaces.includes(p.metadata.namespace ?? ''))
    .map((p) => p.metadata.uid)
    .sort()
    .join();
}

function cachedPods(cluster: LiveCluster): string {
  return cluster.cache
    .list('pods')
    .map((p) => p.metadata.uid)
    .sort()
    .join();
}

const kindHealth = (cluster: LiveCluster, kind: string) => cluster.health().kinds.find((k) => k.kind === kind);

describe('LiveCluster for a user who may read only some namespaces', () => {
  it('caches the pods of shop and payments and none of another namespace; Nodes are hidden, not an error', async () => {
    const { cluster, published } = await watchAsDev();
    // The pods may be live before the check has ended (their lists start on the rules reviews).
    await waitFor('shop and payments pods, live per namespace, and the check done', () => cachedPods(cluster) === podsIn(['shop', 'payments']) && kindHealth(cluster, 'pods')?.state === 'live' && cluster.accessState().summary !== null, 8_000);
    expect(kindHealth(cluster, 'pods')?.message).toBe('Namespaces payments, shop');
    expect(kindHealth(cluster, 'deployments.apps')).toMatchObject({ state: 'live', message: 'Namespaces payments, shop' });
    expect(cluster.cache.list('deployments.apps').every((d) => ['shop', 'payments'].includes(d.metadata.namespace ?? ''))).toBe(true);
    expect(cluster.cache.size('deployments.apps')).toBeGreaterThan(0);
    // Namespaces may be listed cluster-wide: all of them, as usual.
    expect(kindHealth(cluster, 'namespaces')?.state).toBe('live');

    expect(kindHealth(cluster, 'nodes')).toMatchObject({ state: 'forbidden', count: 0, message: NODES_HIDDEN });
    expect(cluster.discoveryState().state?.kinds.find((k) => k.key === 'nodes')).toMatchObject({ mode: 'forbidden', message: NODES_HIDDEN });

    const summary = AccessSummarySchema.parse(cluster.accessState().summary);
    expect(summary).toMatchObject({ restricted: true, namespaces: ['payments', 'shop'], noAccess: false });
    expect(summary.hiddenKinds[0]).toEqual({ key: 'nodes', kind: 'Node', message: NODES_HIDDEN });
    expect(accessStatusText(summary)).toMatch(/^Namespaces payments, shop · Nodes, Certificates, ClusterRoleBindings and \d+ more kinds hidden by your permissions$/);
    expect(published.at(-1)).toEqual(cluster.accessState());
  });

  it('drops a namespace whose RoleBinding is removed on its 403 alone; the other namespace keeps going', async () => {
    const { cluster } = await watchAsDev();
    await waitFor('shop and payments pods', () => cachedPods(cluster) === podsIn(['shop', 'payments']) && kindHealth(cluster, 'pods')?.state === 'live', 8_000);
    await adminRequest('DELETE', `${RBAC}/namespaces/payments/rolebindings/dev-view`);
    // The server does not end open watches on an RBAC change; the next reconnect meets the 403.
    cluster.restartAll('test: reconnect');
    await waitFor('payments gone after the recheck', () => cachedPods(cluster) === podsIn(['shop']) && kindHealth(cluster, 'pods')?.message === 'Namespaces shop', 8_000);
    expect(kindHealth(cluster, 'pods')?.state).toBe('live');
    expect(cluster.accessState().summary?.namespaces).toEqual(['shop']);
    expect(cluster.accessState().summary?.checked.find((c) => c.name === 'payments')).toMatchObject({ state: 'none' });
  });

  it('picks up a RoleBinding granted later when access is checked again', async () => {
    const { cluster } = await watchAsDev();
    await waitFor('shop and payments pods', () => cachedPods(cluster) === podsIn(['shop', 'payments']) && kindHealth(cluster, 'pods')?.state === 'live', 8_000);
    await adminRequest('POST', `${RBAC}/namespaces/platform/rolebindings`, viewBinding('platform'));
    const access = await cluster.recheckAccess();
    expect(access.summary?.namespaces).toEqual(['payments', 'platform', 'shop']);
    await waitFor('platform pods too', () => cachedPods(cluster) === podsIn(['shop', 'payments', 'platform']) && kindHealth(cluster, 'pods')?.message === 'Namespaces payments, platform, shop', 8_000);
  });

  it('checks a namespace that becomes visible on its own, without waiting for the next check', async () => {
    const { cluster } = await watchAsDev();
    await waitFor('the first check', () => cluster.accessState().summary?.namespaces.join() === 'payments,shop', 8_000);
    // The binding is written before its namespace appears, so the namespace is readable the moment it is seen.
    (sim as SimCluster).store.create(T('rolebindings.rbac.authorization.k8s.io'), viewBinding('team-x') as never);
    await adminRequest('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-x' } });
    await waitFor('team-x watched', () => cluster.accessState().summary?.namespaces.join() === 'payments,shop,team-x', 8_000);
    expect(cluster.accessState().summary?.checked.find((c) => c.name === 'team-x')).toMatchObject({ state: 'watched', sources: ['namespace-list'] });
  });

  it('reads the namespaces added by hand when the user may not list namespaces, with a message on one that does not exist', async () => {
    const { cluster } = await watchAsDev({ namespaceReader: false, userNamespaces: ['shop', 'no-such-team'] });
    await waitFor('shop pods and the check done', () => cachedPods(cluster) === podsIn(['shop']) && kindHealth(cluster, 'pods')?.message === 'Namespaces shop' && cluster.accessState().summary !== null, 8_000);
    expect(kindHealth(cluster, 'namespaces')).toMatchObject({ state: 'forbidden', message: expect.stringContaining('Namespaces are hidden by your permissions') });
    expect(cluster.accessState().summary?.checked.find((c) => c.name === 'no-such-team')).toMatchObject({ state: 'none', message: 'You may not list and watch anything Kubedrift shows in "no-such-team" (or it does not exist)' });

    await cluster.setAccessibleNamespaces(['shop', 'payments']);
    await waitFor('payments added', () => cachedPods(cluster) === podsIn(['shop', 'payments']), 8_000);
    expect(cluster.accessState().summary?.namespaces).toEqual(['payments', 'shop']);
    await expect(cluster.setAccessibleNamespaces(['Shop'])).rejects.toThrow(/^Accessible namespaces: a namespace name is lower-case letters/);
  });

  it('says every kind is hidden for a user with no rights beyond the self-reviews, with how to fix it', async () => {
    sim = await startSimCluster({ scenario: 'demo', controllers: false, tls: false, users: [{ name: 'nobody', role: 'none' }], onError: () => {} });
    const cluster = new LiveCluster({ hub: new StreamHub(), log: () => undefined });
    live = cluster;
    await cluster.reset('nobody');
    await cluster.watch(sim.userKubeconfigObject('nobody'));
    await waitFor('the pods hidden', () => kindHealth(cluster, 'pods')?.message?.startsWith('Pods are hidden by your permissions'), 8_000);
    expect(kindHealth(cluster, 'pods')?.message).toBe('Pods are hidden by your permissions: you may not list and watch pods at the cluster scope, and no namespace was found where you may');
    expect(kindHealth(cluster, 'nodes')).toMatchObject({ state: 'forbidden', message: NODES_HIDDEN });
    const summary = AccessSummarySchema.parse(cluster.accessState().summary);
    expect(summary).toMatchObject({ noAccess: true, howToFix: expect.stringContaining('RoleBinding') });
    expect(accessStatusText(summary)).toBe('No access beyond the self-reviews');
  });
});
