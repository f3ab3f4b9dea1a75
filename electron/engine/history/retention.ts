/**
 * Retention: history older than the age limit is deleted, and when the database still uses more
 * than the size limit, the oldest tenth of what is left goes, until it fits. `since` (the oldest
 * moment whose history is complete) moves forward with every cut and is what the views show as
 * "history since".
 *
 * What a cut keeps: a sample block survives while any of its samples is newer than the cut (so a
 * series still knows the value in effect at `since`); episodes and rollouts that ended before the
 * cut go, ongoing ones stay; the object-state log keeps the newest complete keyframe at or before
 * the cut and everything after it, so the state at any time after `since` can still be rebuilt.
 * Freed pages are given back to the file system (incremental auto-vacuum).
 */
import type { DatabaseSync } from 'node:sqlite';

export const DAY_MS = 86_400_000;
/** Pages handed back to the file system per prune (4 KB each): bounded work per call. */
const VACUUM_PAGES = 25_000;
/** Size cuts per prune at most, each a tenth of the remaining span. */
const MAX_SIZE_CUTS = 20;

export interface RetentionLimits {
  maxAgeMs: number;
  maxBytes: number;
}

/** Bytes in use by the database's pages (free pages excluded). */
export function usedBytes(db: DatabaseSync): number {
  const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
  const free = (db.prepare('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count;
  const size = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
  return (pages - free) * size;
}

export function readSince(db: DatabaseSync): number | null {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'since'").get() as { value: string } | undefined;
  return row ? Number(row.value) : null;
}

export function writeSince(db: DatabaseSync, since: number): void {
  db.prepare("INSERT INTO meta (key, value) VALUES ('since', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(since));
}

/** Deletes everything recorded before `cut` that the history after `cut` does not need. */
export function deleteBefore(db: DatabaseSync, cut: number): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.prepare('DELETE FROM sample_blocks WHERE end_at < ?').run(cut);
    db.prepare('DELETE FROM episodes WHERE end_at IS NOT NULL AND end_at < ?').run(cut);
    db.prepare('DELETE FROM rollouts WHERE end_at IS NOT NULL AND end_at < ?').run(cut);
    db.prepare('DELETE FROM events WHERE last_at < ?').run(cut);
    db.prepare('DELETE FROM owners WHERE gone_at IS NOT NULL AND gone_at < ?').run(cut);
    db.prepare('DELETE FROM unobserved WHERE end_at IS NOT NULL AND end_at < ?').run(cut);
    const base = db.prepare('SELECT id, at, after_batch FROM keyframes WHERE complete = 1 AND at <= ? ORDER BY at DESC, id DESC LIMIT 1').get(cut) as
      | { id: number; at: number; after_batch: number }
      | undefined;
    if (base) {
      db.prepare('DELETE FROM keyframe_chunks WHERE keyframe_id IN (SELECT id FROM keyframes WHERE at < ? OR (complete = 0 AND id < ?))').run(base.at, base.id);
      db.prepare('DELETE FROM keyframes WHERE at < ? OR (complete = 0 AND id < ?)').run(base.at, base.id);
      db.prepare('DELETE FROM delta_batches WHERE id <= ?').run(base.after_batch);
    }
    db.prepare(
      'DELETE FROM workloads WHERE deleted_at IS NOT NULL AND deleted_at < ? AND NOT EXISTS (SELECT 1 FROM sample_blocks b WHERE b.workload_id = workloads.id) AND NOT EXISTS (SELECT 1 FROM episodes e WHERE e.workload_id = workloads.id)',
    ).run(cut);
    const since = readSince(db);
    if (since === null || since < cut) writeSince(db, cut);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** The oldest moment anything is recorded for, or null for an empty database. */
function oldest(db: DatabaseSync): number | null {
  const row = db.prepare('SELECT min(start_at) AS at FROM sample_blocks').get() as { at: number | null };
  const since = readSince(db);
  return row.at ?? since;
}

/**
 * Applies the limits at time `now`; returns whether anything was cut. The caller forgets any
 * cached rows (the writer's open blocks) afterwards.
 */
export function prune(db: DatabaseSync, now: number, limits: RetentionLimits): boolean {
  let cut = false;
  const ageCut = now - limits.maxAgeMs;
  const since = readSince(db);
  if (since === null || since < ageCut) {
    deleteBefore(db, ageCut);
    cut = true;
  }
  let used = usedBytes(db);
  const nextKeyframe = db.prepare('SELECT min(at) AS at FROM keyframes WHERE complete = 1 AND at > ?');
  for (let i = 0; i < MAX_SIZE_CUTS && used > limits.maxBytes; i += 1) {
    const start = Math.max(oldest(db) ?? now, readSince(db) ?? 0);
    if (start >= now) break;
    // At least a tenth of what is left, and at least up to the next keyframe: the object log
    // before a keyframe can only go once the cut passes it.
    const keyframe = (nextKeyframe.get(readSince(db) ?? 0) as { at: number | null }).at;
    const step = Math.max(start + Math.max(60_000, Math.ceil((now - start) / 10)), keyframe ?? 0);
    deleteBefore(db, Math.min(step, now));
    cut = true;
    const after = usedBytes(db);
    // Nothing more can go (what is left is needed to rebuild recent states): stop cutting.
    if (after >= used && keyframe === null) break;
    used = after;
  }
  if (cut) db.exec(`PRAGMA incremental_vacuum(${VACUUM_PAGES})`);
  return cut;
}
