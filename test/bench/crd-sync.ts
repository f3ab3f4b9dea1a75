/**
 * The engine's first sync of 50,000 pods with 300 (empty) CRDs in the cluster and without them:
 * do the 300 extra kinds (their discovery, 300 informers listing and watching) slow the sync of
 * what the cluster actually holds? The simulated cluster runs in its own process (live-sim.ts),
 * seeded once; the CRDs are created and deleted between runs, which alternate (A/B, each pair's
 * order swapped), after one untimed warm-up sync (none with --quick). Measured in the engine (a LiveCluster in this
 * process), from `LiveCluster.watch` until discovery has finished, the cache holds every pod and
 * every kind the engine follows reports live (with the CRDs: the 300 too). live-pipeline.ts's
 * `initial_sync_50k_pods_ms` goes on to the renderer; this one stops at the engine's cache, where
 * the CRDs' cost is.
 * - `initial_sync_50k_pods_300_crds_ms`: `{ with_crds, without_crds, runs }`, medians.
 * - `initial_sync_300_crds_ratio`: with / without, the median of the pairs' ratios (goal: within
 *   10 %, <= 1.1).
 */
import { benchKind } from './crd-fixture.ts';
import { discovered, fewPodsSim, followedLive, startEngine } from './crd-engine.ts';
import type { SimProcess } from './live-sim.ts';
import { percentile, round } from './stats.ts';
import type { BenchContext, BenchScenario } from './types.ts';

const SYNC_TIMEOUT_MS = 180_000;

function plan(quick: boolean): { crds: number; pairs: number } {
  return quick ? { crds: 10, pairs: 1 } : { crds: 300, pairs: 3 };
}

/** One sync from a fresh engine; the CRDs are created before it and deleted after it. */
async function syncOnce(sim: SimProcess, crds: number): Promise<number> {
  const keys = Array.from({ length: crds }, (_, i) => benchKind(i).key);
  if (crds > 0) await sim.crds.install(crds, false);
  (globalThis as { gc?: () => void }).gc?.();
  const engine = await startEngine(sim);
  try {
    const at = await engine.until('every pod cached and every followed kind live', (view) => view.cluster.cache.size('pods') === sim.pods && discovered(view, keys) && followedLive(view), SYNC_TIMEOUT_MS);
    return at - engine.startedAt;
  } finally {
    await engine.stop();
    if (crds > 0) await sim.crds.remove();
  }
}

async function measure(ctx: BenchContext, sim: SimProcess) {
  const { crds, pairs } = plan(ctx.quick);
  if (!ctx.quick) {
    ctx.log(`crd sync: warm-up sync of ${sim.pods} pods`);
    await syncOnce(sim, 0);
  }
  const withCrds: number[] = [];
  const without: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i += 1) {
    const order = i % 2 === 0 ? [crds, 0] : [0, crds];
    const pair: Record<number, number> = {};
    for (const count of order) {
      pair[count] = await syncOnce(sim, count);
      ctx.log(`crd sync: ${sim.pods} pods with ${count} CRDs in ${Math.round(pair[count] as number)} ms`);
    }
    withCrds.push(pair[crds] as number);
    without.push(pair[0] as number);
    ratios.push((pair[crds] as number) / (pair[0] as number));
  }
  return {
    initial_sync_50k_pods_300_crds_ms: { with_crds: Math.round(percentile(withCrds, 50)), without_crds: Math.round(percentile(without, 50)), runs: pairs },
    initial_sync_300_crds_ratio: round(percentile(ratios, 50), 2),
  };
}

export const crdSync: BenchScenario = {
  name: 'crd-sync',
  results: ['initial_sync_50k_pods_300_crds_ms', 'initial_sync_300_crds_ratio'],
  goals: [{ result: 'initial_sync_300_crds_ratio', atMost: 1.1 }],
  sharedSimProcess: true,
  async run(ctx) {
    // --quick: a smoke test of the harness on the other CRD benchmarks' few pods.
    return measure(ctx, await (ctx.quick ? fewPodsSim(ctx) : ctx.simProcess(ctx.sizes)));
  },
};
