/**
 * The timeline of an opened snapshot: while a snapshot's context is selected, the `history:*`
 * channels answer from the history the file carries (the series, episodes and drift count
 * recorded over its window) instead of the history store, which has nothing true to say about a
 * cluster that is not there. Other contexts go to the history feature unchanged.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { Episode, historyRequests, Point, Sample, SeriesName } from '../../../shared/contracts/history.ts';
import type { OpenedSnapshot, SnapshotFile, SnapshotWorkloadHistory } from '../../../shared/contracts/snapshot.ts';
import { err, ok } from '../../../shared/result.ts';
import type { FeatureHandlers } from '../features.ts';
import { changedFields } from '../history/compare.ts';
import { driftCountSteps } from '../history/episode-query.ts';
import { downsample } from '../history/lttb.ts';
import { formatSnapshotTime } from './file.ts';
import { statePage } from '../history/answers.ts';

type HistoryHandlers = FeatureHandlers<typeof historyRequests>;

export interface SnapshotHistorySource {
  /** The opened snapshot the selected context shows, or undefined for any other context. */
  selected(): OpenedSnapshot | undefined;
  file(id: string): Promise<SnapshotFile>;
}

const overlaps = (start: number, end: number | null, from: number, to: number) => start <= to && (end ?? Infinity) >= from;

/** A series cut to [from, to]: the value in effect at `from` carried in, then the points inside. */
function slicePoints(points: readonly Point[], from: number, to: number, maxPoints: number): Point[] {
  let carried: Point | undefined;
  const inside: Point[] = [];
  for (const point of points) {
    if (point[0] < from) carried = point;
    else if (point[0] <= to) inside.push(point);
  }
  const all = carried && (inside[0]?.[0] ?? Infinity) > from ? [[from, carried[1]] as Point, ...inside] : inside;
  if (all.length <= maxPoints) return all;
  return downsample(
    all.map((p) => p[0]),
    all.map((p) => (p[1] === null ? Number.NaN : p[1])),
    maxPoints,
  );
}

/** The value a series held at `at` (the last point at or before it). */
function valueAt(points: readonly Point[], at: number): number | null | undefined {
  let value: number | null | undefined;
  for (const [time, point] of points) {
    if (time > at) break;
    value = point;
  }
  return value;
}

/** A workload's numbers at `at`, rebuilt from its series (conditions are not in the file's series). */
function sampleAt(entry: SnapshotWorkloadHistory, at: number): Sample | null {
  const values = new Map<SeriesName, number | null>();
  let known = false;
  for (const series of entry.series) {
    const value = valueAt(series.points, at);
    if (value !== undefined) known = true;
    values.set(series.name, value ?? null);
  }
  if (!known) return null;
  const get = (name: SeriesName) => values.get(name) ?? null;
  return {
    at,
    desired: get('desired'),
    current: get('current'),
    ready: get('ready'),
    available: get('available'),
    updated: get('updated'),
    unavailable: get('unavailable'),
    generation: get('generation'),
    observedGeneration: get('observedGeneration'),
    availableCondition: null,
    progressingCondition: null,
    progressingReason: null,
  };
}

function noHistory(entry: OpenedSnapshot) {
  return err('unavailable', `The snapshot "${entry.contextName}" holds no recorded history, so it has no timeline.`);
}

/** `handlers` with the snapshot's own answers while a snapshot context is selected. */
export function withSnapshotHistory(handlers: HistoryHandlers, source: SnapshotHistorySource): HistoryHandlers {
  return {
    'history:status': async (request) => {
      const entry = source.selected();
      if (!entry) return handlers['history:status'](request);
      const message = entry.window ? 'An offline snapshot: its timeline is the one recorded in the file.' : 'An offline snapshot without recorded history.';
      return ok({ context: entry.contextName, state: 'off', message, since: entry.window?.from ?? null, bytes: entry.bytes, samples: entry.counts.samples, episodes: entry.counts.episodes });
    },
    'history:series': async (request) => {
      const entry = source.selected();
      if (!entry) return handlers['history:series'](request);
      const history = (await source.file(entry.id)).history;
      if (!history) return noHistory(entry);
      const workload = history.workloads.find((candidate) => candidate.workload.uid === request.uid);
      if (!workload) return err('not-found', `Nothing is recorded for workload ${request.uid} in this snapshot.`);
      const { from, to } = request;
      if (from > to) return err('invalid-request', 'The range ends before it starts (from > to).');
      const maxPoints = request.maxPoints ?? 2_000;
      return ok({
        workload: workload.workload,
        from,
        to,
        series: workload.series.map((series) => ({ name: series.name, points: slicePoints(series.points, from, to, maxPoints) })),
        rawSamples: workload.rawSamples,
        rollouts: workload.rollouts.filter((rollout) => overlaps(rollout.start, rollout.end, from, to)),
        warnings: workload.warnings.filter((event) => event.at >= from && event.at <= to),
        episodes: history.episodes.filter((episode) => episode.workload.uid === request.uid && overlaps(episode.start, episode.end, from, to)),
        since: history.since,
      });
    },
    'history:episodes': async (request) => {
      const entry = source.selected();
      if (!entry) return handlers['history:episodes'](request);
      const history = (await source.file(entry.id)).history;
      if (!history) return noHistory(entry);
      if (request.from > request.to) return err('invalid-request', 'The range ends before it starts (from > to).');
      const inFilter = (episode: Episode) =>
        overlaps(episode.start, episode.end, request.from, request.to) &&
        (request.namespace === undefined || episode.workload.namespace === request.namespace) &&
        (request.kind === undefined || episode.workload.kind === request.kind);
      const matching = history.episodes.filter(inFilter);
      const listed = matching.filter((episode) => (!request.ongoingOnly || episode.end === null) && episode.durationMs >= (request.minDurationMs ?? 0));
      const limit = request.limit ?? 5_000;
      const end = Math.max(request.from, Math.min(request.to, history.window.to));
      return ok({
        from: request.from,
        to: request.to,
        episodes: listed.slice(0, limit).map(({ events: _events, ...episode }) => episode),
        truncated: listed.length > limit,
        // As the history store counts: a ReplicaSet run by a Deployment is not a workload of its own.
        driftCount: driftCountSteps(
          matching.filter((episode) => request.kind !== undefined || !episode.controller).map((episode) => ({ start_at: episode.start, end_at: episode.end })),
          request.from,
          end,
        ),
        since: history.since,
      });
    },
    'history:episode': async (request) => {
      const entry = source.selected();
      if (!entry) return handlers['history:episode'](request);
      const episode = (await source.file(entry.id)).history?.episodes.find((candidate) => candidate.id === request.id);
      return episode ? ok(episode) : err('not-found', `There is no drift episode ${request.id} in this snapshot.`);
    },
    'history:state-at': async (request) => {
      const entry = source.selected();
      if (!entry) return handlers['history:state-at'](request);
      if (request.at < entry.takenAt) {
        return err('not-found', `This snapshot holds the objects as they were at ${formatSnapshotTime(entry.takenAt)} only; its timeline before that has numbers, not objects.`);
      }
      const objects: SlimObject[] = (await source.file(entry.id)).objects;
      return ok(statePage(entry.takenAt, objects, request.offset, request.limit));
    },
    'history:compare': async (request) => {
      const entry = source.selected();
      if (!entry) return handlers['history:compare'](request);
      const history = (await source.file(entry.id)).history;
      if (!history) return noHistory(entry);
      const changes = history.workloads
        .filter((workload) => request.namespace === undefined || workload.workload.namespace === request.namespace)
        .map((workload) => {
          const before = sampleAt(workload, request.t1);
          const after = sampleAt(workload, request.t2);
          return { workload: workload.workload, before, after, changed: changedFields(before, after) };
        })
        .filter((change) => change.changed.length > 0);
      return ok({ t1: request.t1, t2: request.t2, changes });
    },
  };
}
