/**
 * "Who acted": the Events of a workload, everything it owns (remembered past deletion) and the
 * HPAs that scale it, during a window, oldest first. For a Deployment's rollout that reads as
 * the loop made visible: deployment-controller ScalingReplicaSet, replicaset-controller
 * SuccessfulCreate, default-scheduler Scheduled, kubelet Pulling/Pulled/Created/Started, then
 * Killing of the old Pods.
 */
import type { Action, ActionsResult, Reconcile } from '../../../shared/contracts/events.ts';
import type { MergedEvent } from './event-store.ts';
import type { Lineage } from './lineage.ts';
import { workloadKey } from './lineage.ts';
import { toEventRow } from './list.ts';

export const DEFAULT_ACTIONS_LIMIT = 400;

/**
 * When an Event acted within the window: its first occurrence if that is inside, else its last
 * (a series that started earlier), else the window's start (a series spanning all of it).
 */
function actedAt(event: MergedEvent, from: number, to: number): number {
  if (event.first >= from && event.first <= to) return event.first;
  if (event.last >= from && event.last <= to) return event.last;
  return from;
}

export function actionsOf(
  events: Iterable<MergedEvent>,
  lineage: Lineage,
  query: { uid: string; from: number; to: number; limit?: number | undefined },
  reconciles: Reconcile[],
): ActionsResult {
  const family = lineage.family(query.uid);
  const byKey = new Map<string, number>();
  for (const { workload, depth } of family.values()) byKey.set(workloadKey(workload), depth);
  const actions: Action[] = [];
  for (const event of events) {
    if (event.last < query.from || event.first > query.to) continue;
    const r = event.record;
    const depth = r.objectUid !== undefined && family.has(r.objectUid) ? family.get(r.objectUid)?.depth : byKey.get(workloadKey(r));
    if (depth === undefined) continue;
    const row = toEventRow(event);
    actions.push({ at: actedAt(event, query.from, query.to), id: row.id, controller: row.controller, type: row.type, reason: row.reason, message: row.message, object: row.object, depth, count: row.count });
  }
  // Causal order: time, then the owner before what it owns (a Deployment's scaling before the Pod it caused).
  actions.sort((a, b) => a.at - b.at || a.depth - b.depth || a.id.localeCompare(b.id));
  const limit = query.limit ?? DEFAULT_ACTIONS_LIMIT;
  return {
    workload: lineage.describe(query.uid) ?? null,
    from: query.from,
    to: query.to,
    actions: actions.slice(0, limit),
    truncated: actions.length > limit,
    reconciles: reconciles.filter((r) => r.start >= query.from && r.start <= query.to).sort((a, b) => a.start - b.start),
  };
}
