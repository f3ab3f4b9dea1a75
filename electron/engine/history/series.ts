/**
 * `history:series`: one workload's recorded samples over a range as chart series, each
 * downsampled with LTTB to at most maxPoints, with the rollouts, Warning markers and drift
 * episodes of that range.
 *
 * The series start with the value in effect at `from` (the last sample before it, drawn at
 * `from`), then every sample in range. Two samples further apart than the heartbeat allows
 * mean recording was interrupted: a null point goes where the next heartbeat was due, so the
 * chart breaks the line instead of pretending to know. A deleted workload's tombstone (all
 * fields null) ends its lines the same way. A field that does not apply to the kind (all null)
 * gives an empty series.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Rollout, SeriesResult } from '../../../shared/contracts/history.ts';
import { createWorkloadEvents, EPISODE_COLUMNS, prepareEpisodes, refOf, toEpisode, type EpisodeRow, type RefRow } from './episode-rows.ts';
import { downsample } from './lttb.ts';
import { GAP_MS, HEARTBEAT_MS } from './recorder.ts';
import { COUNT_FIELDS } from './sample-codec.ts';
import { lowerBound, upperBound, createSampleReader } from './sample-read.ts';
import { OPEN_END } from './schema.ts';

export const DEFAULT_MAX_POINTS = 2_000;
/** Warning markers per answer (a crash-looping pod repeats one Event; its count says how often). */
const MAX_WARNINGS = 500;

export interface SeriesQuery {
  uid: string;
  from: number;
  to: number;
  maxPoints?: number | undefined;
}

export interface WorkloadRow extends RefRow {
  id: number;
}

export type SeriesAnswer = Omit<SeriesResult, 'since'>;

export function createSeriesQuery(db: DatabaseSync, options: { now: () => number; gapMs?: number; heartbeatMs?: number }) {
  const gapMs = options.gapMs ?? GAP_MS;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const workload = db.prepare('SELECT id, uid, kind, namespace, name, kind_name FROM workloads WHERE uid = ?');
  const rollouts = db.prepare(`SELECT generation, start_at, end_at, image FROM rollouts WHERE workload_id = ? AND start_at <= ? AND coalesce(end_at, ${OPEN_END}) >= ? ORDER BY start_at`);
  const episodes = prepareEpisodes(db, `SELECT ${EPISODE_COLUMNS} FROM episodes e WHERE e.workload_id = ? AND e.start_at <= ? AND coalesce(e.end_at, ${OPEN_END}) >= ? ORDER BY e.start_at`);
  const samples = createSampleReader(db);
  const events = createWorkloadEvents(db);

  /**
   * The chart's time axis: the carried-in value at `from`, the samples in range, and a gap
   * marker (source -1) wherever recording was interrupted. Without gaps (the usual case) the
   * series are views of the decoded columns from `offset`, no copy; `source` is then null.
   */
  function axis(times: Float64Array, length: number, from: number, to: number): { x: Float64Array; source: Int32Array | null; offset: number; raw: number } {
    const first = lowerBound(times, from, length);
    const end = upperBound(times, to, length);
    const carried = first - 1 >= 0 && from - (times[first - 1] as number) <= gapMs ? first - 1 : -1;
    const begin = carried >= 0 ? carried : first;
    let gaps = 0;
    for (let i = begin + 1; i < end; i += 1) if ((times[i] as number) - (times[i - 1] as number) > gapMs) gaps += 1;
    if (gaps === 0) {
      const x = carried >= 0 ? times.slice(begin, end) : times.subarray(begin, end);
      if (carried >= 0 && x.length > 0) x[0] = from;
      return { x, source: null, offset: begin, raw: end - first };
    }
    const x = new Float64Array(end - begin + gaps);
    const source = new Int32Array(end - begin + gaps);
    let k = 0;
    for (let i = begin; i < end; i += 1) {
      if (i > begin && (times[i] as number) - (times[i - 1] as number) > gapMs) {
        x[k] = (times[i - 1] as number) + heartbeatMs;
        source[k++] = -1;
      }
      x[k] = i === carried ? from : (times[i] as number);
      source[k++] = i;
    }
    return { x, source, offset: begin, raw: end - first };
  }

  /** One field's values along the axis (NaN at gaps), and whether any is set. */
  function valuesAlong(values: Float64Array, x: Float64Array, source: Int32Array | null, offset: number): { ys: Float64Array; any: boolean } {
    const ys = source ? new Float64Array(x.length) : values.subarray(offset, offset + x.length);
    let any = false;
    for (let k = 0; k < x.length; k += 1) {
      if (source) {
        const index = source[k] as number;
        ys[k] = index < 0 ? NaN : (values[index] as number);
      }
      if (!any && !Number.isNaN(ys[k] as number)) any = true;
    }
    return { ys, any };
  }

  return function series(query: SeriesQuery): SeriesAnswer | null {
    const row = workload.get(query.uid) as WorkloadRow | undefined;
    if (!row) return null;
    const { from, to } = query;
    const maxPoints = query.maxPoints ?? DEFAULT_MAX_POINTS;
    const columns = samples.range(row.id, from, to);
    const { x, source, offset, raw } = axis(columns.at, columns.length, from, to);
    const series = COUNT_FIELDS.map((name) => {
      const { ys, any } = valuesAlong(columns.counts[name], x, source, offset);
      return { name, points: any ? downsample(x, ys, maxPoints) : [] };
    });
    const now = options.now();
    const ref = refOf(row);
    return {
      workload: ref,
      from,
      to,
      series,
      rawSamples: raw,
      rollouts: (rollouts.all(row.id, to, from) as Array<{ generation: number; start_at: number; end_at: number | null; image: string | null }>).map(
        (r): Rollout => ({ generation: r.generation, start: r.start_at, end: r.end_at, ...(r.image ? { image: r.image } : {}) }),
      ),
      warnings: events.warnings(row.uid, from, to, MAX_WARNINGS),
      episodes: (episodes.all(row.id, to, from) as unknown as EpisodeRow[]).map((e) => toEpisode(e, ref, now)),
    };
  };
}
