/**
 * The causes an episode keeps: the cause finder's headline cause of a drifting workload (the
 * causes feature pushes them on `causes:changed`), noted on the workload's open episode when it
 * first becomes known and whenever it changes to one the episode has not had yet. Distinct by
 * code, so a count in the sentence that grows ("1 pod", then "3 pods") is not a new cause, and at
 * most MAX_EPISODE_CAUSES of them; each with when it was first seen. Stored as JSON in the
 * episode row (`episodes.causes`, v7) and written with the episode's batch.
 *
 * Nothing here reads the finder's internals: the history feature turns the pushed reports into
 * headlines (`headlinesOf`) and hands them to the recorder.
 */
import type { DriftingCauses } from '../../../shared/contracts/causes.ts';
import { EpisodeCauseSchema, MAX_EPISODE_CAUSES, type EpisodeCause } from '../../../shared/contracts/history.ts';

/** A workload's headline cause now, without a time (the episode notes when it first saw it). */
export type HeadlineCause = Omit<EpisodeCause, 'at'>;

/** Longest sentence kept (the finder quotes the cluster; a runaway message is cut, never the row). */
const MAX_SENTENCE_CHARS = 1_000;

/** The headline cause of every drifting object in a `causes:changed` push, by the object's uid. */
export function headlinesOf(causes: DriftingCauses): Map<string, HeadlineCause> {
  const out = new Map<string, HeadlineCause>();
  for (const report of causes.reports) {
    const head = report.causes[0];
    if (!head) continue;
    const evidence = head.evidence[0];
    out.set(report.target.uid, {
      code: head.code,
      sentence: head.sentence.length > MAX_SENTENCE_CHARS ? `${head.sentence.slice(0, MAX_SENTENCE_CHARS - 1)}…` : head.sentence,
      ...(evidence ? { evidence: { kind: evidence.kind, name: evidence.name } } : {}),
    });
  }
  return out;
}

/**
 * `causes` with `headline` noted as seen at `at`: the same list when the episode already has a
 * cause with that code, or is full. Returns undefined when nothing changed.
 */
export function noteCause(causes: readonly EpisodeCause[] | undefined, headline: HeadlineCause, at: number): EpisodeCause[] | undefined {
  const kept = causes ?? [];
  if (kept.length >= MAX_EPISODE_CAUSES || kept.some((cause) => cause.code === headline.code)) return undefined;
  return [...kept, { at, ...headline, ...(headline.evidence ? { evidence: { ...headline.evidence } } : {}) }];
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
