import { afterEach, describe, expect, it } from 'vitest';
import type { KindKey } from '../../../../shared/cluster.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { cacheMatchesStore, cacheVersions, startQuietCluster, startRecordingProxy, storeVersions, T, waitFor, watching, type RecordingProxy, type Watching } from './helpers.ts';

const KINDS: KindKey[] = ['namespaces', 'nodes', 'pods', 'deployments.apps', 'replicasets.apps'];

let sim: SimCluster | undefined;
let proxy: RecordingProxy | undefined;
let w: Watching | undefined;
afterEach(async () => {
  await w?.watcher.stop();
  await proxy?.close();
  await sim?.stop();
  w = undefined;
  proxy = undefined;
  sim = undefined;
});

async function start(options: { pageSize: number; random?: () => number; watchList?: 'off'; views?: boolean }): Promise<{ sim: SimCluster; proxy: RecordingProxy; w: Watching }> {
  sim = await startQuietCluster({ tls: false });
  proxy = await startRecordingProxy(sim);
  w = watching(proxy.kubeconfig(), { kinds: KINDS, ...options });
  return { sim, proxy, w };
}

const podLists = (p: RecordingProxy) => p.requests.filter((r) => r.path === '/api/v1/pods' && !r.query.has('watch'));

describe('initial sync', () => {
  it('fills the cache from a paged list', async () => {
    const { sim, proxy, w } = await start({ pageSize: 4 });
    await w.watcher.start();
    await waitFor('every kind live', () => w.health.all(KINDS, 'live'));
    expect(cacheMatchesStore(w.cache, sim)).toBe(true);
    const pods = Object.keys(storeVersions(sim, 'pods')).length;
    expect(pods).toBe(12);
    const lists = podLists(proxy);
    // 12 pods in pages of 4: three requests, the later two continuing the first.
    expect(lists.map((r) => r.query.get('limit'))).toEqual(['4', '4', '4']);
    expect(lists.map((r) => r.query.has('continue'))).toEqual([false, true, true]);
    expect(w.cache.list('pods').every((p) => p.kind === 'Pod' && p.apiVersion === 'v1')).toBe(true);
    expect(w.cache.list('deployments.apps').every((d) => d.kind === 'Deployment' && d.apiVersion === 'apps/v1')).toBe(true);
    // Decoded in the list worker or inline: every listed object comes with its JSON for the frame stream.
    const upserts = w.changes.filter((c) => c.type === 'upsert');
    expect(upserts.length).toBeGreaterThan(12);
    for (const change of upserts) expect(change.json).toBe(JSON.stringify(change.object));
  });

  it('makes the pods’ renderer form only for a watcher whose cache a renderer reads', async () => {
    const pods = async (views: boolean | undefined) => {
      const { w } = await start({ pageSize: 4, ...(views === undefined ? {} : { views }) });
      await w.watcher.start();
      await waitFor('every kind live', () => w.health.all(KINDS, 'live'));
      return w.changes.filter((c) => c.type === 'upsert' && c.kind === 'pods');
    };
    const shown = await pods(undefined);
    expect(shown.length).toBe(12);
    expect(shown.every((c) => c.type === 'upsert' && typeof c.viewJson === 'string')).toBe(true);
    await w?.watcher.stop();
    await proxy?.close();
    await sim?.stop();
    const background = await pods(false);
    expect(background.length).toBe(12);
    expect(background.every((c) => c.type === 'upsert' && c.viewJson === undefined && c.json === JSON.stringify(c.object))).toBe(true);
  });

  it('reuses kept-alive connections for list pages instead of a new handshake per page', async () => {
    const { proxy, w } = await start({ pageSize: 1 });
    await w.watcher.start();
    await waitFor('every kind live', () => w.health.all(KINDS, 'live'));
    const lists = proxy.requests.filter((r) => !r.query.has('watch'));
    expect(lists.length).toBeGreaterThan(30);
    expect(new Set(lists.map((r) => r.clientPort)).size).toBeLessThan(lists.length / 3);
  });

  it('reports sync progress and then live with the cached count', async () => {
    const { w } = await start({ pageSize: 4 });
    await w.watcher.start();
    await waitFor('pods live', () => w.health.latest('pods')?.state === 'live');
    expect(w.health.states('pods')).toEqual(['syncing', 'live']);
    expect(w.health.latest('pods')).toMatchObject({ state: 'live', count: 12 });
    expect(w.watcher.health().find((h) => h.kind === 'pods')).toMatchObject({ state: 'live', count: 12 });
  });

  it('restarts the list when its continue token expires (WatchList off; watch-list.test.ts has the handover)', async () => {
    const { sim, proxy, w } = await start({ pageSize: 5, watchList: 'off' });
    let expired = false;
    proxy.before = (request) => {
      if (expired || request.path !== '/api/v1/pods' || !request.query.has('continue')) return;
      expired = true;
      // A write and a compaction between two pages: the token's snapshot is gone.
      sim.store.create(T('configmaps'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bump', namespace: 'default' } });
      sim.server.faults.compact();
    };
    await w.watcher.start();
    await waitFor('pods live', () => w.health.latest('pods')?.state === 'live');
    expect(expired).toBe(true);
    expect(podLists(proxy).map((r) => r.query.has('continue'))).toEqual([false, true, false, true, true]);
    expect(w.logs.some((m) => m.includes("pods: the list's continue token expired"))).toBe(true);
    // Restarted inside the list, not through the failure path.
    expect(w.health.states('pods')).toEqual(['syncing', 'live']);
    expect(cacheVersions(w.cache, 'pods')).toEqual(storeVersions(sim, 'pods'));
  });

  it('watches from the list resourceVersion with bookmarks and a timeout between 5 and 10 minutes', async () => {
    const randoms = [0, 0.999_999];
    let next = 0;
    const { sim, proxy, w } = await start({ pageSize: 500, random: () => randoms[next++ % 2] ?? 0 });
    const listRv = String(sim.store.currentRv());
    await w.watcher.start();
    await waitFor('every kind live', () => w.health.all(KINDS, 'live'));
    const watches = proxy.requests.filter((r) => r.query.get('watch') === 'true');
    expect(watches).toHaveLength(KINDS.length);
    for (const watch of watches) {
      expect(watch.query.get('allowWatchBookmarks')).toBe('true');
      expect(watch.query.get('resourceVersion')).toBe(listRv);
    }
    expect(new Set(watches.map((r) => r.query.get('timeoutSeconds')))).toEqual(new Set(['300', '600']));
  });
});
