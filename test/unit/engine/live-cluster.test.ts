import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterFrame } from '../../../shared/cluster.ts';
import { StreamHub } from '../../../electron/engine/hub.ts';
import { LiveCluster } from '../../../electron/engine/live-cluster.ts';
import type { SimCluster } from '../../../electron/engine/simcluster/index.ts';
import { startQuietCluster, T, waitFor } from './informers/helpers.ts';

let sim: SimCluster | undefined;
let live: LiveCluster | undefined;
afterEach(async () => {
  await live?.stop();
  await sim?.stop();
  live = undefined;
  sim = undefined;
});

describe('LiveCluster', () => {
  it('ends on the last context when two switches overlap while the old informers stop', async () => {
    sim = await startQuietCluster();
    const hub = new StreamHub();
    const begins: Array<Extract<ClusterFrame, { type: 'snapshot-begin' }>> = [];
    hub.listen((stream, payload) => {
      const frame = payload as ClusterFrame;
      if (stream === 'cluster:frames' && frame.type === 'snapshot-begin') begins.push(frame);
    });
    const cluster = new LiveCluster({ hub, log: () => undefined });
    live = cluster;
    await cluster.reset('first');
    await cluster.watch(sim.kubeconfigObject('first'));
    await waitFor('the first context to be cached', () => cluster.cache.size('pods') === sim?.store.all(T('pods')).length);

    // The second reset is asked while the first still waits for the informers to stop.
    await Promise.all([cluster.reset('second'), cluster.reset('third')]);

    expect(cluster.health().context).toBe('third');
    const last = begins.at(-1);
    expect(last).toMatchObject({ context: 'third', epoch: cluster.health().epoch, total: 0 });
    expect(cluster.cache.size()).toBe(0);
  });

  it('stamps every cached object with its kind, uid and resourceVersion', async () => {
    sim = await startQuietCluster();
    const cluster = new LiveCluster({ hub: new StreamHub(), log: () => undefined });
    live = cluster;
    await cluster.reset('only');
    await cluster.watch(sim.kubeconfigObject('only'));
    await waitFor('the pods to be cached', () => cluster.cache.size('pods') === sim?.store.all(T('pods')).length);
    const stamps = cluster.stamps();
    expect(stamps).toHaveLength(cluster.cache.size());
    const pod = cluster.cache.list('pods')[0];
    expect(stamps).toContainEqual({ kind: 'pods', uid: pod?.metadata.uid, resourceVersion: pod?.metadata.resourceVersion });
  });
});
