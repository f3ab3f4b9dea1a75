/**
 * How fast the simulated cluster changes and tells a watcher about it:
 * - `sim_store_writes_per_s`: churn modifications (readiness flips and restarts through /status,
 *   label changes through a full update) of ~4.5 KB pods, on the seeded store with no watcher.
 * - `sim_watch_events_per_s`: the same modifications, as fast as the server can push them, each
 *   delivered as a MODIFIED event to one client reading `GET /api/v1/pods?watch=true` over
 *   loopback HTTPS in another thread; counted when the client has parsed the complete line.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { BenchClient, type WatchCounter } from './http-client.ts';
import type { SimFixture } from './sim-fixture.ts';
import { percentile, round } from './stats.ts';
import type { BenchContext, BenchScenario } from './types.ts';

/**
 * Events the server may be ahead of the client. The server closes a watch whose client falls
 * 16 MB behind; 2,000 pod events are ~9.5 MB.
 */
const MAX_IN_FLIGHT = 2_000;
/** How long the client may take to catch up after the last change before the run fails. */
const CATCH_UP_TIMEOUT_MS = 30_000;

/**
 * Each measurement is the median of `trials` runs: on a shared 2-core box one run can lose a
 * second to a neighbour or to a full GC of the 50,000-pod heap.
 */
function durations(quick: boolean) {
  return quick ? { warmUpMs: 100, trialMs: 300, trials: 1 } : { warmUpMs: 500, trialMs: 1_500, trials: 5 };
}

function measureWrites(fixture: SimFixture, warmUpMs: number, trialMs: number): number {
  const { driver } = fixture;
  const until = (ms: number) => {
    const start = performance.now();
    while (performance.now() - start < ms) driver.modify(1);
  };
  until(warmUpMs);
  const before = driver.churn.counters.modifications;
  const start = performance.now();
  until(trialMs);
  return (driver.churn.counters.modifications - before) / ((performance.now() - start) / 1000);
}

/** Modifies the store for `durationMs` (never more than MAX_IN_FLIGHT ahead of the client). */
async function push(fixture: SimFixture, watch: WatchCounter, produced: () => number, durationMs: number): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < durationMs) {
    if (produced() - watch.events() < MAX_IN_FLIGHT) fixture.driver.modify(1);
    else await watch.waitFor(produced() - MAX_IN_FLIGHT / 2, 100);
    // The events just written leave the socket only when the event loop runs.
    await yieldToEventLoop();
  }
  const seen = await watch.waitFor(produced(), CATCH_UP_TIMEOUT_MS);
  if (seen < produced()) throw new Error(`the watch delivered ${seen} of ${produced()} events`);
  if (watch.badLines() > 0) throw new Error(`the watch sent ${watch.badLines()} ERROR or malformed lines`);
}

async function measureWatch(ctx: BenchContext, fixture: SimFixture, warmUpMs: number, trialMs: number): Promise<number> {
  const { store } = fixture.sim;
  const client = new BenchClient(fixture.target);
  let produced = 0;
  const unsubscribe = store.onChange((change) => {
    if (change.resource === 'pods') produced += 1;
  });
  try {
    // As an informer does after its list: watch from the list's resourceVersion.
    const watch = await client.watch(`/api/v1/pods?watch=true&resourceVersion=${store.currentRv()}`);
    await push(fixture, watch, () => produced, warmUpMs);
    const before = produced;
    const start = performance.now();
    await push(fixture, watch, () => produced, trialMs);
    const seconds = (performance.now() - start) / 1000;
    ctx.log(`watch: ${produced - before} events in ${round(seconds, 2)} s, heap ${round(process.memoryUsage().heapUsed / 1e6)} MB`);
    await watch.close();
    return (produced - before) / seconds;
  } finally {
    unsubscribe();
    await client.close();
  }
}

export const simWatch: BenchScenario = {
  name: 'sim-watch',
  sharedSim: true,
  results: ['sim_store_writes_per_s', 'sim_watch_events_per_s'],
  goals: [{ result: 'sim_watch_events_per_s', atLeast: 20_000 }],
  async run(ctx) {
    const fixture = await ctx.sim();
    const { warmUpMs, trialMs, trials } = durations(ctx.quick);
    const writes: number[] = [];
    for (let i = 0; i < trials; i += 1) writes.push(measureWrites(fixture, warmUpMs, trialMs));
    const events: number[] = [];
    for (let i = 0; i < trials; i += 1) events.push(await measureWatch(ctx, fixture, warmUpMs, trialMs));
    ctx.log(`store writes/s: ${writes.map(Math.round).join(', ')}; watch events/s: ${events.map(Math.round).join(', ')}`);
    return { sim_store_writes_per_s: Math.round(percentile(writes, 50)), sim_watch_events_per_s: Math.round(percentile(events, 50)) };
  },
};
