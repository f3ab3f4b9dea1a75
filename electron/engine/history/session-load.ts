/**
 * What a new recording session needs from earlier ones: the episodes and rollouts they left open
 * (the recorder continues or closes them), the next episode id, the workloads still out of view
 * (left-view.ts), and each workload's last
 * recorded sample, read when the workload is first seen.
 */
import type { DatabaseSync } from 'node:sqlite';
import { decodeCauses } from './episode-causes.ts';
import { episodeStatusOf, type StateColumns } from './episode-rows.ts';
import type { EpisodeRecord, RolloutRecord } from './records.ts';
import { reasonsOf } from './reason-bits.ts';
import type { RecorderHistory } from './recorder.ts';
import { resumeBlock, type SampleValues } from './sample-codec.ts';

export function loadRecorderHistory(db: DatabaseSync): RecorderHistory {
  const openEpisodes = new Map<string, EpisodeRecord>();
  const episodes = db
    .prepare(
      'SELECT e.id, w.uid, e.start_at, e.peak_gap, e.reasons, e.trigger_generation, e.trigger_image, e.state, e.state_reason, e.state_message, e.causes FROM episodes e JOIN workloads w ON w.id = e.workload_id WHERE e.end_at IS NULL',
    )
    .all() as unknown as Array<{ id: number; uid: string; start_at: number; peak_gap: number; reasons: number; trigger_generation: number | null; trigger_image: string | null; causes: string | null } & StateColumns>;
  for (const row of episodes) {
    const trigger = row.trigger_generation === null ? null : { generation: row.trigger_generation, ...(row.trigger_image ? { image: row.trigger_image } : {}) };
    const status = episodeStatusOf(row.state, row.state_reason, row.state_message);
    const causes = decodeCauses(row.causes);
    openEpisodes.set(row.uid, { id: row.id, uid: row.uid, start: row.start_at, end: null, peakGap: row.peak_gap, reasons: reasonsOf(row.reasons), trigger, ...(status ? { status } : {}), ...(causes ? { causes } : {}) });
  }
  const openRollouts = new Map<string, RolloutRecord>();
  const rollouts = db
    .prepare('SELECT w.uid, r.generation, r.start_at, r.image FROM rollouts r JOIN workloads w ON w.id = r.workload_id WHERE r.end_at IS NULL ORDER BY r.generation')
    .all() as Array<{ uid: string; generation: number; start_at: number; image: string | null }>;
  for (const row of rollouts) openRollouts.set(row.uid, { uid: row.uid, generation: row.generation, start: row.start_at, end: null, image: row.image });
  const unobserved = db.prepare('SELECT w.uid, w.kind, w.namespace FROM unobserved u JOIN workloads w ON w.id = u.workload_id WHERE u.end_at IS NULL').all() as Array<{ uid: string; kind: string; namespace: string }>;
  const nextEpisodeId = Number((db.prepare('SELECT coalesce(max(id), 0) + 1 AS next FROM episodes').get() as { next: number }).next);
  const lastBlock = db.prepare(
    'SELECT b.start_at, b.count, b.data FROM sample_blocks b JOIN workloads w ON w.id = b.workload_id WHERE w.uid = ? ORDER BY b.end_at DESC, b.id DESC LIMIT 1',
  );
  // A file without samples (a first connect): a workload's samples can only be this session's,
  // written after the recorder first asked for it, so that first question needs no query (5,000
  // of them were ~10 % of writing a 5,000-pod cluster's first state). Asked again, it is read.
  const asked = db.prepare('SELECT 1 FROM sample_blocks LIMIT 1').get() === undefined ? new Set<string>() : undefined;
  return {
    openEpisodes,
    openRollouts,
    nextEpisodeId,
    unobserved,
    previous(uid): { at: number; values: SampleValues } | undefined {
      if (asked && !asked.has(uid)) {
        asked.add(uid);
        return undefined;
      }
      const row = lastBlock.get(uid) as { start_at: number; count: number; data: Uint8Array } | undefined;
      if (!row) return undefined;
      const block = resumeBlock(row.start_at, row.data, row.count);
      return block.count > 0 ? { at: block.last, values: block.previous } : undefined;
    },
  };
}
