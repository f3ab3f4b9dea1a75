/**
 * Kubernetes' documented ceiling (issue #21): 150,000 pods on 5,000 nodes (`--pods/--nodes/
 * --namespaces` change it), in a simulated cluster process of its own seeded by the churn
 * generator (seed-layout.ts: 50 namespaces x 60 Deployments x 50 pods, 30 pods per node). Not in
 * --quick. Measured in the engine (a LiveCluster here), from `LiveCluster.watch` until the cache
 * holds every pod and every built-in kind reports live (crd-sync's end point, so the 50,000-pod
 * figure there is its yardstick for linearity, ratios.ts):
 * - `initial_sync_150k_pods_ms`
 * - `json_parse_150k_pods_ms`: one JSON.parse of the same pod list (list-parse.ts), before the sync.
 * - `heap_bytes_per_pod_150k`: this process's heap growth (collected) from before the engine
 *   started until its frame stream went quiet after the sync, per pod. Goal <= 3,072.
 * - `scale_nodes`: the nodes the cluster held (what the engine synced beside the pods).
 * When the simulator cannot seed or serve the size, the failure says so (the runner keeps it
 * beside the other results).
 */
import { WATCHED_KINDS } from '../../shared/cluster.ts';
import { allLive, heapUsed, startEngine } from './crd-engine.ts';
import { podListParse } from './list-parse.ts';
import { startSimProcess } from './live-sim.ts';
import { scaleSeed } from './scale-sizes.ts';
import { round } from './stats.ts';
import type { BenchScenario, BenchValue } from './types.ts';

const SYNC_TIMEOUT_MS = 600_000;

export const scaleSync: BenchScenario = {
  name: 'scale-sync',
  results: ['initial_sync_150k_pods_ms', 'json_parse_150k_pods_ms', 'heap_bytes_per_pod_150k', 'scale_nodes'],
  goals: [{ result: 'heap_bytes_per_pod_150k', atMost: 3_072 }],
  async run(ctx): Promise<Record<string, BenchValue>> {
    if (ctx.quick) {
      ctx.log('scale-sync: not in --quick (150,000 pods take minutes to seed and sync)');
      return {};
    }
    const { pods, nodes, namespaces } = ctx.scale;
    ctx.log(`scale-sync: seeding a simulated cluster process with ${pods} pods on ${nodes} nodes in ${namespaces} namespaces`);
    const seededAt = performance.now();
    const sim = await startSimProcess(scaleSeed(ctx.scale)).catch((error: unknown) => {
      throw new Error(`the simulator could not hold ${pods} pods on this machine: ${(error as Error).message}`);
    });
    try {
      ctx.log(`scale-sync: seeded in ${Math.round(performance.now() - seededAt)} ms`);
      const parse = await podListParse(sim.target);
      if (parse.pods !== pods) throw new Error(`the pod list held ${parse.pods} pods, not ${pods}`);
      const heapBefore = heapUsed();
      const engine = await startEngine(sim);
      try {
        const syncedAt = await engine.until('every pod cached and every built-in kind live', (view) => view.cluster.cache.size('pods') === pods && allLive(view, WATCHED_KINDS), SYNC_TIMEOUT_MS);
        const syncMs = syncedAt - engine.startedAt;
        await engine.streamIdle(1_000, 120_000);
        const heapAfter = heapUsed();
        const nodeCount = engine.cluster.cache.size('nodes');
        ctx.log(`scale-sync: ${pods} pods and ${nodeCount} nodes synced in ${Math.round(syncMs)} ms; list JSON ${Math.round(parse.bytes / 1e6)} MB parsed in ${round(parse.ms)} ms; heap +${round((heapAfter - heapBefore) / 1e6)} MB`);
        return {
          initial_sync_150k_pods_ms: Math.round(syncMs),
          json_parse_150k_pods_ms: round(parse.ms),
          heap_bytes_per_pod_150k: Math.round((heapAfter - heapBefore) / pods),
          scale_nodes: nodeCount,
        };
      } finally {
        await engine.stop();
      }
    } finally {
      await sim.stop();
    }
  },
};
