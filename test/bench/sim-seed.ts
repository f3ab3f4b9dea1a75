/**
 * What loading the simulated cluster costs:
 * - `sim_seed_50k_pods_ms`: the churn generator writing 50,000 Running pods (and their nodes,
 *   namespaces, Deployments and ReplicaSets) into a fresh store.
 * - `sim_heap_bytes_per_pod`: the JavaScript heap that store holds afterwards, per pod (after a
 *   full GC before and after; includes the change log's entries, the churn generator's index and
 *   the JSON of every object, which the store makes once it is idle: measured after that).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { ObjectStore } from '../../electron/engine/simcluster/store.ts';
import { podCount, seedChurn } from './sim-fixture.ts';
import { round } from './stats.ts';
import type { BenchScenario } from './types.ts';

const PODS = typeById('pods') as ResourceType;

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (run.ts re-spawns itself with it)');
  gc();
  gc();
}

export const simSeed: BenchScenario = {
  name: 'sim-seed',
  results: ['sim_seed_50k_pods_ms', 'sim_heap_bytes_per_pod'],
  async run(ctx) {
    const { sizes } = ctx;
    const pods = podCount(sizes);
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const start = performance.now();
    const store = new ObjectStore();
    const driver = seedChurn(store, sizes);
    const ms = performance.now() - start;
    const idleSince = performance.now();
    while (store.jsonBacklog() > 0) {
      if (performance.now() - idleSince > 60_000) throw new Error(`the store still had ${store.jsonBacklog()} objects to serialise after 60 s`);
      await sleep(50);
    }
    const serialisedMs = performance.now() - idleSince;
    collectGarbage();
    const heapAfter = process.memoryUsage().heapUsed;
    // Read the store after measuring, so it is certainly still alive when the heap is.
    const stored = store.all(PODS).length;
    driver.churn.stop();
    if (stored !== pods) throw new Error(`seeded ${stored} pods, expected ${pods}`);
    ctx.log(`seed: ${pods} pods in ${round(ms)} ms, serialised while idle after ${round(serialisedMs)} ms more, heap +${round((heapAfter - heapBefore) / 1e6)} MB`);
    return { sim_seed_50k_pods_ms: round(ms), sim_heap_bytes_per_pod: Math.round((heapAfter - heapBefore) / pods) };
  },
};
