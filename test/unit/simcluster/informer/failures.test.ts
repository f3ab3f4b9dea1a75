import type { CoreV1Event } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { startChurn } from '../../../../electron/engine/simcluster/scenarios/churn.ts';
import type { RequestMatcher } from '../../../../electron/engine/simcluster/server/faults.ts';
import { expectConverged } from './convergence.ts';
import { Cleanup, startClientCluster, statusOf, waitFor } from './harness.ts';
import { startInformer } from './informer.ts';
import { PODS, podManifest } from './traffic.ts';

const CONFIGMAPS = typeById('configmaps') as ResourceType;
const podRequests: RequestMatcher = (method, path) => method === 'GET' && path === '/api/v1/pods';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function churningCluster() {
  const client = await startClientCluster(cleanup, { controllers: false });
  const churn = startChurn({ store: client.cluster.store, namespaces: 2, deploymentsPerNamespace: 2, podsPerDeployment: 5, eventsPerSecond: 50 });
  cleanup.add(() => churn.stop());
  return { ...client, churn };
}

describe('client-node informer: failing requests and the Events quirk', { timeout: 30_000 }, () => {
  it('retries a list that fails with 500 Internal Server Error until the server recovers', async () => {
    const { cluster, kc, api, churn } = await churningCluster();
    cluster.server.faults.failRequests({ status: 500, match: podRequests });
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces(), supervise: { baseDelayMs: 50 } });

    await waitFor('three failed lists', () => (rig.supervisor?.errors.length ?? 0) >= 3);
    // client-node gives up after each failed list; only the supervisor's doubling delay brings it back.
    expect(rig.supervisor?.errors.slice(0, 3).map(statusOf)).toEqual([500, 500, 500]);
    expect(rig.supervisor?.delays.slice(0, 3)).toEqual([50, 100, 200]);
    expect(rig.watch.calls).toEqual([]);
    expect(rig.informer.list()).toEqual([]);

    cluster.server.faults.clear();
    await waitFor('a watch after a successful list', () => rig.watch.open().length === 1);
    const modifications = churn.counters.modifications;
    await waitFor('churn after recovery', () => churn.counters.modifications >= modifications + 10);
    churn.stop();
    const server = await expectConverged(rig);
    expect(Object.keys(server)).toHaveLength(20);
  });

  it('waits Retry-After before listing again after 429 Too Many Requests', async () => {
    const { cluster, kc, api, churn } = await churningCluster();
    cluster.server.faults.failRequests({ status: 429, retryAfterSeconds: 1, match: podRequests });
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces(), supervise: { baseDelayMs: 50 } });

    await waitFor('two throttled lists', () => rig.lists.length >= 2 && (rig.supervisor?.errors.length ?? 0) >= 2);
    const [first] = rig.supervisor?.errors ?? [];
    expect(statusOf(first)).toBe(429);
    expect((first as { headers: Record<string, string> }).headers['retry-after']).toBe('1');
    expect((first as { body: unknown }).body).toContain('"reason":"TooManyRequests"');
    expect(rig.supervisor?.delays.slice(0, 2)).toEqual([1_000, 1_000]);
    expect((rig.lists[1] ?? 0) - (rig.lists[0] ?? 0)).toBeGreaterThanOrEqual(1_000);

    cluster.server.faults.clear();
    await waitFor('a watch after a successful list', () => rig.watch.open().length === 1);
    churn.stop();
    await expectConverged(rig);
  });

  it('keeps a full Events cache through the empty-200 quirk, because client-node relists without a resourceVersion', async () => {
    const { cluster, kc, api } = await startClientCluster(cleanup);
    const list = () => api.listEventForAllNamespaces();
    await waitFor('events from the controllers', async () => (await list()).items.length >= 5);
    const rig = await startInformer<CoreV1Event>(cleanup, kc, { path: '/api/v1/events', list });
    await waitFor('the informer to follow new events', () => (rig.watch.calls[0]?.events.length ?? 0) >= 1);
    const seenRv = rig.informer.latestResourceVersion();

    cluster.server.faults.emptyListOnStaleEvents(true);
    cluster.store.create(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'marker-', namespace: 'default' } });
    cluster.server.faults.compact();
    expect(cluster.server.faults.cutWatches()).toBe(1);
    // The quirk is live: a list at the informer's now-compacted resourceVersion is an empty 200, not 410...
    const stale = await api.listEventForAllNamespaces({ resourceVersion: seenRv, resourceVersionMatch: 'Exact' });
    expect(stale.items).toEqual([]);

    // ...but client-node re-watches (410 in the stream) and relists with no resourceVersion at all.
    await waitFor('the relist and a new watch', () => rig.lists.length === 2 && rig.watch.calls.length === 3 && rig.watch.open().length === 1);
    expect(rig.watch.calls[1]?.events).toEqual([{ type: 'ERROR', code: 410 }]);
    expect([...rig.recorder.counts.values()].every((counts) => counts.delete === 0)).toBe(true);
    const duringQuirk = await expectConverged(rig);
    expect(Object.keys(duringQuirk).length).toBeGreaterThanOrEqual(5);

    cluster.server.faults.clear();
    await expect(api.listEventForAllNamespaces({ resourceVersion: seenRv, resourceVersionMatch: 'Exact' })).rejects.toMatchObject({ code: 410 });
    cluster.store.create(PODS, podManifest('default', 'late'));
    await waitFor('the scheduler event for the late pod', () => rig.informer.list().some((e) => e.involvedObject.name === 'late' && e.reason === 'Scheduled'));
    await expectConverged(rig);
  });
});
