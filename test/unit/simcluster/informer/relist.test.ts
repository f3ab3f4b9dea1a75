import { afterEach, describe, expect, it } from 'vitest';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { startChurn, type Churn } from '../../../../electron/engine/simcluster/scenarios/churn.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { expectConverged } from './convergence.ts';
import { Cleanup, startClientCluster, statusOf, waitFor } from './harness.ts';
import { startInformer } from './informer.ts';
import { PODS, podManifest, startPodTraffic, type PodTraffic } from './traffic.ts';

const CONFIGMAPS = typeById('configmaps') as ResourceType;

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function busyCluster(): Promise<Awaited<ReturnType<typeof startClientCluster>> & { churn: Churn; traffic: PodTraffic }> {
  const client = await startClientCluster(cleanup, { controllers: false });
  const churn = startChurn({ store: client.cluster.store, namespaces: 2, deploymentsPerNamespace: 2, podsPerDeployment: 5, eventsPerSecond: 100 });
  cleanup.add(() => churn.stop());
  const traffic = startPodTraffic(client.cluster.store);
  cleanup.add(() => traffic.stop());
  return { ...client, churn, traffic };
}

/**
 * Compacts history past the informer's resourceVersion and cuts its watch. A write first, in the
 * same tick, so the informer cannot already be at the compacted revision (a watch from exactly
 * there is still servable).
 */
function compactAndCut(cluster: SimCluster): number {
  cluster.store.create(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'marker-', namespace: 'default' } });
  cluster.server.faults.compact();
  expect(cluster.server.faults.cutWatches()).toBe(1);
  return cluster.store.oldestServableRv();
}

/** The watch after the cut asked for a compacted resourceVersion (events in flight at the cut may have moved it past `seenRv`). */
function expectStaleResume(query: Record<string, unknown> | undefined, seenRv: string, compactedRv: number): void {
  const rv = Number(query?.['resourceVersion']);
  expect(rv).toBeGreaterThanOrEqual(Number(seenRv));
  expect(rv).toBeLessThan(compactedRv);
}

describe('client-node informer: 410 Gone', { timeout: 30_000 }, () => {
  it('relists after 410 Gone sent in the watch stream when history was compacted', async () => {
    const { cluster, kc, api, churn, traffic } = await busyCluster();
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces() });
    const doomed = cluster.store.create(PODS, podManifest('default', 'doomed'));
    await waitFor('some watched traffic', () => (rig.watch.calls[0]?.events.length ?? 0) >= 20 && rig.informer.get('doomed', 'default') !== undefined);
    const seenRv = rig.informer.latestResourceVersion();

    const compactedRv = compactAndCut(cluster);
    // Changes the cut-off informer can only learn from the relist.
    cluster.store.delete(PODS, 'default', 'doomed');
    const born = cluster.store.create(PODS, podManifest('default', 'born-while-cut'));
    await waitFor('the relist and a new watch', () => rig.lists.length === 2 && rig.watch.calls.length === 3 && rig.watch.open().length === 1);
    expect(rig.recorder.countsFor(doomed.metadata.uid)).toEqual({ add: 1, update: 0, delete: 1 });
    expect(rig.recorder.countsFor(born.metadata.uid)).toEqual({ add: 1, update: 0, delete: 0 });
    // The cut socket is an error to client-node: it stops, and the supervisor restarts it.
    expect(rig.supervisor?.errors).toHaveLength(1);
    expect(String((rig.supervisor?.errors[0] as Error).message)).toMatch(/terminated/);
    // Restarted from where it was, it hears 410 in the stream, then relists and watches from the list.
    expectStaleResume(rig.watch.calls[1]?.query, seenRv, compactedRv);
    expect(rig.watch.calls[1]).toMatchObject({ events: [{ type: 'ERROR', code: 410 }], ended: true });
    expect(rig.watch.calls[1]?.error).toBeUndefined();
    expect(Number(rig.watch.calls[2]?.query['resourceVersion'])).toBeGreaterThanOrEqual(compactedRv);

    const modificationsAtRelist = churn.counters.modifications;
    const createdAtRelist = traffic.counters.created;
    await waitFor('churn to go on after the relist', () => churn.counters.modifications >= modificationsAtRelist + 20 && traffic.counters.created >= createdAtRelist + 5);
    churn.stop();
    traffic.stop();
    await expectConverged(rig);
    expect(rig.supervisor?.errors).toHaveLength(1);
  });

  it('relists after 410 Gone sent as the HTTP status of the watch request', async () => {
    const { cluster, kc, api, churn, traffic } = await busyCluster();
    cluster.server.faults.watch410Mode('http');
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces() });
    await waitFor('some watched traffic', () => (rig.watch.calls[0]?.events.length ?? 0) >= 20);
    const seenRv = rig.informer.latestResourceVersion();

    const compactedRv = compactAndCut(cluster);
    await waitFor('the relist and a new watch', () => rig.lists.length === 2 && rig.watch.calls.length === 3 && rig.watch.open().length === 1);
    expectStaleResume(rig.watch.calls[1]?.query, seenRv, compactedRv);
    expect(rig.watch.calls[1]).toMatchObject({ events: [], ended: true });
    expect(Number(rig.watch.calls[2]?.query['resourceVersion'])).toBeGreaterThanOrEqual(compactedRv);
    expect(statusOf(rig.watch.calls[1]?.error)).toBe(410);
    // client-node handles an HTTP 410 itself: only the cut reached the error handlers.
    expect(rig.supervisor?.errors).toHaveLength(1);

    const modificationsAtRelist = churn.counters.modifications;
    await waitFor('churn to go on after the relist', () => churn.counters.modifications >= modificationsAtRelist + 20);
    churn.stop();
    traffic.stop();
    await expectConverged(rig);
  });
});
