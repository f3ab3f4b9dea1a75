/**
 * Schema v3: episodes recorded before `stalled` existed carry bit 4 for two different things:
 * a rollout still going (updated != desired) and a controller that gave up (Progressing=False,
 * a failed Job, ScalingActive=False). The bit alone cannot tell them apart, so the old
 * renderer called every scale-up "Stalled". The samples can: each kept the counts and the
 * conditions, so this re-reads every such episode's samples and re-derives its reasons with
 * today's rule (drift.ts). An episode whose samples retention already removed (or whose samples
 * show neither) keeps bit 4, now read as "rolling out" — the one claim the old bit supports —
 * rather than guessing a failure nobody can show.
 */
import type { DatabaseSync } from 'node:sqlite';
import { keyFromLegacy } from '../../../shared/builtin-kinds.ts';
import type { HistoryKind } from '../../../shared/contracts/history.ts';
import { driftOf } from './drift.ts';
import { DRIFT_REASON_BITS, reasonBits } from './reason-bits.ts';
import { sampleAt } from './sample-codec.ts';
import { createSampleReader } from './sample-read.ts';

const ROLLOUT_BITS = DRIFT_REASON_BITS.progressing | DRIFT_REASON_BITS.stalled;

interface OldEpisode {
  id: number;
  workload_id: number;
  kind: string;
  start_at: number;
  end_at: number | null;
  reasons: number;
}

/**
 * The rollout bits (progressing / stalled) an episode's samples show, or null when no sample of
 * the episode is left to say.
 */
function derivedBits(kind: HistoryKind, columns: ReturnType<ReturnType<typeof createSampleReader>['range']>, start: number, end: number): number | null {
  let bits = 0;
  let seen = false;
  for (let i = 0; i < columns.length; i += 1) {
    const at = columns.at[i] as number;
    if (at < start || at >= end) continue;
    seen = true;
    const { at: _at, ...values } = sampleAt(columns, i);
    bits |= reasonBits(driftOf(kind, values).reasons) & ROLLOUT_BITS;
  }
  return seen ? bits : null;
}

/** Re-derives `progressing` / `stalled` of every episode that recorded the old bit 4. */
export function rederiveRolloutReasons(db: DatabaseSync): void {
  const episodes = db
    .prepare(
      `SELECT e.id, e.workload_id, w.kind, e.start_at, e.end_at, e.reasons FROM episodes e JOIN workloads w ON w.id = e.workload_id
       WHERE (e.reasons & ${DRIFT_REASON_BITS.progressing}) != 0 ORDER BY e.workload_id, e.start_at`,
    )
    .all() as unknown as OldEpisode[];
  const update = db.prepare('UPDATE episodes SET reasons = ? WHERE id = ?');
  const samples = createSampleReader(db);
  let index = 0;
  while (index < episodes.length) {
    // One read of a workload's samples serves all of its episodes.
    const first = episodes[index] as OldEpisode;
    let last = index;
    while (last + 1 < episodes.length && (episodes[last + 1] as OldEpisode).workload_id === first.workload_id) last += 1;
    const group = episodes.slice(index, last + 1);
    index = last + 1;
    const to = Math.max(...group.map((episode) => episode.end_at ?? Number.MAX_SAFE_INTEGER));
    const columns = samples.range(first.workload_id, first.start_at, to);
    for (const episode of group) {
      // v3 runs before v4 renames the kinds: the stored name is read as its key.
      const bits = derivedBits(keyFromLegacy(first.kind) as HistoryKind, columns, episode.start_at, episode.end_at ?? Number.MAX_SAFE_INTEGER);
      if (bits === null || bits === 0) continue;
      const next = (episode.reasons & ~ROLLOUT_BITS) | bits;
      if (next !== episode.reasons) update.run(next, episode.id);
    }
  }
}
