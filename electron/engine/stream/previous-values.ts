/**
 * A pod's new version takes over, from the cached version it replaces, the values that have not
 * changed. Most watch events of a large cluster are pods changing a few fields (a readiness
 * flip, an annotation, a restart count), and each arrives as a fresh parse: without this, every
 * unchanged spec, condition and string of the new version is a copy that lives as long as the
 * cache holds the pod, while the previous version's copies become garbage. Those copies outlive
 * the young generation before they die, which is what the engine thread's garbage collection
 * per event was mostly about, and the string pool and the template parts (shared-values.ts)
 * hashed and compared each of them again.
 *
 * A value equal to the previous one (as JSON, as the shared template parts compare: an API
 * server writes a kind's fields in one order and map keys sorted) is replaced by the previous
 * one, frozen: both versions hold it now, and cached objects are never written. So the new
 * version's JSON is what it was, only its memory is shared, and `sharePod` skips what is frozen.
 * Values are compared where a pod's changes fall: the spec whole (it rarely changes), the
 * status field by field and its conditions and container statuses one by one, the metadata's
 * maps and identity strings. A frozen value of the new version (shared already) stays as it is.
 */
import { jsonEqual } from '../../../shared/json-equal.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Freezes a value and everything under it (stops at what is frozen already: shared before). */
export function freezeTree(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) freezeTree(item);
  } else {
    for (const key in value) freezeTree((value as Json)[key]);
  }
}

/** `previous` (frozen) when equal to `next` as JSON, else `next`. */
function same<T>(previous: unknown, next: T): T {
  if (previous === undefined || previous === next || !jsonEqual(previous, next)) return next;
  freezeTree(previous);
  return previous as T;
}

/** Each of `fields` of `next` that equals `previous`'s, taken from `previous` (strings: the one copy). */
function takeEqual(next: Json, previous: Json, fields: readonly string[]): void {
  for (const field of fields) {
    const value = next[field];
    if (value === undefined) continue;
    const before = previous[field];
    if (typeof value === 'string') {
      if (value === before) next[field] = before;
    } else {
      const taken = same(before, value);
      if (taken !== value) next[field] = taken;
    }
  }
}

/** A list whose items are taken one by one: the previous list itself when every item is. */
function sameList(previous: unknown, next: unknown): unknown {
  if (!Array.isArray(next) || !Array.isArray(previous) || Object.isFrozen(next)) return next;
  let all = previous.length === next.length;
  for (let i = 0; i < next.length; i += 1) {
    const value: unknown = next[i];
    const taken = i < previous.length ? same(previous[i], value) : value;
    if (taken !== value) next[i] = taken;
    all = all && taken === previous[i];
  }
  if (!all) return next;
  freezeTree(previous);
  return previous;
}

const METADATA_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'labels', 'annotations', 'ownerReferences', 'finalizers'];
const STATUS_FIELDS = ['phase', 'reason', 'message', 'hostIP', 'podIP', 'startTime', 'qosClass', 'nominatedNodeName', 'hostIPs', 'podIPs'];
const STATUS_LISTS = ['conditions', 'containerStatuses', 'initContainerStatuses'];

/**
 * Gives a pod's new version, in place, the values it shares with the version it replaces (the
 * file's comment). `next` must be an object nobody else holds yet.
 */
export function adoptPrevious(next: object, previous: object): void {
  const pod = next as Json;
  const before = previous as Json;
  if (Object.isFrozen(pod)) return;
  const metadata = pod['metadata'];
  const metadataBefore = before['metadata'];
  if (isObject(metadata) && isObject(metadataBefore) && !Object.isFrozen(metadata)) takeEqual(metadata, metadataBefore, METADATA_FIELDS);
  const spec = pod['spec'];
  if (spec !== undefined) {
    const taken = same(before['spec'], spec);
    if (taken !== spec) pod['spec'] = taken;
  }
  const status = pod['status'];
  const statusBefore = before['status'];
  if (!isObject(status) || !isObject(statusBefore) || Object.isFrozen(status)) return;
  takeEqual(status, statusBefore, STATUS_FIELDS);
  let all = true;
  for (const field of STATUS_LISTS) {
    const list = status[field];
    if (list === undefined) continue;
    const taken = sameList(statusBefore[field], list);
    if (taken !== list) status[field] = taken;
    else all = false;
  }
  // A status that did not change at all (a label or annotation did): the previous one whole.
  if (all && jsonEqual(status, statusBefore)) {
    freezeTree(statusBefore);
    pod['status'] = statusBefore;
  }
}
