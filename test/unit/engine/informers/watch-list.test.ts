/**
 * Informers on the WatchList protocol (KEP-3157) against the simulated cluster: the initial state
 * streamed as ADDED events up to the `k8s.io/initial-events-end` bookmark, then the same stream
 * watched on; what was deleted meanwhile dropped at that bookmark; the paged list when the server
 * has the feature gate off, remembered for the server; WatchList taking over a list whose continue
 * token expired; and namespaces read one by one.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { KindKey } from '../../../../shared/cluster.ts';
import type { WatchListMode } from '../../../../electron/engine/cluster/informers/watch-list.ts';
import type { SimCluster, SimClusterOptions } from '../../../../electron/engine/simcluster/index.ts';
import { cacheMatchesStore, cacheVersions, startQuietCluster, startRecordingProxy, storeVersions, T, waitFor, watching, type RecordingProxy, type SeenRequest, type Watching } from './helpers.ts';
import { seedPods } from './seed-pods.ts';

const KINDS: KindKey[] = ['namespaces', 'nodes', 'pods', 'deployments.apps', 'replicasets.apps'];

let sim: SimCluster | undefined;
let proxy: RecordingProxy | undefined;
let w: Watching | undefined;
let stripper: Server | undefined;
afterEach(async () => {
  await w?.watcher.stop();
  await proxy?.close();
  stripper?.closeAllConnections();
  await new Promise((resolve) => (stripper ? stripper.close(resolve) : resolve(undefined)));
  await sim?.stop();
  w = proxy = sim = stripper = undefined;
});

async function start(options: { watchList: WatchListMode; pageSize?: number; sim?: SimClusterOptions; kinds?: KindKey[] }): Promise<{ sim: SimCluster; proxy: RecordingProxy; w: Watching }> {
  sim = await startQuietCluster({ tls: false, ...options.sim });
  proxy = await startRecordingProxy(sim);
  w = watching(proxy.kubeconfig(), { kinds: options.kinds ?? KINDS, watchList: options.watchList, pageSize: options.pageSize ?? 500 });
  return { sim, proxy, w };
}

const isList = (r: SeenRequest): boolean => r.query.get('watch') !== 'true';
const isWatchList = (r: SeenRequest): boolean => r.query.get('watch') === 'true' && r.query.get('sendInitialEvents') === 'true';
const onPath = (path: string) => (r: SeenRequest) => r.path === path;

describe('initial state from WatchList', () => {
  it('syncs every kind from one watch with sendInitialEvents, no list request, and stays on that stream', async () => {
    const { sim, proxy, w } = await start({ watchList: 'prefer' });
    const rv = sim.store.currentRv();
    await w.watcher.start();
    await waitFor('every kind live', () => w.health.all(KINDS, 'live'));
    expect(cacheMatchesStore(w.cache, sim)).toBe(true);
    // Not one LIST of a watched kind: only discovery GETs.
    const kindLists = proxy.requests.filter((r) => isList(r) && /\/(namespaces|nodes|pods|deployments|replicasets)$/.test(r.path));
    expect(kindLists).toEqual([]);
    const watches = proxy.requests.filter((r) => r.query.get('watch') === 'true');
    expect(watches).toHaveLength(KINDS.length);
    for (const watch of watches) {
      expect(Object.fromEntries(watch.query)).toMatchObject({ sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true', resourceVersion: '' });
    }
    expect(w.health.states('pods')).toEqual(['syncing', 'live']);
    expect(w.logs).toContain('pods: 12 objects from the initial events of a WatchList');
    // Decoded as list pages are: every object comes with its JSON for the history and the frame stream.
    const upserts = w.changes.filter((c) => c.type === 'upsert');
    expect(upserts.length).toBeGreaterThan(12);
    for (const change of upserts) expect(change.json).toBe(JSON.stringify(change.object));
    // Later changes arrive on the same stream: no second request.
    const pod = sim.store.all(T('pods'))[0];
    if (!pod) throw new Error('no pod');
    sim.store.update(T('pods'), { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, after: 'sync' } } });
    await waitFor('the change to arrive', () => w.cache.get('pods', pod.metadata.uid as string)?.metadata.labels?.['after'] === 'sync');
    expect(proxy.requests.filter((r) => r.query.get('watch') === 'true')).toHaveLength(KINDS.length);
    expect(Number(sim.store.currentRv())).toBeGreaterThan(Number(rv));
  });

  it('drops the objects deleted while disconnected at the initial-events-end bookmark, and announces only what changed', async () => {
    const { sim, proxy, w } = await start({ watchList: 'prefer' });
    await w.watcher.start();
    await waitFor('every kind live', () => w.health.all(KINDS, 'live'));
    const [first, second] = sim.store.all(T('pods'));
    if (!first || !second) throw new Error('two pods expected');
    const relistRv = String(sim.store.currentRv());
    w.changes.length = 0;
    // While every watch is down: one pod goes, one changes, and the history is compacted away (410).
    sim.server.faults.cutWatches();
    sim.store.delete(T('pods'), second.metadata.namespace, second.metadata.name as string);
    sim.store.update(T('pods'), { ...first, metadata: { ...first.metadata, labels: { ...first.metadata.labels, touched: 'yes' } } });
    sim.server.faults.compact();
    await waitFor('the cache to equal the store', () => cacheMatchesStore(w.cache, sim) && w.health.all(KINDS, 'live'), 8_000);
    expect(w.cache.get('pods', second.metadata.uid as string)).toBeUndefined();
    expect(w.changes.map((c) => (c.type === 'upsert' ? ['upsert', c.object.metadata.uid] : ['delete', c.ref.uid]))).toEqual([
      ['upsert', first.metadata.uid],
      ['delete', second.metadata.uid],
    ]);
    // The relist was a WatchList from the last version known (NotOlderThan), not a LIST.
    const podRequests = proxy.requests.filter(onPath('/api/v1/pods'));
    expect(podRequests.filter(isList)).toEqual([]);
    const relist = podRequests.filter(isWatchList).at(-1);
    expect(Number(relist?.query.get('resourceVersion'))).toBeGreaterThanOrEqual(Number(relistRv) - 1);
    expect(relist?.query.get('resourceVersion')).not.toBe('');
  });
});

describe('a server without WatchList', () => {
  it('answers 422 with the feature gate off: the kinds fall back to the paged list, and the server is not asked again', async () => {
    const { sim, proxy, w } = await start({ watchList: 'prefer', sim: { watchList: false }, pageSize: 5 });
    await w.watcher.start();
    await waitFor('every kind live', () => w.health.all(KINDS, 'live'));
    expect(cacheMatchesStore(w.cache, sim)).toBe(true);
    expect(w.logs.filter((m) => m.includes('does not serve WatchList'))).toEqual([
      `${proxy.url} does not serve WatchList (ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled); listing page by page`,
    ]);
    const pods = proxy.requests.filter(onPath('/api/v1/pods'));
    expect(pods.filter(isList).map((r) => r.query.has('continue'))).toEqual([false, true, true]);
    const asked = proxy.requests.filter(isWatchList).length;
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(asked).toBeLessThanOrEqual(KINDS.length);
    // A relist later (410 after a compaction) lists again: WatchList is not tried on this server any more.
    sim.server.faults.cutWatches();
    sim.store.create(T('configmaps'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bump', namespace: 'default' } });
    sim.server.faults.compact();
    await waitFor('a relist', () => w.logs.filter((m) => m.includes('(410); relisting')).length >= KINDS.length && w.health.all(KINDS, 'live'), 8_000);
    expect(proxy.requests.filter(isWatchList)).toHaveLength(asked);
    expect(proxy.requests.filter(onPath('/api/v1/pods')).filter(isList).length).toBeGreaterThan(3);
  });

  it('ignores sendInitialEvents (a proxy drops it): no end bookmark arrives, and the kind lists instead', async () => {
    sim = await startQuietCluster({ tls: false });
    proxy = await startRecordingProxy(sim);
    // A proxy that drops the WatchList parameters, as an old aggregated server or gateway would ignore them.
    const target = new URL(proxy.url);
    stripper = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      for (const name of ['sendInitialEvents', 'resourceVersionMatch']) url.searchParams.delete(name);
      if (url.searchParams.get('resourceVersion') === '') url.searchParams.set('resourceVersion', String(sim?.store.currentRv()));
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        pipeline(answer, res, () => undefined);
      });
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => stripper?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(stripper.address() as AddressInfo).port}`;
    const config = proxy.kubeconfig() as { clusters: Array<{ cluster: object }> };
    const kubeconfig = { ...config, clusters: config.clusters.map((c) => ({ ...c, cluster: { ...c.cluster, server: url } })) };
    w = watching(kubeconfig, { kinds: ['pods'], watchList: 'prefer', watchListSilenceMs: 300 });
    await w.watcher.start();
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live', 8_000);
    expect(cacheVersions(w.cache, 'pods')).toEqual(storeVersions(sim, 'pods'));
    expect(w.logs.some((m) => /does not serve WatchList \((no initial-events-end bookmark after 300 ms of silence|a bookmark came before the end of the initial events)/.test(m))).toBe(true);
    expect(proxy.requests.filter(onPath('/api/v1/pods')).filter(isList)).toHaveLength(1);
  });
});

describe('a list whose continue token expires', () => {
  it('is finished by WatchList instead of starting over from the first page', async () => {
    const { sim, proxy, w } = await start({ watchList: 'on-expiry', pageSize: 5, kinds: ['pods'] });
    let expired = false;
    proxy.before = (seen) => {
      if (expired || seen.path !== '/api/v1/pods' || !seen.query.has('continue')) return;
      expired = true;
      // A write and a compaction between two pages: the token's snapshot is gone.
      sim.store.create(T('configmaps'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bump', namespace: 'default' } });
      sim.server.faults.compact();
    };
    await w.watcher.start();
    await waitFor('pods live', () => w.health.latest('pods')?.state === 'live');
    expect(expired).toBe(true);
    const pods = proxy.requests.filter(onPath('/api/v1/pods'));
    // One full page, the expired continue (maybe pages read ahead with it), then the WatchList; never page 1 again.
    expect(pods.filter(isList).filter((r) => !r.query.has('continue'))).toHaveLength(1);
    expect(pods.filter(isWatchList)).toHaveLength(1);
    expect(pods.filter((r) => r.query.get('watch') === 'true')).toHaveLength(1);
    expect(w.logs).toContain("pods: the list's continue token expired; WatchList takes over");
    // Handed over inside the sync, not through the failure path.
    expect(w.health.states('pods')).not.toContain('reconnecting');
    expect(cacheVersions(w.cache, 'pods')).toEqual(storeVersions(sim, 'pods'));
  });

  it('starts over page by page when WatchList is off', async () => {
    const { sim, proxy, w } = await start({ watchList: 'off', pageSize: 5, kinds: ['pods'] });
    let expired = false;
    proxy.before = (seen) => {
      if (expired || seen.path !== '/api/v1/pods' || !seen.query.has('continue')) return;
      expired = true;
      sim.store.create(T('configmaps'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bump', namespace: 'default' } });
      sim.server.faults.compact();
    };
    await w.watcher.start();
    await waitFor('pods live', () => w.health.latest('pods')?.state === 'live');
    expect(proxy.requests.filter(isWatchList)).toEqual([]);
    expect(w.logs).toContain("pods: the list's continue token expired; listing again from the start");
    expect(cacheVersions(w.cache, 'pods')).toEqual(storeVersions(sim, 'pods'));
  });
});

describe('namespaces read one by one', () => {
  it('reads each namespace with its own WatchList, and a relist in one drops only its own deleted objects', async () => {
    const { sim, proxy, w } = await start({ watchList: 'prefer', kinds: ['pods'] });
    seedPods(sim, 'shop', 3);
    seedPods(sim, 'payments', 2);
    w.watcher.setScope('pods', { scope: 'namespaces', namespaces: ['payments', 'shop'] });
    await w.watcher.start();
    const inScope = (): Record<string, string> => Object.fromEntries(Object.entries(storeVersions(sim, 'pods')).filter(([uid]) => ['shop', 'payments'].includes(sim.store.all(T('pods')).find((p) => p.metadata.uid === uid)?.metadata.namespace ?? '')));
    await waitFor('the two namespaces synced', () => w.health.latest('pods')?.state === 'live' && JSON.stringify(cacheVersions(w.cache, 'pods')) === JSON.stringify(inScope()));
    expect(Object.keys(cacheVersions(w.cache, 'pods'))).toHaveLength(5);
    const namespaced = proxy.requests.filter((r) => r.path.startsWith('/api/v1/namespaces/') && r.path.endsWith('/pods'));
    expect(namespaced.filter(isList)).toEqual([]);
    expect(namespaced.filter(isWatchList).map((r) => r.path).sort()).toEqual(['/api/v1/namespaces/payments/pods', '/api/v1/namespaces/shop/pods']);
    // Disconnected: a shop pod goes; after the 410 each namespace's WatchList replaces only its own objects.
    const gone = sim.store.all(T('pods'), 'shop')[0];
    if (!gone) throw new Error('no shop pod');
    sim.server.faults.cutWatches();
    sim.store.delete(T('pods'), 'shop', gone.metadata.name as string);
    sim.server.faults.compact();
    await waitFor('the deletion to reach the cache', () => w.cache.get('pods', gone.metadata.uid as string) === undefined && w.health.latest('pods')?.state === 'live', 8_000);
    expect(cacheVersions(w.cache, 'pods')).toEqual(inScope());
    expect(Object.keys(cacheVersions(w.cache, 'pods'))).toHaveLength(4);
    expect(proxy.requests.filter((r) => r.path.startsWith('/api/v1/namespaces/')).filter(isList)).toEqual([]);
  });
});
