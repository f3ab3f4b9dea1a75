/**
 * Merging the app's own history of a context with what history sources (headless recorders)
 * recorded of it. Pure, so every rule is tested on its own:
 * - coverage is the union: a span is a gap only when nobody observed it (the local gap's reason
 *   is kept, it says why this app did not);
 * - a source's samples and drift count fill the spans the local store did not observe; where the
 *   app observed, its own are kept;
 * - episodes are deduplicated by workload uid and time: a source's episode of a workload that
 *   overlaps (or starts within DEDUPE_START_MS of) one already kept is the same drift, and the
 *   app's own is kept; the others join, marked `recordedBy` with the source's name;
 * - inferred rows keep their deterministic ids, so the same fact from two observers is one row,
 *   still marked inferred.
 */
import type { CoverageGap, Episode, EpisodeList, InferredFact, Point, Rollout, SeriesResult } from '../../../../shared/contracts/history.ts';

/**
 * Two observers of the same drift see its start this close together (each samples within a
 * second of a change); short drifts that do not overlap because of it are still one.
 */
export const DEDUPE_START_MS = 1_000;

/** One source's answer, with the name rows it adds are marked with. */
export interface SourcePart<T> {
  source: string;
  value: T;
}

/** Gives a source's episode an id of the app's (for `history:episode`). */
export type EpisodeIdMap = (source: string, id: number) => number;

/** The spans unobserved by both: each local gap cut down to the parts inside a remote gap. */
export function intersectGaps(local: readonly CoverageGap[], remote: readonly CoverageGap[]): CoverageGap[] {
  const out: CoverageGap[] = [];
  for (const gap of local) {
    for (const other of remote) {
      const start = Math.max(gap.start, other.start);
      const end = Math.min(gap.end, other.end);
      if (end > start) out.push({ start, end, reason: gap.reason });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

const within = (at: number, gap: CoverageGap): boolean => at >= gap.start && at <= gap.end;

/**
 * The local points, except inside a local gap a source has points for; there the source's points
 * (the first source's, then the next's at other instants). By time, one point per instant, the
 * app's own first.
 */
export function fillPoints(local: readonly Point[], localGaps: readonly CoverageGap[], remotes: ReadonlyArray<readonly Point[]>): Point[] {
  const filled = localGaps.filter((gap) => remotes.some((points) => points.some((point) => within(point[0], gap))));
  const byTime = new Map<number, Point>();
  // Strictly inside: the local points at a gap's edges are the app's last and first observations.
  for (const point of local) if (!filled.some((gap) => point[0] > gap.start && point[0] < gap.end)) byTime.set(point[0], point);
  for (const points of remotes) {
    for (const point of points) if (!byTime.has(point[0]) && filled.some((gap) => within(point[0], gap))) byTime.set(point[0], point);
  }
  return [...byTime.values()].sort((a, b) => a[0] - b[0]);
}

function sameDrift(a: Episode, b: Episode, now: number): boolean {
  if (a.workload.uid !== b.workload.uid) return false;
  if (Math.abs(a.start - b.start) <= DEDUPE_START_MS) return true;
  return a.start <= (b.end ?? now) && b.start <= (a.end ?? now);
}

/** The local episodes, then each source's that is not a drift already kept (marked, re-identified). */
export function mergeEpisodes(local: readonly Episode[], remotes: ReadonlyArray<SourcePart<readonly Episode[]>>, ids: EpisodeIdMap, now: number): Episode[] {
  const kept: Episode[] = [...local];
  for (const { source, value } of remotes) {
    for (const episode of value) {
      if (kept.some((other) => sameDrift(other, episode, now))) continue;
      kept.push({ ...episode, id: ids(source, episode.id), recordedBy: episode.recordedBy ?? source });
    }
  }
  return kept.sort((a, b) => a.start - b.start || a.id - b.id);
}

/** Inferred facts by their deterministic id: the app's first, a source's only when new (marked). */
export function mergeInferred(local: readonly InferredFact[] | undefined, remotes: ReadonlyArray<SourcePart<readonly InferredFact[] | undefined>>): InferredFact[] | undefined {
  if (local === undefined && remotes.every((part) => part.value === undefined)) return undefined;
  const byId = new Map<string, InferredFact>();
  for (const fact of local ?? []) byId.set(fact.id, fact);
  for (const { source, value } of remotes) for (const fact of value ?? []) if (!byId.has(fact.id)) byId.set(fact.id, { ...fact, recordedBy: fact.recordedBy ?? source });
  return [...byId.values()];
}

function mergedGaps(local: readonly CoverageGap[] | undefined, remotes: ReadonlyArray<readonly CoverageGap[] | undefined>): CoverageGap[] | undefined {
  if (local === undefined) return undefined;
  // A source that did not say what it observed fills nothing of the coverage.
  return remotes.reduce<CoverageGap[]>((gaps, remote) => (remote === undefined ? gaps : intersectGaps(gaps, remote)), [...local]);
}

function earliest(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : Math.min(...known);
}

/** The part every merged answer shares: the history's episodes, what was inferred and its coverage. */
interface HistoryAnswer {
  episodes: Episode[];
  inferred?: InferredFact[] | undefined;
  inferredTotal?: number | undefined;
  gaps?: CoverageGap[] | undefined;
}

/** A source's answer as the base where the app has none: its episodes take the app's ids and say who recorded them. */
function sourceBase<T extends HistoryAnswer>(part: SourcePart<T>, ids: EpisodeIdMap): T {
  const base: T = { ...part.value, episodes: part.value.episodes.map((episode) => ({ ...episode, id: ids(part.source, episode.id), recordedBy: episode.recordedBy ?? part.source })) };
  const inferred = mergeInferred(undefined, [{ source: part.source, value: part.value.inferred }]);
  if (inferred) base.inferred = inferred;
  return base;
}

/** Adds the union of the coverage and the inferred rows of the app's and the sources' answers to `merged`. */
function withCoverageAndInferred<T extends HistoryAnswer>(merged: T, local: T, remotes: ReadonlyArray<SourcePart<T>>): T {
  const mergedCoverage = mergedGaps(local.gaps, remotes.map((part) => part.value.gaps));
  if (mergedCoverage) merged.gaps = mergedCoverage;
  const inferred = mergeInferred(local.inferred, remotes.map(({ source, value }) => ({ source, value: value.inferred })));
  if (inferred) merged.inferred = inferred;
  return merged;
}

/** An answer whose inferred rows were cut: the union holds at least as many as the largest count. */
function withInferredTotal<T extends HistoryAnswer>(merged: T, local: T, remotes: ReadonlyArray<SourcePart<T>>): T {
  const totals = [local, ...remotes.map((part) => part.value)].flatMap((answer) => (answer.inferredTotal === undefined ? [] : [answer.inferredTotal]));
  if (totals.length > 0) merged.inferredTotal = Math.max(merged.inferred?.length ?? 0, ...totals);
  return merged;
}

/** The swimlane's answer with the sources' history merged in. `local` null: only sources know this context. */
export function mergeEpisodeLists(local: EpisodeList | null, remotes: ReadonlyArray<SourcePart<EpisodeList>>, ids: EpisodeIdMap, now: number): EpisodeList | null {
  const first = remotes[0];
  if (local === null) {
    if (!first) return null;
    return mergeEpisodeLists(sourceBase(first, ids), remotes.slice(1), ids, now);
  }
  const gaps = local.gaps ?? [];
  const merged: EpisodeList = {
    ...local,
    episodes: mergeEpisodes(local.episodes, remotes.map(({ source, value }) => ({ source, value: value.episodes })), ids, now),
    truncated: local.truncated || remotes.some((part) => part.value.truncated),
    driftCount: fillPoints(local.driftCount, gaps, remotes.map((part) => part.value.driftCount)),
    since: earliest([local.since, ...remotes.map((part) => part.value.since)]),
  };
  return withInferredTotal(withCoverageAndInferred(merged, local, remotes), local, remotes);
}

function mergeRollouts(local: readonly Rollout[], remotes: ReadonlyArray<readonly Rollout[]>): Rollout[] {
  const byGeneration = new Map<number, Rollout>();
  for (const rollout of [...local, ...remotes.flat()]) {
    const seen = byGeneration.get(rollout.generation);
    if (!seen || rollout.start < seen.start) byGeneration.set(rollout.generation, seen ? { ...rollout, end: seen.end ?? rollout.end } : rollout);
  }
  return [...byGeneration.values()].sort((a, b) => a.start - b.start);
}

/** One workload's series with the sources' samples filling the app's unobserved spans. */
export function mergeSeries(local: SeriesResult | null, remotes: ReadonlyArray<SourcePart<SeriesResult>>, ids: EpisodeIdMap, now: number): SeriesResult | null {
  const first = remotes[0];
  if (local === null) {
    if (!first) return null;
    // Only sources recorded this workload: the first one's answer is the base (its rows marked).
    const base = sourceBase({ source: first.source, value: { ...first.value, gaps: first.value.gaps ?? [] } }, ids);
    return remotes.length === 1 ? base : mergeSeries(base, remotes.slice(1), ids, now);
  }
  const gaps = local.gaps ?? [];
  const merged: SeriesResult = {
    ...local,
    series: local.series.map((line) => ({ name: line.name, points: fillPoints(line.points, gaps, remotes.map((part) => part.value.series.find((other) => other.name === line.name)?.points ?? [])) })),
    rawSamples: local.rawSamples + remotes.reduce((sum, part) => sum + part.value.rawSamples, 0),
    rollouts: mergeRollouts(local.rollouts, remotes.map((part) => part.value.rollouts)),
    warnings: [...new Map([...local.warnings, ...remotes.flatMap((part) => part.value.warnings)].map((event) => [event.uid, event])).values()].sort((a, b) => a.at - b.at),
    episodes: mergeEpisodes(local.episodes, remotes.map(({ source, value }) => ({ source, value: value.episodes })), ids, now),
    since: earliest([local.since, ...remotes.map((part) => part.value.since)]),
  };
  return withInferredTotal(withCoverageAndInferred(merged, local, remotes), local, remotes);
}
