/**
 * Backfill's share of Events: each Event the cluster still holds (kube-apiserver keeps them
 * for --event-ttl, 1 h by default) becomes one inferred row on the screen of the workload it is
 * about (the involved object's topmost controller: a pod's BackOff under its Deployment).
 *
 * Times are the Event's own, never when it was listed:
 * - core/v1: firstTimestamp to lastTimestamp; `count` > 1 is a span (an aggregated Event);
 * - events.k8s.io/v1 (kept in core/v1 shape): eventTime, and `series` (count,
 *   lastObservedTime) for an Event seen again;
 * - neither: the Event object's creationTimestamp (when the apiserver stored it); with no time
 *   at all, `at` is null, never "now".
 *
 * A pod's Normal lifecycle Events (POD_LIFECYCLE_REASONS: scheduled, image pulled, container
 * created and started) are left out: every pod start has four, they repeat what its creation and
 * its containers' states say, and on a 5,000-pod cluster they were two thirds of the rows.
 * Warnings, Killing, and the controllers' Events (ScalingReplicaSet, SuccessfulCreate, ...) stay.
 *
 * The id hashes the Event's uid, its reason and its first time: a relist after a reconnect,
 * or a repeat that only bumps `count`, writes the same row (its end and count move forward).
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { factId, timeOf, topController, type InferredRow, type OwnerLookup } from './backfill.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Normal Events of a pod that only retell its start (see the file comment). */
export const POD_LIFECYCLE_REASONS: ReadonlySet<string> = new Set(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);

/** An Event's message is cut to this many characters in a row's detail (one tooltip line). */
export const EVENT_DETAIL_CHARS = 300;

/** Finds the uid of an involved object the Event names without one (older recorders). */
export type ObjectLookup = (kind: string, namespace: string, name: string) => string | undefined;

/** An index of the listed objects by kind, namespace and name, for `ObjectLookup`. */
export function objectLookup(objects: readonly SlimObject[]): ObjectLookup {
  let index: Map<string, string> | undefined;
  return (kind, namespace, name) => {
    // Built on first use: Events nearly always carry the uid.
    if (!index) {
      index = new Map();
      for (const object of objects) index.set(`${object.kind}\u0000${object.metadata.namespace ?? ''}\u0000${object.metadata.name}`, object.metadata.uid);
    }
    return index.get(`${kind}\u0000${namespace}\u0000${name}`);
  };
}

function spanText(first: number, last: number): string {
  const seconds = Math.round((last - first) / 1_000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 6) / 10} h`;
}

/**
 * The inferred row of one Event, or none when it names no object at all or only retells a pod's
 * start. `owners` maps a uid to its controller's (backfill.ts controllerUids; runBackfill adds
 * what the recording kept of objects gone since).
 */
export function eventFact(event: SlimObject, owners: OwnerLookup, lookup: ObjectLookup): InferredRow | undefined {
  const raw = event as SlimObject & Json;
  const involved = isObject(raw['involvedObject']) ? raw['involvedObject'] : {};
  const kind = text(involved['kind']);
  const name = text(involved['name']);
  if (!kind || !name) return undefined;
  const type = text(raw['type']) || 'Normal';
  if (kind === 'Pod' && type === 'Normal' && POD_LIFECYCLE_REASONS.has(text(raw['reason']))) return undefined;
  const namespace = text(involved['namespace']);
  // An object gone since (a pod replaced) whose owner nobody recorded stays on itself.
  const objectUid = text(involved['uid']) || lookup(kind, namespace, name) || `${kind}/${namespace}/${name}`;
  const series = isObject(raw['series']) ? raw['series'] : {};
  const first = timeOf(raw['firstTimestamp']) ?? timeOf(raw['eventTime']) ?? timeOf(event.metadata.creationTimestamp);
  const latest = timeOf(raw['lastTimestamp']) ?? timeOf(series['lastObservedTime']);
  const rawCount = typeof series['count'] === 'number' ? series['count'] : raw['count'];
  const count = typeof rawCount === 'number' && Number.isFinite(rawCount) ? Math.max(1, Math.trunc(rawCount)) : 1;
  // A span only when the Event says it repeated and when it was last seen doing so.
  const end = first !== null && latest !== null && count > 1 && latest > first ? latest : null;
  const reason = text(raw['reason']) || 'an Event';
  const message = text(raw['message']).replace(/\s+/g, ' ').trim();
  const cut = message.length > EVENT_DETAIL_CHARS ? `${message.slice(0, EVENT_DETAIL_CHARS - 1)}…` : message;
  const repeat = count > 1 ? ` (${count} times${end !== null && first !== null ? ` over ${spanText(first, end)}` : ''})` : '';
  return {
    id: factId(event.metadata.uid, 'event', reason, first),
    objectUid,
    workloadUid: topController(objectUid, owners),
    kind,
    namespace,
    name,
    fact: 'event',
    at: first,
    end,
    detail: `${type} ${reason}${cut ? `: ${cut}` : ''}${repeat}${first === null ? '; when is unknown' : ''}`,
  };
}
