import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { expectConverged } from './convergence.ts';
import { Cleanup, logRequests, startClientCluster, TEST_KEEPALIVE_MS, waitFor } from './harness.ts';
import { startInformer } from './informer.ts';
import { PODS, podManifest } from './traffic.ts';

const CONFIGMAPS = typeById('configmaps') as ResourceType;
/** client-node's 30 s silence timeout scaled down as the server's 15 s keep-alive is (to 200 ms). */
const INACTIVITY_MS = 4 * TEST_KEEPALIVE_MS;

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('client-node informer: keep-alives and bookmarks', { timeout: 30_000 }, () => {
  it('keeps one watch open past its inactivity timeout while the server sends newline keep-alives', async () => {
    const { cluster, kc, api } = await startClientCluster(cleanup, { controllers: false });
    const requests = logRequests(cluster.server.faults);
    cluster.store.create(PODS, podManifest('default', 'before'));
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces(), inactivityTimeoutMs: INACTIVITY_MS, supervise: false });
    const [call] = rig.watch.calls;
    // client-node asks for no bookmarks and no server-side timeout: only keep-alives hold it open.
    expect(call?.query).toEqual({ resourceVersion: String(cluster.store.currentRv()) });

    // Nothing changes: proving that the watch survives silence needs the silence to last.
    await sleep(3 * INACTIVITY_MS);
    expect(rig.watch.calls).toHaveLength(1);
    expect(call?.ended).toBe(false);
    expect(call?.events).toEqual([]);
    expect(requests.count('GET', '/api/v1/pods')).toBe(2);
    expect(rig.lists).toHaveLength(1);
    expect(cluster.server.faults.openWatches()).toBe(1);

    const after = cluster.store.create(PODS, podManifest('default', 'after'));
    await waitFor('the pod created after the silence', () => rig.informer.get('after', 'default')?.metadata?.uid === after.metadata.uid);
    expect(call?.events).toEqual([{ type: 'ADDED', rv: after.metadata.resourceVersion }]);
    await expectConverged(rig);
    expect(rig.errors).toEqual([]);
  });

  it('re-watches from its last resourceVersion when keep-alives stop for longer than its inactivity timeout', async () => {
    const { cluster, kc, api } = await startClientCluster(cleanup, { controllers: false });
    cluster.store.create(PODS, podManifest('default', 'before'));
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces(), inactivityTimeoutMs: INACTIVITY_MS, supervise: false });
    const rvBefore = rig.informer.latestResourceVersion();

    expect(cluster.server.faults.stallWatches()).toBe(1);
    const during = cluster.store.create(PODS, podManifest('default', 'during-stall'));
    cluster.store.delete(PODS, 'default', 'before');
    await waitFor('client-node to drop the silent watch and watch again', () => rig.watch.calls.length === 2 && rig.watch.open().length === 1);

    expect((rig.watch.calls[0]?.error as Error | undefined)?.name).toBe('TimeoutError');
    expect(rig.watch.calls[1]?.query).toEqual({ resourceVersion: rvBefore });
    expect(rig.lists).toHaveLength(1);
    // A timeout is retried inside client-node; it is not reported as an error.
    expect(rig.errors).toEqual([]);
    await expectConverged(rig);
    expect(rig.informer.get('during-stall', 'default')?.metadata?.uid).toBe(during.metadata.uid);
    expect(rig.informer.get('before', 'default')).toBeUndefined();
  });

  it('resumes after compaction without a relist when BOOKMARKs kept its resourceVersion current', async () => {
    const { cluster, kc, api } = await startClientCluster(cleanup, { controllers: false });
    cluster.store.create(PODS, podManifest('default', 'web'));
    const list = () => api.listPodForAllNamespaces();
    const plain = await startInformer(cleanup, kc, { path: '/api/v1/pods', list, supervise: { baseDelayMs: 50 } });
    const bookmarked = await startInformer(cleanup, kc, { path: '/api/v1/pods', list, watchQuery: { allowWatchBookmarks: true }, supervise: { baseDelayMs: 50 } });
    const listedRv = plain.informer.latestResourceVersion();

    // Changes to other kinds move the cluster-wide resourceVersion without any pod event.
    for (const name of ['a', 'b', 'c']) cluster.store.create(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { name } });
    const current = String(cluster.store.currentRv());
    await waitFor('a BOOKMARK at the current resourceVersion', () => bookmarked.informer.latestResourceVersion() === current);
    expect(bookmarked.watch.calls[0]?.events.at(-1)).toEqual({ type: 'BOOKMARK', rv: current });
    expect(plain.watch.calls[0]?.events).toEqual([]);
    expect(plain.informer.latestResourceVersion()).toBe(listedRv);

    cluster.server.faults.compact();
    expect(cluster.server.faults.cutWatches()).toBe(2);
    await waitFor('both informers to watch again', () => plain.lists.length === 2 && plain.watch.open().length === 1 && bookmarked.watch.calls.length === 2 && bookmarked.watch.open().length === 1);

    expect(plain.watch.calls[1]).toMatchObject({ query: { resourceVersion: listedRv }, events: [{ type: 'ERROR', code: 410 }], ended: true });
    expect(bookmarked.watch.calls[1]?.query).toEqual({ resourceVersion: current, allowWatchBookmarks: true });
    expect(bookmarked.lists).toHaveLength(1);
    const late = cluster.store.create(PODS, podManifest('default', 'late'));
    await waitFor('the late pod in both caches', () => [plain, bookmarked].every((rig) => rig.informer.get('late', 'default')?.metadata?.uid === late.metadata.uid));
    await expectConverged(plain);
    await expectConverged(bookmarked);
  });
});
