/**
 * The causes an episode keeps: the cause finder's headline cause of a drifting workload (the
 * causes feature pushes them on `causes:changed`), noted on the workload's open episode when it
 * first becomes known and whenever it changes to one the episode has not had yet (with the leaf
 * under a controller's verdict). Distinct by code, so a count in the sentence that grows ("1 pod",
 * then "3 pods") is not a new cause; at most MAX_EPISODE_CAUSES; each with when first seen. Stored as JSON in the
 * episode row (`episodes.causes`, v7) and written with the episode's batch.
 *
 * Nothing here reads the finder's internals: the history feature turns the pushed reports into
 * headlines (`headlinesOf`) and hands them to the recorder.
 */
import type { CauseInfo, DriftingCauses } from '../../../shared/contracts/causes.ts';
import { EpisodeCauseSchema, MAX_EPISODE_CAUSES, type EpisodeCause } from '../../../shared/contracts/history.ts';

/** A workload's headline cause now, without a time (the episode notes when it first saw it). */
export type HeadlineCause = Omit<EpisodeCause, 'at'>;

/** Longest sentence kept (the finder quotes the cluster; a runaway message is cut, never the row). */
const MAX_SENTENCE_CHARS = 1_000;

/**
 * The finder's fallbacks when it names nothing more specific ("1 of 2 replicas not ready", an owner
 * not in the cache yet): kept only until a specific cause is known, never added after one.
 */
const FALLBACK_CODES: ReadonlySet<string> = new Set(['not-ready', 'not-in-cache']);

function headlineOf(cause: CauseInfo, under: boolean): HeadlineCause {
  const evidence = cause.evidence[0];
  return {
    code: cause.code,
    sentence: cause.sentence.length > MAX_SENTENCE_CHARS ? `${cause.sentence.slice(0, MAX_SENTENCE_CHARS - 1)}…` : cause.sentence,
    ...(evidence ? { evidence: { kind: evidence.kind, name: evidence.name } } : {}),
    ...(under ? { under: true } : {}),
  };
}

/**
 * The headline cause of every drifting object in a `causes:changed` push, by the object's uid,
 * followed by the first cause found under it when the headline is a controller's verdict (an
 * exceeded progress deadline says the rollout stalled; the pods under it say why).
 */
export function headlinesOf(causes: DriftingCauses): Map<string, HeadlineCause[]> {
  const out = new Map<string, HeadlineCause[]>();
  for (const report of causes.reports) {
    const head = report.causes[0];
    if (!head) continue;
    const leaf = head.underneath?.[0];
    out.set(report.target.uid, leaf ? [headlineOf(head, false), headlineOf(leaf, true)] : [headlineOf(head, false)]);
  }
  return out;
}

/**
 * `causes` with `headline` noted as seen at `at`, or undefined when nothing changed: the episode
 * already has a cause with that code, or is full, or the headline is a fallback and a cause is
 * known. A specific cause replaces the fallbacks noted before it.
 */
export function noteCause(causes: readonly EpisodeCause[] | undefined, headline: HeadlineCause, at: number): EpisodeCause[] | undefined {
  const kept = causes ?? [];
  if (kept.some((cause) => cause.code === headline.code)) return undefined;
  if (FALLBACK_CODES.has(headline.code) && kept.length > 0) return undefined;
  const specific = FALLBACK_CODES.has(headline.code) ? kept : kept.filter((cause) => !FALLBACK_CODES.has(cause.code));
  if (specific.length >= MAX_EPISODE_CAUSES) return undefined;
  return [...specific, { at, ...headline, ...(headline.evidence ? { evidence: { ...headline.evidence } } : {}) }];
}
/** The `episodes.causes` column of a list (null when there is none). */
export function encodeCauses(causes: readonly EpisodeCause[] | undefined): string | null {
  return causes && causes.length > 0 ? JSON.stringify(causes) : null;
}

/**
 * A list from its column. A value that does not read as causes (a hand-edited or damaged row)
 * gives none rather than failing the whole episode list.
 */
export function decodeCauses(column: string | null): EpisodeCause[] | undefined {
  if (column === null) return undefined;
  try {
    const parsed = EpisodeCauseSchema.array().max(MAX_EPISODE_CAUSES).safeParse(JSON.parse(column));
    return parsed.success && parsed.data.length > 0 ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
