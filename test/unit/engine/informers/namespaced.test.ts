/**
 * Kinds read namespace by namespace for a restricted user, against the simulated cluster's real
 * RBAC: user "dev" has `view` in shop and payments only. Each namespace has its own list and
 * watch and fails alone; a relist in one namespace never deletes another's objects; a hidden
 * kind is dropped with the plan's message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KindKey } from '../../../../shared/cluster.ts';
import { combineHealth } from '../../../../electron/engine/cluster/informers/namespaced.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { slimPod } from '../stream/fixtures.ts';
import { T, waitFor, watching, type Watching } from './helpers.ts';
import { seedPods } from './seed-pods.ts';

let sim: SimCluster | undefined;
let running: Watching | undefined;
afterEach(async () => {
  await running?.watcher.stop();
  await sim?.stop();
  running = undefined;
  sim = undefined;
});

const DEV = { name: 'dev', role: 'view' as const, namespaces: ['shop', 'payments'] };

/** The demo's namespaces with two Running pods each (no controllers run, so nothing else changes). */
async function startCluster(): Promise<SimCluster> {
  sim = await startSimCluster({ scenario: 'demo', controllers: false, tls: false, users: [DEV], onError: () => {} });
  for (const namespace of ['shop', 'payments', 'platform']) seedPods(sim, namespace, 2);
  return sim;
}

/** Uids of the store's objects of a kind in these namespaces. */
function storeUids(cluster: SimCluster, id: string, namespaces: readonly string[]): string[] {
  return cluster.store
    .all(T(id))
    .filter((o) => namespaces.includes(o.metadata.namespace ?? ''))
    .map((o) => o.metadata.uid)
    .sort();
}

function cachedUids(cache: ObjectCache, kind: KindKey): string[] {
  return cache
    .list(kind)
    .map((o) => o.metadata.uid)
    .sort();
}

async function devWatcher(cluster: SimCluster, forbidden: Array<[KindKey, string | null]>): Promise<Watching> {
  running = watching(cluster.userKubeconfigObject('dev'), { kinds: ['pods', 'nodes', 'deployments.apps'], onForbidden: (kind, namespace) => forbidden.push([kind, namespace]) });
  await running.watcher.start();
  return running;
}

describe('ObjectCache.replaceNamespace', () => {
  it('replaces one namespace’s objects and leaves every other namespace’s alone', () => {
    const cache = new ObjectCache();
    cache.replaceNamespace('pods', 'shop', [slimPod(1, '1', 'shop'), slimPod(2, '1', 'shop')]);
    cache.replaceNamespace('pods', 'payments', [slimPod(3, '1', 'payments')]);
    const deletes: string[] = [];
    cache.onChange((c) => c.type === 'delete' && deletes.push(c.ref.uid));
    expect(cache.replaceNamespace('pods', 'shop', [slimPod(2, '2', 'shop')])).toEqual({ upserted: 1, deleted: 1 });
    expect(deletes).toEqual([slimPod(1).metadata.uid]);
    expect(cache.list('pods').map((p) => `${p.metadata.namespace}/${p.metadata.name}`).sort()).toEqual(['payments/' + slimPod(3).metadata.name, 'shop/' + slimPod(2).metadata.name]);
  });
});

describe('combineHealth', () => {
  it('is live while any namespace is, naming the live ones and each failing one with its message', () => {
    const slots = new Map([
      ['shop', { state: 'live' as const }],
      ['platform', { state: 'forbidden' as const, message: 'pods is forbidden' }],
      ['payments', { state: 'live' as const }],
    ]);
    expect(combineHealth(slots)).toEqual({ state: 'live', message: 'Namespaces payments, shop; platform: pods is forbidden' });
  });

  it('is syncing while a namespace still lists, and forbidden only when every namespace is', () => {
    expect(combineHealth(new Map([['shop', { state: 'live' as const }], ['payments', { state: 'syncing' as const }]])).state).toBe('syncing');
    expect(combineHealth(new Map([['shop', { state: 'forbidden' as const, message: 'no' }]]))).toEqual({ state: 'forbidden', message: 'shop: no' });
  });
});

describe('a kind read namespace by namespace', () => {
  it('caches the pods of shop and payments only; the forbidden platform fails alone and is reported', async () => {
    const cluster = await startCluster();
    const forbidden: Array<[KindKey, string | null]> = [];
    const w = await devWatcher(cluster, forbidden);
    await waitFor('the cluster-wide pods list refused', () => w.health.latest('pods')?.state === 'forbidden');
    expect(forbidden).toContainEqual(['pods', null]);

    w.watcher.setScope('pods', { scope: 'namespaces', namespaces: ['payments', 'platform', 'shop'] });
    const expected = storeUids(cluster, 'pods', ['shop', 'payments']);
    expect(expected.length).toBeGreaterThan(2);
    await waitFor('shop and payments pods cached', () => cachedUids(w.cache, 'pods').join() === expected.join() && w.health.latest('pods')?.state === 'live');
    expect(w.cache.list('pods').some((p) => p.metadata.namespace === 'platform')).toBe(false);
    const health = w.health.latest('pods');
    expect(health?.message).toBe('Namespaces payments, shop; platform: pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "platform"');
    expect(health?.count).toBe(expected.length);
    expect(forbidden).toContainEqual(['pods', 'platform']);
  });

  it('relists one namespace without deleting the other namespace’s objects', async () => {
    const cluster = await startCluster();
    const w = await devWatcher(cluster, []);
    w.watcher.setScope('deployments.apps', { scope: 'namespaces', namespaces: ['payments', 'shop'] });
    const expected = storeUids(cluster, 'deployments.apps', ['shop', 'payments']);
    await waitFor('both namespaces cached', () => cachedUids(w.cache, 'deployments.apps').join() === expected.join() && w.health.latest('deployments.apps')?.state === 'live');
    w.changes.length = 0;
    // Dropping payments and taking it back relists payments alone into the kind's shared bucket.
    w.watcher.setScope('deployments.apps', { scope: 'namespaces', namespaces: ['shop'] });
    const shop = storeUids(cluster, 'deployments.apps', ['shop']);
    await waitFor('payments dropped', () => cachedUids(w.cache, 'deployments.apps').join() === shop.join());
    w.watcher.setScope('deployments.apps', { scope: 'namespaces', namespaces: ['payments', 'shop'] });
    await waitFor('payments back', () => cachedUids(w.cache, 'deployments.apps').join() === expected.join());
    const deleted = w.changes.filter((c) => c.type === 'delete').map((c) => c.object.metadata.namespace);
    expect(deleted.length).toBeGreaterThan(0);
    expect(deleted.every((ns) => ns === 'payments')).toBe(true);
  });

  it('drops a hidden kind and says it is hidden by the user’s permissions, not an error', async () => {
    const cluster = await startCluster();
    const w = await devWatcher(cluster, []);
    const message = 'Nodes are hidden by your permissions: you may not list and watch nodes at the cluster scope';
    w.watcher.setScope('nodes', { scope: 'hidden', message });
    await waitFor('nodes hidden', () => w.health.latest('nodes')?.message === message);
    expect(w.health.latest('nodes')).toMatchObject({ state: 'forbidden', count: 0, message });
    expect(w.cache.size('nodes')).toBe(0);
  });

  it('goes back to one cluster-wide list when the plan says so, keeping every namespace’s objects', async () => {
    const cluster = await startCluster();
    running = watching(cluster.kubeconfigObject(), { kinds: ['pods'] });
    const w = running;
    w.watcher.setScope('pods', { scope: 'namespaces', namespaces: ['shop'] });
    await w.watcher.start();
    const shop = storeUids(cluster, 'pods', ['shop']);
    await waitFor('shop pods only', () => cachedUids(w.cache, 'pods').join() === shop.join() && w.health.latest('pods')?.message === 'Namespaces shop');
    w.watcher.setScope('pods', { scope: 'cluster' });
    const all = cluster.store
      .all(T('pods'))
      .map((o) => o.metadata.uid)
      .sort();
    await waitFor('every pod', () => cachedUids(w.cache, 'pods').join() === all.join() && w.health.latest('pods')?.state === 'live');
    expect(w.changes.some((c) => c.type === 'delete')).toBe(false);
  });
});
