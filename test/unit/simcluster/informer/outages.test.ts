import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startChurn } from '../../../../electron/engine/simcluster/scenarios/churn.ts';
import { expectConverged } from './convergence.ts';
import { Cleanup, logRequests, startClientCluster, waitFor } from './harness.ts';
import { startInformer } from './informer.ts';
import { PODS, podManifest, startPodTraffic } from './traffic.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('client-node informer: server restarts and stalled watches', { timeout: 30_000 }, () => {
  it('stops for good when the server restarts, until the caller starts it again', async () => {
    const { cluster, kc, api } = await startClientCluster(cleanup, { controllers: false });
    cluster.store.create(PODS, podManifest('default', 'before'));
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces(), supervise: false });
    const rvBefore = rig.informer.latestResourceVersion();

    await cluster.server.restart();
    await waitFor('the informer to report the destroyed socket', () => rig.errors.length === 1);
    const requests = logRequests(cluster.server.faults);
    const missed = cluster.store.create(PODS, podManifest('default', 'missed'));
    // Proving that nothing happens takes a wait: client-node's first reconnect is immediate, so half a second would show one.
    await sleep(500);
    expect(requests.entries).toEqual([]);
    expect(rig.watch.calls).toHaveLength(1);
    expect(rig.informer.get('missed', 'default')).toBeUndefined();

    await rig.informer.start();
    await waitFor('the pod created while it was stopped', () => rig.informer.get('missed', 'default')?.metadata?.uid === missed.metadata.uid);
    // The store survived the restart, so the informer resumed from its resourceVersion without a relist.
    expect(rig.watch.calls[1]?.query).toEqual({ resourceVersion: rvBefore });
    expect(rig.lists).toHaveLength(1);
    await expectConverged(rig);
  });

  it('resumes after the server restarts without losing or duplicating pods', async () => {
    const { cluster, kc, api } = await startClientCluster(cleanup, { controllers: false });
    const churn = startChurn({ store: cluster.store, namespaces: 2, deploymentsPerNamespace: 2, podsPerDeployment: 5, eventsPerSecond: 100 });
    cleanup.add(() => churn.stop());
    const traffic = startPodTraffic(cluster.store);
    cleanup.add(() => traffic.stop());
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces() });
    await waitFor('some watched traffic', () => (rig.watch.calls[0]?.events.length ?? 0) >= 20);

    await cluster.server.restart();
    await waitFor('a watch on the restarted server', () => (rig.supervisor?.restarts.length ?? 0) >= 1 && rig.watch.open().length === 1);
    expect(rig.supervisor?.errors.length).toBeGreaterThanOrEqual(1);
    const createdAtResume = traffic.counters.created;
    await waitFor('traffic to go on after the restart', () => traffic.counters.created >= createdAtResume + 5 && traffic.counters.deleted >= 10);
    churn.stop();
    traffic.stop();

    await expectConverged(rig);
    expect(rig.lists).toHaveLength(1);
    const watched = [...rig.recorder.counts.values()];
    expect(watched.filter((counts) => counts.delete === 1).length).toBe(traffic.counters.deleted);
    expect(watched.every((counts) => counts.add === 1)).toBe(true);
  });

  it('catches up when a stalled watch resumes', async () => {
    const { cluster, kc, api } = await startClientCluster(cleanup, { controllers: false });
    const traffic = startPodTraffic(cluster.store, { intervalMs: 20 });
    cleanup.add(() => traffic.stop());
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces() });
    await waitFor('some watched traffic', () => (rig.watch.calls[0]?.events.length ?? 0) >= 10);

    expect(cluster.server.faults.stallWatches()).toBe(1);
    const createdAtStall = traffic.counters.created;
    await waitFor('traffic during the stall', () => traffic.counters.created >= createdAtStall + 10);
    const latest = `traffic-${traffic.counters.created - 1}`;
    expect(rig.informer.get(latest, 'traffic')).toBeUndefined();

    cluster.server.faults.resumeWatches();
    traffic.stop();
    await expectConverged(rig);
    expect(rig.informer.get(latest, 'traffic')).toBeDefined();
    // The same watch carried the queued events: no re-watch, no relist, no error.
    expect(rig.watch.calls).toHaveLength(1);
    expect(rig.lists).toHaveLength(1);
    expect(rig.errors).toEqual([]);
  });
});
