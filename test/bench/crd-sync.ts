/**
 * The engine's first sync of 50,000 pods with 300 (empty) CRDs in the cluster and without them:
 * do the 300 extra kinds (their discovery, 300 informers listing and watching) slow the sync of
 * what the cluster actually holds? The simulated cluster runs in its own process (live-sim.ts),
 * seeded once; the CRDs are created and deleted between runs, which alternate (A/B, each pair's
 * order swapped), after one untimed warm-up sync (none with --quick). Measured in the engine (a
 * LiveCluster in this process) from `LiveCluster.watch`; live-pipeline.ts's
 * `initial_sync_50k_pods_ms` goes on to the renderer, this one stops at the engine's cache,
 * where the CRDs' cost is.
 * - `initial_sync_50k_pods_300_crds_ms`: `{ with_crds, without_crds, runs }`, medians, until the
 *   cache holds every pod and every built-in kind reports live (the sync the issue compares).
 * - `initial_sync_300_crds_ratio`: with / without, the median of the pairs' ratios (goal: within
 *   10 %, <= 1.1).
 * - `initial_sync_300_crds_all_live_ms`: with the CRDs, until discovery has finished and the 300
 *   kinds report live too (median).
 */
import { benchKind } from './crd-fixture.ts';
import { WATCHED_KINDS } from '../../shared/cluster.ts';
import { allLive, discovered, followedLive, sizedSim, startEngine } from './crd-engine.ts';
import type { SimProcess } from './live-sim.ts';
import { percentile, round } from './stats.ts';
import type { BenchContext, BenchScenario } from './types.ts';

const SYNC_TIMEOUT_MS = 180_000;

function plan(quick: boolean): { crds: number; pairs: number } {
  return quick ? { crds: 10, pairs: 1 } : { crds: 300, pairs: 3 };
}

/**
 * One sync from a fresh engine (the CRDs are created before it and deleted after it): ms until
 * the pods are synced, and until every followed kind is live.
 */
async function syncOnce(sim: SimProcess, crds: number): Promise<{ pods: number; all: number }> {
  const keys = Array.from({ length: crds }, (_, i) => benchKind(i).key);
  if (crds > 0) await sim.crds.install(crds, false);
  (globalThis as { gc?: () => void }).gc?.();
  const engine = await startEngine(sim);
  try {
    const synced = engine.until('every pod cached and every built-in kind live', (view) => view.cluster.cache.size('pods') === sim.pods && allLive(view, WATCHED_KINDS), SYNC_TIMEOUT_MS);
    const live = engine.until('discovery done and every followed kind live', (view) => discovered(view, keys) && followedLive(view), SYNC_TIMEOUT_MS);
    const [podsAt, allAt] = await Promise.all([synced, live]);
    return { pods: podsAt - engine.startedAt, all: Math.max(podsAt, allAt) - engine.startedAt };
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
  const allLiveWith: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i += 1) {
    const order = i % 2 === 0 ? [crds, 0] : [0, crds];
    const pair: Record<number, { pods: number; all: number }> = {};
    for (const count of order) {
      const run = await syncOnce(sim, count);
      pair[count] = run;
      ctx.log(`crd sync: ${sim.pods} pods with ${count} CRDs synced in ${Math.round(run.pods)} ms, every kind live after ${Math.round(run.all)} ms`);
    }
    const [a, b] = [pair[crds] as { pods: number; all: number }, pair[0] as { pods: number; all: number }];
    withCrds.push(a.pods);
    allLiveWith.push(a.all);
    without.push(b.pods);
    ratios.push(a.pods / b.pods);
  }
  return {
    initial_sync_50k_pods_300_crds_ms: { with_crds: Math.round(percentile(withCrds, 50)), without_crds: Math.round(percentile(without, 50)), runs: pairs },
    initial_sync_300_crds_ratio: round(percentile(ratios, 50), 2),
    initial_sync_300_crds_all_live_ms: Math.round(percentile(allLiveWith, 50)),
  };
}

export const crdSync: BenchScenario = {
  name: 'crd-sync',
  results: ['initial_sync_50k_pods_300_crds_ms', 'initial_sync_300_crds_ratio', 'initial_sync_300_crds_all_live_ms'],
  goals: [{ result: 'initial_sync_300_crds_ratio', atMost: 1.1 }],
  sharedSimProcess: true,
  async run(ctx) {
    // --quick: a smoke test of the harness on the other CRD benchmarks' few pods.
    return measure(ctx, (await sizedSim(ctx)).sim);
  },
};
