/**
 * Timeline queries against a day of history (history-fixture.ts: 1,000 workloads x 86,400
 * samples; 20 workloads when quick — each workload's day is the same size either way):
 * - `timeline_query_24h_1k_workloads_ms`: one workload's whole day as chart series, LTTB to
 *   2,000 points per series, with its rollouts, Warnings and episodes, serialised as the
 *   transport would; the median over 20 different workloads (after one uncounted warm-up query),
 *   p95 logged.
 * - `timeline_cluster_range_24h_ms`: the swimlane of the whole day (every workload's drift
 *   episodes, up to the contract's 20,000, and the cluster drift count), serialised; the median
 *   of 10, p95 logged. (Medians, as the repository's other benchmarks report.)
 * Both go through the same store code the `history:*` handlers call, on the database file the
 * fixture wrote (closed and reopened first, as after an app restart).
 * The same day in the shared PostgreSQL store, and write throughput for each store, side by side:
 * history-shared.ts (the series query's median over the same runs).
 */
import { ObjectCache } from '../../electron/engine/stream/cache.ts';
import { openStore } from '../../electron/engine/history/store.ts';
import type { HistoryStore } from '../../electron/engine/history/store.ts';
import { createHistoryFixture, type HistoryFixture } from './history-fixture.ts';
import { measureShared } from './history-shared.ts';
import { percentile, round } from './stats.ts';
import type { BenchScenario } from './types.ts';

const SERIES_RUNS = 20;
const RANGE_RUNS = 10;
const MAX_POINTS = 2_000;

/** Times `fn` from a collected heap: the fixture's generation leaves a lot of garbage behind. */
function timed<T>(fn: () => T): { ms: number; value: T } {
  (globalThis as { gc?: () => void }).gc?.();
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}

/** One workload's day as chart series, SERIES_RUNS times (after a warm-up): the times, and the largest answer. */
function seriesRuns(store: HistoryStore, fixture: HistoryFixture): { series: number[]; points: number; bytes: number } {
  // One query first, not counted: it compiles the code paths the others reuse.
  store.series({ uid: fixture.uids.at(-1) as string, from: fixture.from, to: fixture.to, maxPoints: MAX_POINTS });
  const series: number[] = [];
  let points = 0;
  let bytes = 0;
  for (let i = 0; i < SERIES_RUNS; i++) {
    const uid = fixture.uids[(i * 37) % fixture.uids.length] as string;
    const { ms, value } = timed(() => JSON.stringify(store.series({ uid, from: fixture.from, to: fixture.to, maxPoints: MAX_POINTS })));
    series.push(ms);
    bytes = Math.max(bytes, value.length);
    const parsed = JSON.parse(value) as { rawSamples: number; series: Array<{ points: unknown[] }> };
    points = Math.max(points, ...parsed.series.map((s) => s.points.length));
    if (parsed.rawSamples < 86_000) throw new Error(`expected a day of samples, got ${parsed.rawSamples}`);
  }
  return { series, points, bytes };
}

export const historyTimeline: BenchScenario = {
  name: 'history-timeline',
  results: [
    'timeline_query_24h_1k_workloads_ms',
    'timeline_cluster_range_24h_ms',
    'timeline_query_24h_1k_workloads_postgres_ms',
    'history_write_samples_per_s_sqlite',
    'history_write_samples_per_s_postgres',
    'history_postgres_copy_24h_1k_workloads_s',
    'history_postgres_pull_24h_1k_workloads_s',
  ],
  goals: [
    { result: 'timeline_query_24h_1k_workloads_ms', below: 100 },
    { result: 'timeline_cluster_range_24h_ms', below: 250 },
  ],
  async run(ctx) {
    const fixture = await createHistoryFixture(ctx.quick ? 20 : 1_000, ctx.log);
    const store = openStore({
      file: fixture.file,
      context: 'bench',
      cache: new ObjectCache(),
      record: false,
      now: () => fixture.to,
      log: ctx.log,
      limits: () => ({ maxAgeMs: 14 * 86_400_000, maxBytes: 1024 ** 4 }),
      onStatus: () => {},
    });
    try {
      const { series, points, bytes } = seriesRuns(store, fixture);
      ctx.log(`series: ${fixture.samples / 1e6}M samples stored; one workload's day p50 ${round(percentile(series, 50))} ms, p95 ${round(percentile(series, 95))} ms; ${points} points per series at most, ${Math.round(bytes / 1024)} KB`);

      const range: number[] = [];
      let episodes = 0;
      for (let i = 0; i < RANGE_RUNS; i++) {
        const { ms, value } = timed(() => JSON.stringify(store.episodes.episodes({ from: fixture.from, to: fixture.to, limit: 20_000 })));
        range.push(ms);
        episodes = (JSON.parse(value) as { episodes: unknown[] }).episodes.length;
      }
      ctx.log(`swimlane: ${episodes} of ${fixture.episodes} episodes in 24 h; p50 ${round(percentile(range, 50))} ms, p95 ${round(percentile(range, 95))} ms`);
      store.close();
      const shared = await measureShared(fixture, ctx.quick ? 20 : 1_000, ctx.log, (sharedStore) => {
        const runs = seriesRuns(sharedStore, fixture).series;
        ctx.log(`series on PostgreSQL: one workload's day p50 ${round(percentile(runs, 50))} ms, p95 ${round(percentile(runs, 95))} ms`);
        return round(percentile(runs, 50));
      });
      return {
        timeline_query_24h_1k_workloads_ms: round(percentile(series, 50)),
        timeline_cluster_range_24h_ms: round(percentile(range, 50)),
        ...shared,
      };
    } finally {
      store.close();
      await fixture.stop();
    }
  },
};
