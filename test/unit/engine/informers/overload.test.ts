/**
 * Overload: the cache's listeners take longer per change than the server takes to send one. The
 * watch is still read as fast as it arrives, changes to one pod collapse into one, the kind says
 * "behind by N s" while it catches up and stops saying it once caught up, and nothing relists.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { seedPods } from './seed-pods.ts';
import { startQuietCluster, startRecordingProxy, T, waitFor, watching, type RecordingProxy, type Watching } from './helpers.ts';

let sim: SimCluster | undefined;
let proxy: RecordingProxy | undefined;
let w: Watching | undefined;
afterEach(async () => {
  await w?.watcher.stop();
  await proxy?.close();
  await sim?.stop();
  w = sim = proxy = undefined;
});

/** Busy for `ms` of CPU, as a slow listener (a big history write, a slow renderer link) would be. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a watch under overload', () => {
  it('collapses a burst per pod, reports that it is behind while catching up, and never relists', { timeout: 60_000 }, async () => {
    sim = await startQuietCluster({ tls: false });
    seedPods(sim, 'default', 150);
    proxy = await startRecordingProxy(sim);
    w = watching(proxy.kubeconfig(), { kinds: ['pods'] });
    await w.watcher.start();
    const PODS = T('pods');
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live', 15_000);
    let slow = true;
    w.cache.onChange(() => {
      if (slow) busy(20);
    });
    const pods = sim.store.all(PODS);
    const before = w.changes.length;
    // 150 pods changed 10 times each: a 20 ms-per-change listener needs 3 s for just one round.
    const ROUNDS = 10;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const pod of pods) {
        sim.store.mutate(PODS, pod.metadata.namespace, pod.metadata.name ?? '', (copy) => {
          copy.metadata.labels = { ...copy.metadata.labels, round: String(round) };
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const behind = await waitFor('the pods to say they are behind', () => w?.health.reports.flat().find((h) => h.kind === 'pods' && h.lagMs !== undefined), 20_000);
    expect(behind).toMatchObject({ state: 'live', lagMs: expect.any(Number) });
    slow = false;
    await waitFor('the cache to catch up', () => w?.cache.list('pods').every((p) => p.metadata.labels?.['round'] === String(ROUNDS - 1)), 30_000);
    await waitFor('the lag to clear', () => w?.health.latest('pods')?.lagMs === undefined, 10_000);
    // Intermediate states were dropped: far fewer cache changes than the server's events.
    expect(w.changes.length - before).toBeLessThan(pods.length * ROUNDS);
    expect(w.logs.some((line) => /^pods: behind by \d+ s, \d+ changes waiting; catching up$/.test(line))).toBe(true);
    // One list at start, no relist (no 410, no restart from scratch). A list of one object is the
    // busy watch's probe of the server's newest resourceVersion (server-progress.ts), not a relist.
    const lists = proxy.requests.filter((r) => r.path === '/api/v1/pods' && r.query.get('watch') !== 'true' && r.query.get('limit') !== '1');
    expect(lists).toHaveLength(1);
    expect(proxy.requests.filter((r) => r.query.get('watch') === 'true')).toHaveLength(1);
  });
});
