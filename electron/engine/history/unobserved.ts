/**
 * The stretches single workloads were out of view while recording went on (left-view.ts: the
 * user's access to their namespace withdrawn), as coverage gaps with the reason
 * `access-withdrawn`: a workload's chart hatches them like the time nobody recorded, and the
 * swimlane hatches them on that workload's lane only. As with coverage.ts, a stretch no longer
 * than GAP_MS is no gap (the recorder carried the workload across it), and one still open (not
 * seen since) reaches now. A stretch that ended with the workload gone (not there when its
 * namespace was listed again) says so (`deletedWithin`): it was deleted at some unknown moment
 * within the gap.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { CoverageGap } from '../../../shared/contracts/history.ts';
import { GAP_MS } from './recorder.ts';

/** A coverage gap of one workload. */
export type WorkloadGap = CoverageGap & { uid: string };

interface Row {
  uid: string;
  start_at: number;
  end_at: number | null;
  gone: number | null;
}

/** `gap` without the parts `others` cover (sorted, non-overlapping). */
function subtract(gap: CoverageGap, others: readonly CoverageGap[]): CoverageGap[] {
  let pieces = [gap];
  for (const other of others) {
    pieces = pieces.flatMap((piece) => {
      if (other.end <= piece.start || other.start >= piece.end) return [piece];
      const out: CoverageGap[] = [];
      if (other.start > piece.start) out.push({ ...piece, end: other.start });
      if (other.end < piece.end) out.push({ ...piece, start: other.end });
      return out;
    });
  }
  return pieces;
}

export interface UnobservedQueryOptions {
  now(): number;
  gapMs?: number;
}

export function createUnobservedQuery(db: DatabaseSync, options: UnobservedQueryOptions) {
  const gapMs = options.gapMs ?? GAP_MS;
  const select = 'SELECT w.uid, u.start_at, u.end_at, u.gone FROM unobserved u JOIN workloads w ON w.id = u.workload_id WHERE coalesce(u.end_at, ?) >= ? AND u.start_at <= ?';
  const ofWorkload = db.prepare(`${select} AND w.uid = ? ORDER BY u.start_at`);
  const inRange = db.prepare(`${select} ORDER BY u.start_at`);
  const inNamespace = db.prepare(`${select} AND w.namespace = ? ORDER BY u.start_at`);

  /** The rows' gaps within [from, min(to, now)], without what `covered` (the coverage gaps) already says. */
  function gapsOf(rows: readonly Row[], from: number, to: number, covered: readonly CoverageGap[]): WorkloadGap[] {
    const now = options.now();
    const end = Math.min(to, now);
    return rows.flatMap((row) => {
      const stop = row.end_at ?? now;
      if (stop - row.start_at <= gapMs) return [];
      const clipped: CoverageGap = { start: Math.max(row.start_at, from), end: Math.min(stop, end), reason: 'access-withdrawn', ...(row.gone ? { deletedWithin: true } : {}) };
      if (clipped.end <= clipped.start) return [];
      return subtract(clipped, covered).map((gap) => ({ ...gap, uid: row.uid }));
    });
  }

  const rows = (statement: ReturnType<DatabaseSync['prepare']>, from: number, to: number, ...rest: string[]): Row[] => statement.all(options.now(), from, to, ...rest) as unknown as Row[];

  return {
    /** One workload's gaps over [from, to]: the coverage gaps `covered` and its own stretches, merged, oldest first. */
    workload(uid: string, from: number, to: number, covered: readonly CoverageGap[]): CoverageGap[] {
      const own = gapsOf(rows(ofWorkload, from, to, uid), from, to, covered).map(({ uid: _uid, ...gap }) => gap);
      return [...covered, ...own].sort((a, b) => a.start - b.start);
    },
    /** Every workload's own gaps over [from, to] (in one namespace), outside the coverage gaps `covered`. */
    range(from: number, to: number, covered: readonly CoverageGap[], namespace?: string): WorkloadGap[] {
      return gapsOf(namespace === undefined ? rows(inRange, from, to) : rows(inNamespace, from, to, namespace), from, to, covered);
    },
  };
}
