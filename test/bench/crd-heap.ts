/**
 * `heap_bytes_per_custom_resource`: what 10,000 custom resources of ~3 KB each cost the engine.
 * The simulated cluster runs in its own process (live-sim.ts) with one CRD (crd-fixture.ts: a
 * Crossplane-like managed resource with kubectl's last-applied annotation and managedFields, a
 * spec and a controller's status). The engine (a LiveCluster in this process) syncs the cluster
 * twice, after an untimed warm-up (none with --quick): once with the kind empty, once with the 10,000 resources;
 * each time the heap is read (after full collections) before the engine starts and once it has
 * synced. The result is the difference of the two growths per resource: what each resource adds,
 * not the engine's fixed cost (its modules, informers of the built-in kinds, discovery).
 */
import type { SlimObject } from '../../shared/cluster.ts';
import { discovered, fewPodsSim, followedLive, heapUsed, startEngine } from './crd-engine.ts';
import { benchKind, HEAP_GROUP } from './crd-fixture.ts';
import type { SimProcess } from './live-sim.ts';
import { round } from './stats.ts';
import type { BenchContext, BenchScenario } from './types.ts';

const SYNC_TIMEOUT_MS = 120_000;
/** Longer than the frame stream's widest flush window (MAX_FLUSH_INTERVAL_MS). */
const STREAM_QUIET_MS = 1_500;

/** Heap growth from before the engine starts until it holds `count` resources of `key`, and one of them. */
async function heapGrowth(sim: SimProcess, key: string, count: number): Promise<{ bytes: number; sample: SlimObject | undefined }> {
  const before = heapUsed();
  const engine = await startEngine(sim);
  try {
    await engine.until(`${count} resources cached`, (view) => view.cluster.cache.size(key) === count && discovered(view, [key]) && followedLive(view), SYNC_TIMEOUT_MS);
    // What the engine holds from then on, not the frames still on their way out.
    await engine.streamIdle(STREAM_QUIET_MS, SYNC_TIMEOUT_MS);
    const after = heapUsed();
    return { bytes: after - before, sample: engine.cluster.cache.list(key)[0] };
  } finally {
    await engine.stop();
  }
}

async function measure(ctx: BenchContext, sim: SimProcess) {
  const count = ctx.quick ? 200 : 10_000;
  const key = benchKind(0, HEAP_GROUP).key;
  await sim.crds.createResources(0);
  if (!ctx.quick) await heapGrowth(sim, key, 0);
  const empty = await heapGrowth(sim, key, 0);
  const { meanBytes } = await sim.crds.createResources(count);
  const full = await heapGrowth(sim, key, count);
  const perObject = (full.bytes - empty.bytes) / count;
  const slimBytes = full.sample ? JSON.stringify(full.sample).length : 0;
  ctx.log(
    `custom resources: ${count} of ${meanBytes} B of JSON each as stored (${slimBytes} B slim), heap +${round(full.bytes / 1e6)} MB with them, ` +
      `+${round(empty.bytes / 1e6)} MB without: ${Math.round(perObject)} B each`,
  );
  return { heap_bytes_per_custom_resource: Math.round(perObject), custom_resource_json_bytes: meanBytes };
}

export const crdHeap: BenchScenario = {
  name: 'crd-heap',
  results: ['heap_bytes_per_custom_resource', 'custom_resource_json_bytes'],
  goals: [{ result: 'heap_bytes_per_custom_resource', atMost: 2_048 }],
  sharedSimProcess: true,
  async run(ctx) {
    return measure(ctx, await fewPodsSim(ctx));
  },
};
