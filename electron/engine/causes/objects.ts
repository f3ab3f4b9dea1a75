/**
 * Reading objects for the cause finder: kind identity by API group and kind (a custom `Job` in
 * another group is not batch/Job), ownership matched by group, kind and uid, links and the
 * small text helpers every cause sentence uses.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { GroupKind } from '../../../shared/kinds.ts';
import type { ObjectLink } from './types.ts';

/**
 * The API group of an apiVersion: `''` for `v1`, `apps` for `apps/v1`. shared/kinds.ts's
 * tryParseApiVersion also validates; this one runs per pod in findCauses, so it only slices.
 */
export function groupOf(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string') return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The built-in kinds the finder knows, by group and kind. */
export const GK = {
  Pod: { group: '', kind: 'Pod' },
  Node: { group: '', kind: 'Node' },
  PersistentVolumeClaim: { group: '', kind: 'PersistentVolumeClaim' },
  Event: { group: '', kind: 'Event' },
  EventsV1: { group: 'events.k8s.io', kind: 'Event' },
  Deployment: { group: 'apps', kind: 'Deployment' },
  ReplicaSet: { group: 'apps', kind: 'ReplicaSet' },
  StatefulSet: { group: 'apps', kind: 'StatefulSet' },
  DaemonSet: { group: 'apps', kind: 'DaemonSet' },
  Job: { group: 'batch', kind: 'Job' },
  CronJob: { group: 'batch', kind: 'CronJob' },
  HorizontalPodAutoscaler: { group: 'autoscaling', kind: 'HorizontalPodAutoscaler' },
} as const;

/** Whether `object` is of this group and kind (its apiVersion's group, never its kind alone). */
export function isKind(object: SlimObject, gk: GroupKind): boolean {
  return object.kind === gk.kind && groupOf(object.apiVersion) === gk.group;
}

/** A core/v1 or events.k8s.io/v1 Event. */
export function isEvent(object: SlimObject): boolean {
  return isKind(object, GK.Event) || isKind(object, GK.EventsV1);
}

interface OwnerReference {
  apiVersion?: unknown;
  kind?: unknown;
  uid?: unknown;
  controller?: unknown;
}

function owners(object: SlimObject): readonly OwnerReference[] {
  const refs = object.metadata.ownerReferences as unknown;
  return Array.isArray(refs) ? (refs as OwnerReference[]) : [];
}

/** Whether `child` names `owner` (whose API group is `group`) in its ownerReferences by group, kind and uid. */
function namesOwner(child: SlimObject, owner: SlimObject, group: string): boolean {
  return owners(child).some((ref) => ref.uid === owner.metadata.uid && ref.kind === owner.kind && groupOf(ref.apiVersion) === group);
}

/**
 * What `owner` owns by group, kind and uid (a uid named under another kind is not it), of kind
 * `only` when given.
 */
export function ownedBy(owner: SlimObject, dependents: readonly SlimObject[], only?: GroupKind): SlimObject[] {
  const group = groupOf(owner.apiVersion);
  const out: SlimObject[] = [];
  for (const child of dependents) if ((!only || isKind(child, only)) && namesOwner(child, owner, group)) out.push(child);
  return out;
}

/** How a cause names an object. */
export function linkOf(object: SlimObject): ObjectLink {
  const { namespace, name, uid } = object.metadata;
  return { apiVersion: object.apiVersion, kind: object.kind, ...(namespace !== undefined ? { namespace } : {}), name, uid };
}

/** A ReplicaSet's Deployment revision (`deployment.kubernetes.io/revision`), or -1 without one. */
function revisionOf(object: SlimObject): number {
  const text = object.metadata.annotations?.['deployment.kubernetes.io/revision'];
  const revision = text === undefined ? Number.NaN : Number(text);
  return Number.isFinite(revision) ? revision : -1;
}

/** metadata.creationTimestamp in ms, 0 when absent or unreadable. */
function createdAt(object: SlimObject): number {
  const ms = object.metadata.creationTimestamp ? Date.parse(object.metadata.creationTimestamp) : Number.NaN;
  return Number.isFinite(ms) ? ms : 0;
}

/** The newest of a Deployment's ReplicaSets: highest revision, then latest creation, then name. */
export function newestReplicaSet(replicaSets: readonly SlimObject[]): SlimObject | undefined {
  let best: SlimObject | undefined;
  for (const rs of replicaSets) {
    if (!best) {
      best = rs;
      continue;
    }
    const order = revisionOf(rs) - revisionOf(best) || createdAt(rs) - createdAt(best) || rs.metadata.name.localeCompare(best.metadata.name);
    if (order > 0) best = rs;
  }
  return best;
}

type Json = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A non-empty string, else undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `object.spec` or `object.status`, read defensively. */
export function section(object: SlimObject, key: 'spec' | 'status'): Json {
  const value = (object as unknown as Json)[key];
  return isRecord(value) ? value : {};
}

/** "1 pod", "3 pods". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** "a, b, c" then "and N more" past `max`. */
export function names(objects: readonly { name: string }[], max = 3): string {
  const shown = objects.slice(0, max).map((object) => object.name);
  return objects.length > max ? `${shown.join(', ')} and ${objects.length - max} more` : shown.join(', ');
}

/** The earliest of some times, ignoring unknown ones (NaN, 0, undefined). */
export function earliest(times: Iterable<number | undefined>): number | undefined {
  let best: number | undefined;
  for (const time of times) if (time !== undefined && Number.isFinite(time) && time > 0 && (best === undefined || time < best)) best = time;
  return best;
}
