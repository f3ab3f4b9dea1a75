/**
 * Rows of the episodes and events tables as contract objects, and the Event lookup that every
 * view of a workload shares: the Events of the workload and of its children (ReplicaSets, Pods,
 * Jobs it owns, and their pods), found through the recorded ownership even after those children
 * are gone.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { Episode, HistoryEvent, WorkloadRef } from '../../../shared/contracts/history.ts';
import { OBJECT_STATES, type ObjectState } from '../../../shared/contracts/status-rules.ts';
import { decodeCauses } from './episode-causes.ts';
import { reasonsOf } from './reason-bits.ts';

/**
 * An episode row as an array (node:sqlite's `setReturnArrays`): lists of 20,000 episodes cost a
 * third less to read than as objects, and the workload is a shared reference, not four strings
 * per row. The state columns (v5) come next to last and are null for built-in workloads; the
 * causes (v7, JSON: episode-causes.ts) last.
 */
export type EpisodeRow = [
  id: number,
  start: number,
  end: number | null,
  peakGap: number,
  reasons: number,
  triggerGeneration: number | null,
  triggerImage: string | null,
  workloadId: number,
  state: string | null,
  stateReason: string | null,
  stateMessage: string | null,
  causes: string | null,
];

/** The columns an EpisodeRow is selected with (episodes as `e`). */
export const EPISODE_COLUMNS = 'e.id, e.start_at, e.end_at, e.peak_gap, e.reasons, e.trigger_generation, e.trigger_image, e.workload_id, e.state, e.state_reason, e.state_message, e.causes';

/** The state columns of an episode row read as objects. */
export interface StateColumns {
  state: string | null;
  state_reason: string | null;
  state_message: string | null;
}

const isState = (value: string): value is ObjectState => (OBJECT_STATES as readonly string[]).includes(value);

/** A custom resource's episode status from its columns (undefined for a built-in workload's). */
export function episodeStatusOf(state: string | null, reason: string | null, message: string | null): Episode['status'] {
  if (state === null || !isState(state)) return undefined;
  return { state, reason: reason ?? '', ...(message ? { message } : {}) };
}

/** A workload as episodes name it, and the Deployment that runs it (ReplicaSets only). */
export interface EpisodeWorkload {
  ref: WorkloadRef;
  controller?: WorkloadRef;
}

/** A workloads row as a query selects it (`kind_name` since v5). */
export type RefRow = { uid: string; kind: string; namespace: string; name: string; kind_name: string | null };

/** The WorkloadRef of a workloads row; the kind name only where the row has one (custom resources). */
export function refOf(row: RefRow): WorkloadRef {
  const ref: WorkloadRef = { kind: row.kind, namespace: row.namespace, name: row.name, uid: row.uid };
  if (row.kind_name) ref.kindName = row.kind_name;
  return ref;
}

/**
 * Workloads by row id, read once per workload and shared by its episodes. A ReplicaSet's
 * controller comes from the recorded ownership, so it is known after the Deployment is gone.
 * Ownership rows are written after a session's first keyframe (session.ts), so a ReplicaSet
 * without one yet is asked again next time rather than remembered as nobody's.
 */
export function createWorkloadRefs(db: DatabaseSync): (id: number) => EpisodeWorkload | undefined {
  const byId = db.prepare('SELECT uid, kind, namespace, name, kind_name FROM workloads WHERE id = ?');
  const controllerOf = db.prepare(
    `SELECT d.uid, d.kind, d.namespace, d.name, d.kind_name FROM owners o JOIN workloads d ON d.uid = o.owner_uid WHERE o.child_uid = ? AND d.kind = '${BUILTIN_KEYS.Deployment}'`,
  );
  const cache = new Map<number, EpisodeWorkload>();
  return (id) => {
    let entry = cache.get(id);
    if (!entry) {
      const row = byId.get(id) as RefRow | undefined;
      if (!row) return undefined;
      entry = { ref: refOf(row) };
      cache.set(id, entry);
    }
    if (entry.ref.kind === BUILTIN_KEYS.ReplicaSet && !entry.controller) {
      const controller = controllerOf.get(entry.ref.uid) as RefRow | undefined;
      if (controller) entry.controller = refOf(controller);
    }
    return entry;
  };
}

/** Prepares a statement that answers EpisodeRows. */
export function prepareEpisodes(db: DatabaseSync, sql: string): StatementSync {
  const statement = db.prepare(sql);
  statement.setReturnArrays(true);
  return statement;
}

export function toEpisode(row: EpisodeRow, workload: WorkloadRef, now: number, controller?: WorkloadRef): Episode {
  const [id, start, end, peakGap, reasons, generation, image, , state, stateReason, stateMessage, causesColumn] = row;
  const status = episodeStatusOf(state, stateReason, stateMessage);
  const causes = decodeCauses(causesColumn);
  return {
    id,
    workload,
    ...(controller ? { controller } : {}),
    start,
    end,
    durationMs: Math.max(0, (end ?? now) - start),
    peakGap,
    reasons: reasonsOf(reasons),
    trigger: generation === null ? null : { generation, ...(image ? { image } : {}) },
    ...(status ? { status } : {}),
    ...(causes ? { causes } : {}),
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
