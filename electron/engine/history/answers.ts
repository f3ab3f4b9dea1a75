/**
 * The history requests' answers over one context's recorded history (a store's queries,
 * queries.ts): the same checks, paging and messages wherever they are asked, the app's selected
 * context (index.ts) and a recorder's history server (sources/recorder-history.ts). `where`
 * names the context in messages: "this context" in the app, its name on a recorder.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { err, ok, type Err, type Result } from '../../../shared/result.ts';
import type { createHistoryQueries } from './queries.ts';
import { BeforeStateLogError } from './state-at.ts';

type Queries = ReturnType<typeof createHistoryQueries>;

/** One context's recorded history, as the answers read it. */
export interface RecordedHistory {
  /** How messages name the context. */
  readonly where: string;
  since(): number | null;
  series: Queries['series'];
  episodes: Queries['episodes'];
  episode: Queries['episode'];
  compare: Queries['compare'];
  objectsAt(at: number): Promise<SlimObject[]>;
}

const iso = (at: number): string => new Date(at).toISOString();

const backwards = (): Err => err('invalid-request', 'The range ends before it starts (from > to).');

/** `objects` from `offset`, at most `limit` of them, as `history:state-at` pages them. */
export function statePage(at: number, objects: readonly SlimObject[], offset: number, limit: number) {
  const end = Math.min(objects.length, offset + limit);
  return { at, total: objects.length, objects: objects.slice(offset, end), nextOffset: end < objects.length ? end : null };
}

/** A past time before the oldest kept moment cannot be rebuilt. */
export function beforeHistory(history: RecordedHistory, at: number): Err | undefined {
  const since = history.since();
  if (since !== null && at < since) return err('not-found', `History of ${history.where} starts at ${iso(since)}; ${iso(at)} is before that (retention removed it, or nothing was recorded then).`);
  return undefined;
}

export function answerSeries(history: RecordedHistory, request: Parameters<Queries['series']>[0]) {
  if (request.from > request.to) return backwards();
  const result = history.series(request);
  if (!result) return err('not-found', `Nothing is recorded for workload ${request.uid} in ${history.where}.`);
  return ok({ ...result, since: history.since() });
}

export function answerEpisodes(history: RecordedHistory, request: Parameters<Queries['episodes']>[0]) {
  if (request.from > request.to) return backwards();
  return ok({ ...history.episodes(request), since: history.since() });
}

export function answerEpisode(history: RecordedHistory, id: number) {
  const episode = history.episode(id);
  return episode ? ok(episode) : err('not-found', `There is no drift episode ${id} in ${history.where} (retention may have removed it).`);
}

export function answerCompare(history: RecordedHistory, { t1, t2, namespace }: { t1: number; t2: number; namespace?: string | undefined }) {
  return ok({ t1, t2, changes: history.compare(t1, t2, namespace) });
}

/**
 * The objects at `at`, a page of them. A time before the history, or before its first state was
 * recorded, is `not-found` saying when it starts; any other failure is thrown to the caller.
 */
export async function answerStateAt(history: RecordedHistory, { at, offset, limit }: { at: number; offset: number; limit: number }): Promise<Result<ReturnType<typeof statePage>>> {
  const early = beforeHistory(history, at);
  if (early) return early;
  try {
    return ok(statePage(at, await history.objectsAt(at), offset, limit));
  } catch (error) {
    // The history may have been pruned meanwhile: say so rather than what failed.
    const pruned = beforeHistory(history, at);
    if (pruned) return pruned;
    if (!(error instanceof BeforeStateLogError)) throw error;
    // The time-travel bar puts its own lead before it.
    const first = error.first === null ? 'is recorded once every kind has been listed' : `is from ${iso(error.first)}, once every kind had been listed`;
    return err('not-found', `The first state of ${history.where} ${first}; ${iso(at)} is before that.`);
  }
}
