/**
 * Overload (issue #21): watch events pushed faster than this machine's engine applies them,
 * relative to the machine's own measured capacity (`sim_watch_events_per_s` of the same run:
 * OVERLOAD_FACTOR times it, for 30 s). The simulated cluster runs in its own process (the shared
 * one, live-sim.ts; with --quick the CRD benchmarks' few pods, crd-engine.ts) and writes stamped pod modifications (stamped-churn.ts, round robin over
 * every pod); the engine (a LiveCluster: informers, coalescing watch buffer, cache, frame stream)
 * runs here, after its first sync.
 * - `overload_offered_events_per_s` / `overload_applied_events_per_s`: writes the cluster made per
 *   second, and pod changes the engine's cache applied per second until it had caught up (fewer
 *   when intermediate states were coalesced away, as they should be).
 * - `overload_writes_offered` / `overload_writes_applied`: writes made, and writes whose state or
 *   a newer one reached the cache by the end.
 * - `overload_final_state_complete`: the cache holds every pod at the simulator's last version (true).
 * - `overload_relists`: requests that read all pods again after the first sync, counted at the
 *   simulator (list-counter.ts). Goal 0.
 * - `overload_max_lag_ms`: the highest `lagMs` the engine's health reported for pods (the status
 *   bar's "behind by N s", whole seconds).
 * - `overload_latest_state_latency_ms`: `{ p50, p99, writes }` of latest-state latency (latest-state.ts).
 * - `overload_catch_up_ms`: from the last write until the cache held every last state.
 * - `overload_max_heap_bytes` / `overload_heap_growth_bytes_per_pod`: this process's heap at its
 *   highest during the phase (sampled, not collected), and its growth (collected, after catch-up
 *   minus before) per pod: bounded by objects, not by events.
 * - `sustained_events_ratio`: the highest rate of SUSTAIN_STEPS at which p99 latest-state latency
 *   stays under 250 ms, over `sim_watch_events_per_s`. Goal >= 0.8. Each step is 5 s of writes at
 *   its rate; its p99 counts every write of the step, the first second's included, until the cache
 *   held all of them. A step starts once the cache holds the step before's last states and the
 *   frame stream has been quiet for STEP_IDLE_MS (since 2026-11-28; before, only the former), so no
 *   backlog or frame emission of an earlier step falls into its measurement, and none is left out.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { WATCHED_KINDS } from '../../shared/cluster.ts';
import { allLive, heapUsed, sizedSim, startEngine, type RunningEngine } from './crd-engine.ts';
import { AppliedStates } from './latest-state.ts';
import type { SimProcess } from './live-sim.ts';
import { percentile, round } from './stats.ts';
import type { BenchContext, BenchScenario, BenchValue } from './types.ts';

const OVERLOAD_FACTOR = 2;
/** Without a `sim_watch_events_per_s` in this run (`--only overload`), the capacity assumed. */
const FALLBACK_CAPACITY_PER_S = 10_000;
/** The writer's rate is capped so its write log (two numbers a write) stays small. */
const MAX_RATE_PER_S = 60_000;
/** Fractions of the capacity the sustained rate is searched at, lowest first. */
const SUSTAIN_STEPS = [0.4, 0.6, 0.8, 1, 1.25];
/** The latency bound for a sustained rate. */
const SUSTAIN_P99_MS = 250;
const SYNC_TIMEOUT_MS = 180_000;
const CATCH_UP_TIMEOUT_MS = 120_000;
const SAMPLE_INTERVAL_MS = 100;
/** Quiet frame stream awaited before each sustain step. */
const STEP_IDLE_MS = 500;

function plan(quick: boolean) {
  return quick ? { seconds: 1, stepSeconds: 1, steps: SUSTAIN_STEPS.slice(0, 1) } : { seconds: 30, stepSeconds: 5, steps: SUSTAIN_STEPS };
}

function capacityOf(ctx: BenchContext): number {
  const measured = ctx.results['sim_watch_events_per_s'];
  if (typeof measured === 'number' && measured > 0) return measured;
  ctx.log(`overload: no sim_watch_events_per_s in this run, assuming ${FALLBACK_CAPACITY_PER_S}/s`);
  return FALLBACK_CAPACITY_PER_S;
}

/** Samples the pods' reported lag and this process's heap until stopped. */
function sampler(engine: RunningEngine): { stop(): { maxLagMs: number; maxHeap: number } } {
  let maxLagMs = 0;
  let maxHeap = 0;
  const sample = (): void => {
    const pods = engine.cluster.health().kinds.find((kind) => kind.kind === 'pods');
    maxLagMs = Math.max(maxLagMs, pods?.lagMs ?? 0);
    maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, SAMPLE_INTERVAL_MS);
  sample();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { maxLagMs, maxHeap };
    },
  };
}

/**
 * Waits until the cache holds every pod at its last written version; false after the timeout.
 * Each pod is checked once, then only as the cache changes it: polling all 50,000 pods every
 * 100 ms took a fifth of this process's CPU from the engine it measures.
 */
async function caughtUp(engine: RunningEngine, writes: readonly number[], order: readonly string[]): Promise<boolean> {
  const behind = new Map<string, number>();
  for (let i = 0; i < writes.length / 2; i += 1) behind.set(order[i % order.length] as string, writes[2 * i] as number);
  const { cache } = engine.cluster;
  for (const [uid, rv] of behind) if (Number(cache.get('pods', uid)?.metadata.resourceVersion ?? 0) >= rv) behind.delete(uid);
  const unsubscribe = cache.onChange((change) => {
    if (change.type !== 'upsert' || change.kind !== 'pods') return;
    const uid = change.object.metadata.uid;
    const rv = behind.get(uid);
    if (rv !== undefined && Number(change.object.metadata.resourceVersion) >= rv) behind.delete(uid);
  });
  try {
    const deadline = performance.now() + CATCH_UP_TIMEOUT_MS;
    while (behind.size > 0) {
      if (performance.now() > deadline) return false;
      await sleep(SAMPLE_INTERVAL_MS);
    }
    return true;
  } finally {
    unsubscribe();
  }
}

/** One phase of writes at `perSecond`; latest-state latencies and whether the cache caught up. */
async function phase(sim: SimProcess, engine: RunningEngine, applied: AppliedStates, perSecond: number, seconds: number) {
  applied.clear();
  const startedAt = performance.timeOrigin + performance.now();
  const run = await sim.churn(perSecond, Math.round(perSecond * seconds), { withOrder: true });
  const order = run.order ?? [];
  const complete = await caughtUp(engine, run.writes, order);
  const { latencies, missing, lastAppliedAt } = applied.latencies(run.writes, order);
  const endedAt = Math.max(lastAppliedAt, run.endedAt);
  return { run, complete, latencies, missing, applies: applied.applied, startedAt, endedAt };
}

async function measure(ctx: BenchContext, sim: SimProcess): Promise<Record<string, BenchValue>> {
  const { seconds, stepSeconds, steps } = plan(ctx.quick);
  const capacity = capacityOf(ctx);
  const rate = Math.min(MAX_RATE_PER_S, Math.round(OVERLOAD_FACTOR * capacity));
  const engine = await startEngine(sim);
  try {
    await engine.until('every pod cached and every built-in kind live', (view) => view.cluster.cache.size('pods') === sim.pods && allLive(view, WATCHED_KINDS), SYNC_TIMEOUT_MS);
    const applied = new AppliedStates();
    engine.cluster.cache.onChange((change) => {
      if (change.type === 'upsert' && change.kind === 'pods') applied.note(change.object.metadata.uid, Number(change.object.metadata.resourceVersion), performance.timeOrigin + performance.now());
    });
    await engine.streamIdle(500, 30_000);
    const heapBefore = heapUsed();
    await sim.countLists('pods');
    ctx.log(`overload: ${rate} writes/s (${OVERLOAD_FACTOR} x ${round(capacity)}/s) for ${seconds} s on ${sim.pods} pods`);
    const samples = sampler(engine);
    const burst = await phase(sim, engine, applied, rate, seconds);
    const { maxLagMs, maxHeap } = samples.stop();
    const relists = await sim.countedLists();
    const heapAfter = heapUsed();
    const activeS = (burst.endedAt - burst.startedAt) / 1000;
    const latency = burst.latencies.length > 0 ? { p50: round(percentile(burst.latencies, 50)), p99: round(percentile(burst.latencies, 99)), writes: burst.latencies.length } : { p50: -1, p99: -1, writes: 0 };
    const complete = burst.complete && burst.missing === 0 && engine.cluster.cache.size('pods') === sim.pods;
    ctx.log(
      `overload: offered ${Math.round(burst.run.achievedPerSecond)}/s, applied ${Math.round(burst.applies / activeS)}/s (${burst.applies} applies for ${burst.run.written} writes), ` +
        `latest-state p50 ${latency.p50} ms, p99 ${latency.p99} ms, max lag ${maxLagMs} ms, ${relists} relists, complete ${complete}, heap max ${round(maxHeap / 1e6)} MB`,
    );
    const results: Record<string, BenchValue> = {
      overload_offered_events_per_s: Math.round(burst.run.achievedPerSecond),
      overload_applied_events_per_s: Math.round(burst.applies / activeS),
      overload_writes_offered: burst.run.written,
      overload_writes_applied: burst.latencies.length,
      overload_final_state_complete: complete,
      overload_relists: relists,
      overload_max_lag_ms: maxLagMs,
      overload_latest_state_latency_ms: latency,
      overload_catch_up_ms: Math.max(0, Math.round(burst.endedAt - burst.run.endedAt)),
      overload_max_heap_bytes: maxHeap,
      overload_heap_growth_bytes_per_pod: Math.round((heapAfter - heapBefore) / sim.pods),
    };
    // The sustained rate: the highest step whose p99 stays under the bound (0 when none does).
    let sustained = 0;
    for (const fraction of steps) {
      // Each step starts from an idle engine, as the first: the cache has caught up with the step
      // before, but its last frames may still be leaving and would count against this step.
      await engine.streamIdle(STEP_IDLE_MS, 30_000);
      const step = await phase(sim, engine, applied, Math.round(fraction * capacity), stepSeconds);
      const p99 = step.latencies.length > 0 && step.missing === 0 ? percentile(step.latencies, 99) : Number.POSITIVE_INFINITY;
      ctx.log(`overload: sustained step ${fraction} x capacity (${Math.round(step.run.achievedPerSecond)}/s achieved): p99 ${round(p99)} ms`);
      if (!(p99 < SUSTAIN_P99_MS)) break;
      sustained = step.run.achievedPerSecond;
    }
    results['sustained_events_ratio'] = round(sustained / capacity, 2);
    return results;
  } finally {
    await engine.stop();
  }
}

export const overload: BenchScenario = {
  name: 'overload',
  results: [
    'overload_offered_events_per_s',
    'overload_applied_events_per_s',
    'overload_writes_offered',
    'overload_writes_applied',
    'overload_final_state_complete',
    'overload_relists',
    'overload_max_lag_ms',
    'overload_latest_state_latency_ms',
    'overload_catch_up_ms',
    'overload_max_heap_bytes',
    'overload_heap_growth_bytes_per_pod',
    'sustained_events_ratio',
  ],
  goals: [
    { result: 'overload_relists', atMost: 0 },
    { result: 'overload_final_state_complete', equals: true },
    { result: 'sustained_events_ratio', atLeast: 0.8 },
  ],
  sharedSimProcess: true,
  async run(ctx) {
    return measure(ctx, (await sizedSim(ctx)).sim);
  },
};
