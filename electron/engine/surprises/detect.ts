/**
 * The surprise detector: pure over the cache's changes as they arrive (each with the time it was
 * seen), and over the field writes the feature reads from managedFields. It finds
 * - a pod deleted and replaced by its owner's controller (`recreated`, with the delay);
 * - a workload updated without its pod template changing, or while paused (`no-rollout`);
 * - a rollout the controller gave up on (`stalled`: Progressing=False);
 * - one field set back and forth by two managers within a window (`fight`).
 * It keeps only what those need: recent pod deletions by owner, and recent writes per field.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { FieldWrite, Surprise, SurpriseObject } from '../../../shared/contracts/surprises.ts';
import { isLeave, type CacheChange } from '../stream/cache.ts';

/** How long after a pod's deletion a new pod of the same owner counts as its replacement. */
export const RECREATE_WINDOW_MS = 30_000;
/** The window in which two reversals of one field by two managers make a fight. */
export const FIGHT_WINDOW_MS = 5 * 60_000;

/** Who replaces a deleted pod, by the kind of its controlling owner. */
const REPLACER: Readonly<Record<string, string>> = {
  ReplicaSet: 'replicaset-controller',
  StatefulSet: 'statefulset-controller',
  DaemonSet: 'daemonset-controller',
  Job: 'job-controller',
};

/** Workload kinds whose pod template decides whether an update rolls out. */
const ROLLING_KINDS: ReadonlySet<string> = new Set([BUILTIN_KEYS.Deployment, BUILTIN_KEYS.StatefulSet, BUILTIN_KEYS.DaemonSet]);

/** Annotations controllers write on workloads themselves: a change of these is not a user's update. */
const CONTROLLER_ANNOTATIONS = /^(deployment\.kubernetes\.io\/|kubectl\.kubernetes\.io\/last-applied-configuration$)/;

type Json = Record<string, unknown>;
const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

/** Looks an owner up in the cache by its reference (for the workload a pod's surprise belongs to). */
export type Lookup = (ref: { apiVersion: string; kind: string; uid: string }) => { kind: KindKey; object: SlimObject } | undefined;

export function surpriseObject(kind: KindKey, object: SlimObject): SurpriseObject {
  const { name, namespace, uid } = object.metadata;
  return { kind, objectKind: object.kind, ...(namespace !== undefined ? { namespace } : {}), name, uid };
}

const label = (object: SlimObject): string => (object.metadata.namespace ? `${object.metadata.namespace}/${object.metadata.name}` : object.metadata.name);
const controllerOf = (object: SlimObject) => object.metadata.ownerReferences?.find((o) => o.controller === true);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** The workload a pod's surprise is shown on: its ReplicaSet's Deployment, or its owner. */
function workloadOf(ref: { apiVersion: string; kind: string; uid: string }, lookup: Lookup): { kind: KindKey; object: SlimObject } | undefined {
  const owner = lookup(ref);
  if (!owner) return undefined;
  const up = controllerOf(owner.object);
  if (owner.kind === BUILTIN_KEYS.ReplicaSet && up) return lookup(up) ?? owner;
  return owner;
}

function progressing(object: SlimObject): Json | undefined {
  const conditions = record(object['status'])['conditions'];
  return Array.isArray(conditions) ? (conditions as Json[]).find((c) => record(c)['type'] === 'Progressing') : undefined;
}

/** Annotations and labels a user changed (those controllers keep on workloads left out). */
function userMetadataChanged(before: SlimObject, after: SlimObject): string[] {
  const changed: string[] = [];
  const diff = (what: string, a: Record<string, string> = {}, b: Record<string, string> = {}) => {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[key] !== b[key] && !CONTROLLER_ANNOTATIONS.test(key)) changed.push(`${what} ${key}`);
  };
  diff('annotation', before.metadata.annotations, after.metadata.annotations);
  diff('label', before.metadata.labels, after.metadata.labels);
  return changed;
}

/** Spec fields that changed, other than the pod template and replicas (a scale is no update). */
function specChanged(before: SlimObject, after: SlimObject): string[] {
  const a = record(before['spec']);
  const b = record(after['spec']);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => key !== 'template' && key !== 'replicas' && JSON.stringify(a[key]) !== JSON.stringify(b[key])).map((key) => `spec.${key}`);
}

export class SurpriseDetector {
  /** Pods deleted recently, by their controlling owner's uid. */
  private readonly deleted = new Map<string, Array<{ pod: SlimObject; at: number; wanted: number | undefined }>>();
  /** Recent writes of a field, by `uid field`. */
  private readonly writes = new Map<string, FieldWrite[]>();
  private readonly lookup: Lookup;

  constructor(lookup: Lookup) {
    this.lookup = lookup;
  }

  /** How many pods an owner wants (`spec.replicas`; undefined for owners without a count, or unknown ones). */
  private wanted(owner: { apiVersion: string; kind: string; uid: string }): number | undefined {
    const replicas = record(this.lookup(owner)?.object['spec'])['replicas'];
    return typeof replicas === 'number' ? replicas : undefined;
  }

  clear(): void {
    this.deleted.clear();
    this.writes.clear();
  }

  /** One cache change seen at `at`; returns the surprises it completes. */
  observe(change: CacheChange, at: number): Surprise[] {
    if (change.kind === BUILTIN_KEYS.Pod) return this.observePod(change, at);
    if (change.type !== 'upsert' || !change.previous || !ROLLING_KINDS.has(change.kind)) return [];
    return [this.noRollout(change.kind, change.previous, change.object, at), this.stalled(change.kind, change.previous, change.object, at)].filter((s): s is Surprise => s !== undefined);
  }

  private observePod(change: CacheChange, at: number): Surprise[] {
    // A pod that left the view (access withdrawn) was not deleted, and its return is no re-creation.
    if (isLeave(change)) return [];
    const pod = change.object;
    const owner = controllerOf(pod);
    if (!owner) return [];
    const deleting = change.type === 'delete' || (pod.metadata.deletionTimestamp !== undefined && change.previous?.metadata.deletionTimestamp === undefined);
    if (deleting) {
      const list = (this.deleted.get(owner.uid) ?? []).filter((d) => at - d.at < RECREATE_WINDOW_MS && d.pod.metadata.uid !== pod.metadata.uid);
      // A pod first marked for deletion and later gone counts once, from the first sign.
      if (change.type === 'delete' && change.object.metadata.deletionTimestamp !== undefined) return [];
      // A pod its own controller removed (a scale-down: the owner wants fewer) is no surprise;
      // remember how many the owner wanted, to tell a replacement from a later scale-up.
      list.push({ pod, at, wanted: this.wanted(owner) });
      this.deleted.set(owner.uid, list);
      return [];
    }
    if (change.type !== 'upsert' || change.previous) return [];
    const pending = (this.deleted.get(owner.uid) ?? []).filter((d) => at - d.at < RECREATE_WINDOW_MS);
    const replaced = pending.shift();
    if (pending.length > 0) this.deleted.set(owner.uid, pending);
    else this.deleted.delete(owner.uid);
    if (!replaced) return [];
    // The owner wants another count now: the new pod answers a scale, not the deletion.
    if (replaced.wanted !== this.wanted(owner)) return [];
    const actor = REPLACER[owner.kind] ?? `the ${owner.kind} controller`;
    const delayMs = Math.max(0, at - replaced.at);
    const workload = workloadOf(owner, this.lookup);
    const object = surpriseObject(BUILTIN_KEYS.Pod, replaced.pod);
    return [
      {
        id: `recreated:${replaced.pod.metadata.uid}`,
        type: 'recreated',
        at,
        object,
        workload: workload ? surpriseObject(workload.kind, workload.object) : object,
        message: `Pod ${label(replaced.pod)} was deleted and ${actor} replaced it with ${pod.metadata.name} ${seconds(delayMs)} later: ${owner.kind} ${owner.name} keeps its pod count, so a deleted pod comes back.`,
        actor,
        delayMs,
      },
    ];
  }

  private noRollout(kind: KindKey, before: SlimObject, after: SlimObject, at: number): Surprise | undefined {
    const templateSame = JSON.stringify(record(before['spec'])['template']) === JSON.stringify(record(after['spec'])['template']);
    const paused = record(after['spec'])['paused'] === true;
    const object = surpriseObject(kind, after);
    const base = { id: `no-rollout:${after.metadata.uid}:${after.metadata.resourceVersion}`, type: 'no-rollout' as const, at, object, workload: object };
    if (!templateSame && paused) {
      return { ...base, message: `${after.kind} ${label(after)}'s pod template changed, but it is paused: no rollout happens until it is resumed (kubectl rollout resume).` };
    }
    if (!templateSame) return undefined;
    const changed = [...specChanged(before, after), ...userMetadataChanged(before, after)];
    if (changed.length === 0) return undefined;
    const what = changed.length > 3 ? `${changed.slice(0, 3).join(', ')} and ${changed.length - 3} more` : changed.join(', ');
    return { ...base, message: `${after.kind} ${label(after)} was updated (${what}), but its pod template did not change, so no rollout happened; to restart its pods, change the template (kubectl rollout restart).` };
  }

  private stalled(kind: KindKey, before: SlimObject, after: SlimObject, at: number): Surprise | undefined {
    const now = progressing(after);
    if (!now || now['status'] !== 'False') return undefined;
    const was = progressing(before);
    if (was?.['status'] === 'False' && was['reason'] === now['reason']) return undefined;
    const since = Date.parse(String(now['lastTransitionTime'] ?? '')) || at;
    const object = surpriseObject(kind, after);
    const reason = typeof now['reason'] === 'string' ? now['reason'] : 'Progressing=False';
    // The controller's message is a sentence of its own ("… has timed out progressing."): its
    // full stop would double the one that ends this sentence.
    const message = typeof now['message'] === 'string' && now['message'].trim() !== '' ? `: ${now['message'].trim().replace(/\.+$/, '')}` : '';
    return { id: `stalled:${after.metadata.uid}:${since}`, type: 'stalled', at, object, workload: object, since, message: `The rollout of ${after.kind} ${label(after)} stalled (${reason})${message}. The controller reports no progress within its deadline; it stays so until the cause is fixed or the spec changes.` };
  }

  /**
   * A write of `field` read from managedFields after the field changed. Two reversals within
   * FIGHT_WINDOW_MS by two different managers are a fight: returns it (the same id while it goes on).
   */
  recordWrite(kind: KindKey, object: SlimObject, field: string, write: FieldWrite): Surprise | undefined {
    const key = `${object.metadata.uid} ${field}`;
    const list = (this.writes.get(key) ?? []).filter((w) => write.at - w.at < FIGHT_WINDOW_MS);
    const last = list.at(-1);
    if (last && last.value === write.value && last.manager === write.manager) return undefined;
    list.push(write);
    this.writes.set(key, list);
    // A reversal: the value goes back to what it was two writes before, set by another manager.
    let reversals = 0;
    for (let i = 2; i < list.length; i += 1) {
      const [a, b, c] = [list[i - 2], list[i - 1], list[i]] as [FieldWrite, FieldWrite, FieldWrite];
      if (c.value === a.value && b.value !== a.value && c.manager !== b.manager) reversals += 1;
    }
    const managers = [...new Set(list.map((w) => w.manager))];
    if (reversals < 2 || managers.length < 2) return undefined;
    const first = list.find((w) => w.manager !== write.manager) as FieldWrite;
    const target = surpriseObject(kind, object);
    const who = (w: FieldWrite) => `${w.manager}${w.subresource ? ` (through /${w.subresource})` : ''}`;
    return {
      id: `fight:${object.metadata.uid}:${field}:${list[0]?.at ?? write.at}`,
      type: 'fight',
      at: write.at,
      object: target,
      workload: target,
      field,
      writes: list.slice(-8),
      message: `${field} of ${object.kind} ${label(object)} is fought over: ${who(first)} sets it to ${first.value}, ${who(write)} sets it back to ${write.value} (${reversals} reversals in ${seconds(write.at - (list[0]?.at ?? write.at))}). Two controllers own the same field; let one of them own it.`,
    };
  }
}
