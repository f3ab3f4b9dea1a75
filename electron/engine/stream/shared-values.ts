/**
 * Repeated values of cached pods, kept once. Pods are nearly all of a large cluster's cache, and
 * each arrives from its own JSON text (a list page re-parsed on this thread, or a watch line), so
 * V8 gives every pod its own copy of every string but the shortest and of every object: the
 * image, the owner's kind, name and uid, the node, the condition types and times, the labels,
 * the ports and resources every replica of a Deployment repeats. At 50,000 pods those copies
 * were about a third of the engine's heap per pod.
 *
 * `sharePod` replaces them, in place and before the cache stores the pod, with equal values:
 * - strings from a pool, by value; those unique to one pod (name, uid, resourceVersion, pod IPs)
 *   are left out, as they would only grow the pool;
 * - the parts a pod takes from its template (labels, owner references, a container's resources,
 *   ports, env references and probes, the volumes' references) from the pod last seen with the
 *   same owner, when equal: the replicas of a ReplicaSet, Job or StatefulSet repeat them.
 * Equal means equal as JSON, so the pod's JSON is unchanged, and with it what the history stores
 * and the renderer receives. Shared parts are frozen: a write to one would change every pod that
 * holds it (cached objects are never written). Both pools start over at a cap, so they never
 * hold more than that many values of pods long gone; what the cache holds stays shared.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { jsonEqual } from '../../../shared/json-equal.ts';

type Json = Record<string, unknown>;

/** Strings a pool keeps before it starts over (at most a few MB of strings no pod holds any more). */
export const MAX_POOLED_STRINGS = 100_000;
/**
 * Owners whose template parts a pool keeps before it starts over. Only owners with pods count
 * (a 150,000-pod cluster has a few thousand), but each finished Job is one more: the cap bounds
 * what the parts of owners long gone keep (a few hundred bytes each).
 */
export const MAX_POOLED_OWNERS = 10_000;
/** Longer strings (a termination message) are rarely repeated and would keep the pool large. */
export const MAX_POOLED_STRING_CHARS = 256;
/**
 * V8's JSON.parse gives shorter strings ("True", "Running", "TCP") one shared copy already:
 * looking them up would cost time and save nothing.
 */
export const MIN_POOLED_STRING_CHARS = 10;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Equal strings kept once, and each owner's last template parts (see the file's comment). */
export class ValuePool {
  private strings = new Map<string, string>();
  private templates = new Map<string, Map<string, unknown>>();
  private readonly maxStrings: number;
  private readonly maxOwners: number;

  constructor(options: { maxStrings?: number; maxOwners?: number } = {}) {
    this.maxStrings = options.maxStrings ?? MAX_POOLED_STRINGS;
    this.maxOwners = options.maxOwners ?? MAX_POOLED_OWNERS;
  }

  /** The pooled string equal to `value`; anything else (or a very short or long string), as it is. */
  string<T>(value: T): T {
    if (typeof value !== 'string' || value.length < MIN_POOLED_STRING_CHARS || value.length > MAX_POOLED_STRING_CHARS) return value;
    const pooled = this.strings.get(value);
    if (pooled !== undefined) return pooled as T;
    if (this.strings.size >= this.maxStrings) this.strings = new Map();
    this.strings.set(value, value);
    return value;
  }

  /**
   * The part `slot` of `owner`'s pods: the one kept from its last pod when equal to `value`,
   * else `value` (its strings pooled, frozen), kept for the next. Anything but an object or
   * array, as it is.
   */
  part<T>(owner: string, slot: string, value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    let parts = this.templates.get(owner);
    if (!parts) {
      if (this.templates.size >= this.maxOwners) this.templates = new Map();
      parts = new Map();
      this.templates.set(owner, parts);
    }
    const kept = parts.get(slot);
    if (kept !== undefined && jsonEqual(kept, value)) return kept as T;
    // A part kept before (a pod written again with what it was given) is pooled and frozen already.
    if (!Object.isFrozen(value)) {
      this.poolStrings(value);
      deepFreeze(value);
    }
    parts.set(slot, value);
    return value;
  }

  /** How many strings and owners' templates the pool holds. */
  size(): { strings: number; owners: number } {
    return { strings: this.strings.size, owners: this.templates.size };
  }

  /** Forgets every pooled value (a context switch: the cache starts over). */
  clear(): void {
    this.strings = new Map();
    this.templates = new Map();
  }

  /** Pools the strings of a JSON tree, in place (values only: V8 shares keys already); a frozen tree is left as it is. */
  poolStrings(value: unknown): void {
    if (Object.isFrozen(value)) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        const item: unknown = value[i];
        if (typeof item === 'string') value[i] = this.string(item);
        else if (typeof item === 'object' && item !== null) this.poolStrings(item);
      }
    } else if (isObject(value)) {
      for (const key in value) {
        const item = value[key];
        if (typeof item === 'string') value[key] = this.string(item);
        else if (typeof item === 'object' && item !== null) this.poolStrings(item);
      }
    }
  }
}

function shareStrings(pool: ValuePool, object: Json, fields: readonly string[]): void {
  for (const field of fields) {
    const value = object[field];
    if (typeof value === 'string') object[field] = pool.string(value);
  }
}

/** `object[fields[i]]` shared as the part `slots[i]` of `owner`'s pods. */
function shareParts(pool: ValuePool, owner: string, slots: readonly string[], object: Json, fields: readonly string[]): void {
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    const value = object[field];
    if (typeof value === 'object' && value !== null) object[field] = pool.part(owner, slots[i] as string, value);
  }
}

const METADATA_STRINGS = ['namespace', 'creationTimestamp', 'deletionTimestamp'];
const METADATA_PARTS = ['ownerReferences', 'labels'];
const SPEC_STRINGS = ['nodeName', 'serviceAccountName', 'priorityClassName'];
const SPEC_PARTS = ['nodeSelector', 'affinity', 'volumes', 'imagePullSecrets'];
const CONTAINER_STRINGS = ['name', 'image'];
const CONTAINER_PARTS = ['resources', 'ports', 'env', 'envFrom', 'readinessProbe'];
/** Of a pod's status, all but its IPs (one per pod) and the lists (below). */
const STATUS_STRINGS = ['reason', 'message', 'hostIP', 'startTime', 'nominatedNodeName'];
const CONDITION_STRINGS = ['type', 'reason', 'message', 'lastTransitionTime'];
const CONTAINER_STATUS_STRINGS = ['name', 'image'];

/** The uid of the pod's controller (else first) owner: its pods share a template. */
function ownerOf(metadata: Json): string | undefined {
  const refs = metadata['ownerReferences'];
  if (!Array.isArray(refs) || refs.length === 0) return undefined;
  const ref: unknown = refs.find((r) => isObject(r) && r['controller'] === true) ?? refs[0];
  return isObject(ref) && typeof ref['uid'] === 'string' ? ref['uid'] : undefined;
}

/** Containers past this many share strings only (their parts' slot names are made once, here). */
const MAX_SHARED_CONTAINERS = 16;
const slotNames = (list: string): string[][] => Array.from({ length: MAX_SHARED_CONTAINERS }, (_, i) => CONTAINER_PARTS.map((field) => `${list}.${i}.${field}`));
const CONTAINER_SLOTS = slotNames('containers');
const INIT_CONTAINER_SLOTS = slotNames('initContainers');
const SPEC_SLOTS = SPEC_PARTS.map((field) => `spec.${field}`);

function shareContainers(pool: ValuePool, owner: string | undefined, slots: readonly string[][], containers: unknown): void {
  if (!Array.isArray(containers)) return;
  for (let i = 0; i < containers.length; i += 1) {
    const container: unknown = containers[i];
    if (!isObject(container)) continue;
    shareStrings(pool, container, CONTAINER_STRINGS);
    const names = slots[i];
    if (owner && names) shareParts(pool, owner, names, container, CONTAINER_PARTS);
  }
}

function shareEach(pool: ValuePool, list: unknown, fields: readonly string[]): void {
  if (!Array.isArray(list)) return;
  for (const item of list) if (isObject(item)) shareStrings(pool, item, fields);
}

function shareContainerStatuses(pool: ValuePool, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    if (!isObject(item)) continue;
    shareStrings(pool, item, CONTAINER_STATUS_STRINGS);
    pool.poolStrings(item['state']);
    pool.poolStrings(item['lastState']);
  }
}

/**
 * A slim pod's repeated values replaced, in place, by shared equal ones (the file's comment).
 * Conditions and container statuses keep objects of their own (their times differ from pod to
 * pod); their strings are pooled.
 */
export function sharePod(pod: SlimObject, pool: ValuePool): void {
  const metadata = pod.metadata as unknown as Json;
  if (!isObject(metadata)) return;
  const owner = ownerOf(metadata);
  shareStrings(pool, metadata, METADATA_STRINGS);
  if (owner) shareParts(pool, owner, METADATA_PARTS, metadata, METADATA_PARTS);
  const { spec, status } = pod as { spec?: unknown; status?: unknown };
  if (isObject(spec)) {
    shareStrings(pool, spec, SPEC_STRINGS);
    if (owner) shareParts(pool, owner, SPEC_SLOTS, spec, SPEC_PARTS);
    shareContainers(pool, owner, CONTAINER_SLOTS, spec['containers']);
    shareContainers(pool, owner, INIT_CONTAINER_SLOTS, spec['initContainers']);
  }
  if (isObject(status)) {
    shareStrings(pool, status, STATUS_STRINGS);
    shareEach(pool, status['conditions'], CONDITION_STRINGS);
    shareContainerStatuses(pool, status['containerStatuses']);
    shareContainerStatuses(pool, status['initContainerStatuses']);
  }
}
