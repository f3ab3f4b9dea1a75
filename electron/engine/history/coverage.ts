/**
 * Coverage: when this context was being observed. A recording store opens a session row when it
 * starts, moves its end to "now" at most every SESSION_MARK_MS while alive, and on close writes
 * why it ended (app closed, context switched, recording switched off, connection lost: a new
 * session starts when the cluster answers again). A session that never
 * closed (a crash, `kill -9`, a power loss) keeps the last moment it was known alive, and the
 * time after it is a gap whose reason is `stopped`.
 *
 * A gap is time within the asked range that no session covers. Gaps shorter than the recorder's
 * GAP_MS are not gaps: the recorder carries state across them (an episode continues), so
 * calling them unobserved would contradict the episodes drawn over them.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { KindHealth } from '../../../shared/cluster.ts';
import type { CoverageGap, CoverageGapReason } from '../../../shared/contracts/history.ts';
import { GAP_MS } from './recorder.ts';

/** How often a live session's end moves forward (at most this much of the past is lost to a kill). */
export const SESSION_MARK_MS = 1_000;

/** Why a session ended, as the closing code knows it. */
export type SessionEnd = Extract<CoverageGapReason, 'app-closed' | 'context-switched' | 'recording-off' | 'connection-lost'>;

const REASONS: ReadonlySet<string> = new Set<SessionEnd>(['app-closed', 'context-switched', 'recording-off', 'connection-lost']);

export interface Session {
  /** Moves the session's end to now, if SESSION_MARK_MS passed since the last mark (or `force`). */
  mark(force?: boolean): void;
  /** Ends the session now, saying why. Later calls do nothing. */
  end(reason: SessionEnd): void;
}

/** Opens a session row (the store is recording from `now()` on). */
export function startSession(db: DatabaseSync, now: () => number, markMs = SESSION_MARK_MS): Session {
  const start = now();
  const id = Number(db.prepare('INSERT INTO sessions (start_at, end_at) VALUES (?, ?)').run(start, start).lastInsertRowid);
  const update = db.prepare('UPDATE sessions SET end_at = max(end_at, ?) WHERE id = ?');
  let marked = start;
  let ended = false;
  return {
    mark(force = false) {
      const at = now();
      if (ended || (!force && at - marked < markMs)) return;
      marked = at;
      update.run(at, id);
    },
    end(reason) {
      if (ended) return;
      ended = true;
      db.prepare('UPDATE sessions SET end_at = max(end_at, ?), end_reason = ? WHERE id = ?').run(now(), reason, id);
    },
  };
}

interface SessionRow {
  id: number;
  start_at: number;
  end_at: number;
  end_reason: string | null;
}

const reasonOf = (row: SessionRow | undefined): CoverageGapReason => (!row ? 'not-yet' : row.end_reason && REASONS.has(row.end_reason) ? (row.end_reason as CoverageGapReason) : 'stopped');

export interface CoverageOptions {
  now(): number;
  /** Shorter gaps are not gaps (the recorder's GAP_MS). */
  gapMs?: number;
  /** Whether a session is recording now: its end is "now", not its last mark. */
  live(): boolean;
}

/** The query `gaps(from, to)`: the unobserved stretches of [from, min(to, now)], oldest first. */
export function createCoverageQuery(db: DatabaseSync, options: CoverageOptions) {
  const gapMs = options.gapMs ?? GAP_MS;
  const overlapping = db.prepare('SELECT id, start_at, end_at, end_reason FROM sessions WHERE end_at >= ? AND start_at <= ? ORDER BY start_at, id');
  const before = db.prepare('SELECT id, start_at, end_at, end_reason FROM sessions WHERE end_at < ? ORDER BY end_at DESC, id DESC LIMIT 1');
  const newest = db.prepare('SELECT id, start_at, end_at, end_reason FROM sessions ORDER BY id DESC LIMIT 1');

  return function gaps(from: number, to: number): CoverageGap[] {
    const now = options.now();
    const end = Math.min(to, now);
    if (end <= from) return [];
    // The live session reaches now, whatever its last mark says.
    const live = options.live() ? (newest.get() as SessionRow | undefined) : undefined;
    const reach = (row: SessionRow): SessionRow => (live && row.id === live.id ? { ...row, end_at: now } : row);
    const rows = (overlapping.all(from - gapMs, end) as unknown as SessionRow[]).map(reach);
    let previous = before.get(from - gapMs) as SessionRow | undefined;
    if (previous) previous = reach(previous);
    if (previous && previous.end_at >= from - gapMs) {
      rows.unshift(previous);
      previous = undefined;
    }
    const out: CoverageGap[] = [];
    // A gap is measured whole (it may begin before the range) and clipped to the range after.
    const push = (start: number, stop: number, row: SessionRow | undefined) => {
      if (stop - start <= gapMs) return;
      const clipped = { start: Math.max(start, from), end: Math.min(stop, end) };
      if (clipped.end > clipped.start) out.push({ ...clipped, reason: reasonOf(row) });
    };
    let cursor = previous ? previous.end_at : Number.NEGATIVE_INFINITY;
    for (const row of rows) {
      if (row.start_at > cursor) push(cursor, row.start_at, previous);
      if (row.end_at >= cursor) {
        cursor = row.end_at;
        previous = row;
      }
    }
    push(cursor, now, previous);
    return out;
  };
}

/** Retention: sessions that ended before `cut` say nothing about kept time. */
export function pruneSessions(db: DatabaseSync, cut: number): void {
  db.prepare('DELETE FROM sessions WHERE end_at < ? AND id < (SELECT max(id) FROM sessions)').run(cut);
}

/** Nothing of the cluster is observed while its kinds report this health (a gap `connection-lost`). */
export function connectionLost(kinds: readonly KindHealth[]): boolean {
  // Kinds the user may not read (forbidden) or the server does not serve stay so while it is
  // unreachable: the connection is lost when nothing is live or listing and something reconnects.
  return kinds.some((kind) => kind.state === 'reconnecting') && !kinds.some((kind) => kind.state === 'live' || kind.state === 'syncing');
}
