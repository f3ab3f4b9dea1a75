/**
 * managedFields bookkeeping for ordinary writes (create, update, and non-apply patches), as
 * kube-apiserver's field manager does it for `kubectl-client-side-apply`, `kubectl-edit`,
 * `kube-controller-manager` and friends.
 */
import type { KubeObject } from '../types.ts';
import { FieldSet } from './fieldpath.ts';
import { clone, isObject, omit, type JsonObject } from './json.ts';
import {
  decodeManagedFields,
  encodeManagedFields,
  fieldSetOf,
  formatTime,
  isResetManagedFields,
  managerIdentity,
  stripServerOwned,
  type ManagerEntry,
} from './managed-fields.ts';
import type { PatchMeta } from './patch-meta.ts';
import { compareObjects } from './typed-walk.ts';

export interface RecordUpdateArgs {
  /** The stored object before the write; `undefined` for a create. */
  before: KubeObject | undefined;
  /** The object about to be stored, after defaulting (defaulted fields belong to the writer, as in Kubernetes). */
  after: KubeObject;
  /** The `fieldManager` query parameter, or the user agent's name before the first `/`. */
  manager: string;
  operation: 'Update';
  /** `status` or `scale` for writes through a subresource. */
  subresource?: string;
  now: number;
  meta: PatchMeta;
  /**
   * Fields this endpoint resets and so never records (the strategy's reset fields), as field
   * names from the root: `[['status']]` for the main resource of a kind with a status
   * subresource, `[['spec'], ['metadata', 'labels'], ...]` for `/status`.
   */
  resetFields?: ReadonlyArray<readonly string[]>;
}

/** The object's own content, without its managedFields. */
export function withoutManagedFields(object: KubeObject): JsonObject {
  const metadata = isObject(object.metadata) ? omit(object.metadata, 'managedFields') : object.metadata;
  return { ...object, metadata };
}

/** `object` with `managers` encoded into `metadata.managedFields` (left out when nobody owns anything). */
export function withManagedFields(object: JsonObject, managers: Map<string, ManagerEntry>): KubeObject {
  const encoded = encodeManagedFields(managers.values());
  const metadata = isObject(object.metadata) ? omit(object.metadata, 'managedFields') : {};
  return { ...object, metadata: encoded.length > 0 ? { ...metadata, managedFields: encoded } : metadata } as KubeObject;
}

/**
 * Where the managers come from: a write may set managedFields itself (kept if it decodes and
 * is not empty; `[{}]` wipes them), except through a subresource, which always keeps the
 * stored ones.
 */
function startingManagers(before: KubeObject | undefined, after: KubeObject, subresource: string | undefined): Map<string, ManagerEntry> {
  const stored = () => decodeManagedFields(before?.metadata.managedFields) ?? new Map<string, ManagerEntry>();
  const requested = after.metadata.managedFields;
  if (subresource) return stored();
  if (isResetManagedFields(requested)) return new Map();
  const decoded = decodeManagedFields(requested);
  return decoded && decoded.size > 0 ? decoded : stored();
}

/**
 * Records an ordinary write in `after.metadata.managedFields` and returns the new object: the
 * writer gains every field whose value it added or changed (its entry's time becomes `now`),
 * and every manager loses the fields that were changed or removed. A write that changes nothing
 * ownable leaves the entries (and their times) alone. Inputs are not mutated.
 */
export function recordUpdate(args: RecordUpdateArgs): KubeObject {
  const { before, after, manager, subresource, now, meta } = args;
  const managers = startingManagers(before, after, subresource);
  const reset = fieldSetOf(args.resetFields ?? []);
  const comparison = compareObjects(before && withoutManagedFields(before), withoutManagedFields(after), meta, { fromZero: !before });
  const changed = comparison.added.union(comparison.modified).recursiveDifference(reset);
  const removed = comparison.removed.recursiveDifference(reset);
  for (const [identity, entry] of managers) {
    managers.set(identity, { ...entry, set: stripServerOwned(entry.set.difference(changed).difference(removed)) });
  }
  const gained = stripServerOwned(changed);
  if (!gained.isEmpty()) {
    const writer = { manager, operation: 'Update' as const, apiVersion: after.apiVersion, ...(subresource ? { subresource } : {}) };
    const identity = managerIdentity(writer);
    const previous = managers.get(identity)?.set ?? new FieldSet();
    managers.set(identity, { ...writer, time: formatTime(now), set: previous.union(gained) });
  }
  return withManagedFields(clone(withoutManagedFields(after)), managers);
}
