/**
 * Rows of the episodes and events tables as contract objects, and the Event lookup that every
 * view of a workload shares: the Events of the workload and of its children (ReplicaSets, Pods,
 * Jobs it owns, and their pods), found through the recorded ownership even after those children
 * are gone.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Episode, HistoryEvent, HistoryKind } from '../../../shared/contracts/history.ts';
import { reasonsOf } from './records.ts';

export interface EpisodeRow {
  id: number;
  start_at: number;
  end_at: number | null;
  peak_gap: number;
  reasons: number;
  trigger_generation: number | null;
  trigger_image: string | null;
  uid: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The columns an EpisodeRow is selected with (episodes `e` joined with workloads `w`). */
export const EPISODE_COLUMNS = 'e.id, e.start_at, e.end_at, e.peak_gap, e.reasons, e.trigger_generation, e.trigger_image, w.uid, w.kind, w.namespace, w.name';

export function toEpisode(row: EpisodeRow, now: number): Episode {
  return {
    id: row.id,
    workload: { kind: row.kind as HistoryKind, namespace: row.namespace, name: row.name, uid: row.uid },
    start: row.start_at,
    end: row.end_at,
    durationMs: Math.max(0, (row.end_at ?? now) - row.start_at),
    peakGap: row.peak_gap,
    reasons: reasonsOf(row.reasons),
    trigger: row.trigger_generation === null ? null : { generation: row.trigger_generation, ...(row.trigger_image ? { image: row.trigger_image } : {}) },
  };
}

interface EventRow {
  uid: string;
  last_at: number;
  type: string;
  reason: string;
  message: string;
  count: number;
  source: string;
  object_kind: string;
  object_namespace: string | null;
  object_name: string;
}

function toEvent(row: EventRow): HistoryEvent {
  return {
    uid: row.uid,
    at: row.last_at,
    type: row.type,
    reason: row.reason,
    message: row.message,
    count: row.count,
    source: row.source,
    object: { kind: row.object_kind, ...(row.object_namespace ? { namespace: row.object_namespace } : {}), name: row.object_name },
  };
}

/** Children two levels down: Deployment -> ReplicaSet -> Pod, CronJob-less Job -> Pod. */
const TREE = `WITH RECURSIVE tree(uid, depth) AS (
  SELECT ?, 0
  UNION
  SELECT o.child_uid, t.depth + 1 FROM owners o JOIN tree t ON o.owner_uid = t.uid WHERE t.depth < 2
)`;

export interface WorkloadEvents {
  /** Events of the workload and its children between `from` and `to`, Warnings first, then by time. */
  all(uid: string, from: number, to: number, limit: number): HistoryEvent[];
  /** Only the Warnings, by time. */
  warnings(uid: string, from: number, to: number, limit: number): HistoryEvent[];
}

export function createWorkloadEvents(db: DatabaseSync): WorkloadEvents {
  const select = `${TREE} SELECT e.uid, e.last_at, e.type, e.reason, e.message, e.count, e.source, e.object_kind, e.object_namespace, e.object_name
    FROM tree JOIN events e ON e.object_uid = tree.uid WHERE e.last_at >= ? AND e.first_at <= ?`;
  const all = db.prepare(`${select} ORDER BY (e.type = 'Warning') DESC, e.last_at LIMIT ?`);
  const warnings = db.prepare(`${select} AND e.type = 'Warning' ORDER BY e.last_at LIMIT ?`);
  return {
    all: (uid, from, to, limit) => (all.all(uid, from, to, limit) as unknown as EventRow[]).map(toEvent),
    warnings: (uid, from, to, limit) => (warnings.all(uid, from, to, limit) as unknown as EventRow[]).map(toEvent),
  };
}
