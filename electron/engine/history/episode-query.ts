/**
 * `history:episodes` and `history:episode`: drift episodes overlapping a range (the swimlane),
 * filtered by namespace, kind, ongoing and minimum duration, with the cluster's drift count over
 * the range; and one episode with its Events.
 *
 * When more episodes match than `limit`, the answer keeps the ones covering the most of the range
 * (what a swimlane shows best) and says it was truncated. The drift count counts every matching
 * workload's episodes (namespace and kind filters apply; the ongoing and duration filters do
 * not: they narrow the list, not what "drifting" means). Without a kind filter it counts
 * workloads as a user means them: a ReplicaSet run by a Deployment is part of that Deployment,
 * not a workload of its own (its episodes are listed with their `controller`, and the timeline
 * folds them away by the same rule).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Episode, EpisodeList, EpisodeQuery, Point } from '../../../shared/contracts/history.ts';
import { createWorkloadEvents, createWorkloadRefs, EPISODE_COLUMNS, prepareEpisodes, toEpisode, type EpisodeRow } from './episode-rows.ts';
import { downsample } from './lttb.ts';
import { OPEN_END } from './schema.ts';

export const DEFAULT_EPISODE_LIMIT = 5_000;
/** Points of the drift count series at most. */
const DRIFT_COUNT_POINTS = 2_000;
/** Events returned with one episode. */
const EPISODE_EVENTS = 200;

const OVERLAP = `coalesce(e.end_at, ${OPEN_END}) >= :from AND e.start_at <= :to`;
const FILTERS = '(:namespace IS NULL OR w.namespace = :namespace) AND (:kind IS NULL OR w.kind = :kind)';

/** An episode's [start, end] (end null while ongoing). */
export type Span = readonly [number, number | null];

/** The number of episodes open at each change, from `from` to `end`, as [time, count] steps. */
export function driftCountSteps(spans: ReadonlyArray<{ start_at: number; end_at: number | null }>, from: number, end: number): Point[] {
  return driftCountStepsOf(
    spans.map((s): Span => [s.start_at, s.end_at]),
    from,
    end,
  );
}

/** `driftCountSteps` of [start, end] pairs. */
export function driftCountStepsOf(spans: Iterable<Span>, from: number, end: number): Point[] {
  let count = 0;
  const changes: Array<[number, number]> = [];
  for (const [start, stop] of spans) {
    if (start <= from) count += 1;
    else if (start <= end) changes.push([start, 1]);
    if (stop !== null && stop <= end) {
      if (stop <= from) count -= 1;
      else changes.push([stop, -1]);
    }
  }
  changes.sort((a, b) => a[0] - b[0]);
  const points: Point[] = [[from, count]];
  for (let i = 0; i < changes.length; ) {
    const at = (changes[i] as [number, number])[0];
    while (i < changes.length && (changes[i] as [number, number])[0] === at) count += (changes[i++] as [number, number])[1];
    points.push([at, count]);
  }
  if (end > from && (points.at(-1) as Point)[0] < end) points.push([end, count]);
  return points;
}

export function createEpisodeQueries(db: DatabaseSync, options: { now: () => number }) {
  const list = prepareEpisodes(
    db,
    `SELECT ${EPISODE_COLUMNS} FROM episodes e JOIN workloads w ON w.id = e.workload_id WHERE ${OVERLAP} AND ${FILTERS}
     AND (:ongoing = 0 OR e.end_at IS NULL) AND coalesce(e.end_at, :now) - e.start_at >= :minDuration ORDER BY e.start_at`,
  );
  const spans = db.prepare(`SELECT e.start_at, e.end_at, e.workload_id FROM episodes e JOIN workloads w ON w.id = e.workload_id WHERE ${OVERLAP} AND ${FILTERS}`);
  spans.setReturnArrays(true);
  const one = prepareEpisodes(db, `SELECT ${EPISODE_COLUMNS} FROM episodes e WHERE e.id = ?`);
  const events = createWorkloadEvents(db);
  const workloads = createWorkloadRefs(db);
  const toEpisodes = (rows: readonly EpisodeRow[], now: number): Episode[] =>
    rows.flatMap((row) => {
      const workload = workloads(row[7]);
      return workload ? [toEpisode(row, workload.ref, now, workload.controller)] : [];
    });
  /** Whether a workload's episodes count as drifting workloads (see the file comment). */
  const counted = (workloadId: number, kind: string | null): boolean => kind !== null || workloads(workloadId)?.controller === undefined;

  function episodes(query: EpisodeQuery): Omit<EpisodeList, 'since'> {
    const now = options.now();
    const filters = { from: query.from, to: query.to, namespace: query.namespace ?? null, kind: query.kind ?? null };
    const rows = list.all({ ...filters, ongoing: query.ongoingOnly ? 1 : 0, now, minDuration: query.minDurationMs ?? 0 }) as unknown as EpisodeRow[];
    const limit = query.limit ?? DEFAULT_EPISODE_LIMIT;
    let kept = rows;
    if (rows.length > limit) {
      const covered = (row: EpisodeRow) => Math.min(row[2] ?? now, query.to) - Math.max(row[1], query.from);
      kept = [...rows].sort((a, b) => covered(b) - covered(a) || a[1] - b[1]).slice(0, limit);
      kept.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    }
    // Without the list-only filters, the list's rows are exactly the drift count's spans.
    const sameSpans = !query.ongoingOnly && !query.minDurationMs;
    const spanRows: Span[] = sameSpans
      ? rows.filter((row) => counted(row[7], filters.kind)).map((row): Span => [row[1], row[2]])
      : (spans.all(filters) as unknown as Array<[number, number | null, number]>).filter((row) => counted(row[2], filters.kind)).map((row): Span => [row[0], row[1]]);
    const steps = driftCountStepsOf(spanRows, query.from, Math.max(query.from, Math.min(query.to, now)));
    const xs = steps.map((p) => p[0]);
    const ys = steps.map((p) => p[1] as number);
    return {
      from: query.from,
      to: query.to,
      episodes: toEpisodes(kept, now),
      truncated: rows.length > limit,
      driftCount: steps.length > DRIFT_COUNT_POINTS ? downsample(xs, ys, DRIFT_COUNT_POINTS) : steps,
    };
  }

  function episode(id: number): Episode | null {
    const row = one.get(id) as EpisodeRow | undefined;
    const workload = row ? workloads(row[7]) : undefined;
    if (!row || !workload) return null;
    const now = options.now();
    return { ...toEpisode(row, workload.ref, now, workload.controller), events: events.all(workload.ref.uid, row[1], row[2] ?? now, EPISODE_EVENTS) };
  }

  return { episodes, episode };
}
