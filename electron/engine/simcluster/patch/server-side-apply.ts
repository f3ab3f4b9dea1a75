/**
 * Server-side apply (`Content-Type: application/apply-patch+yaml`), after kube-apiserver's
 * field manager and structured-merge-diff: merge the applied configuration into the live
 * object, prune what the applier applied before and dropped now (unless someone else owns
 * it), refuse to change fields other managers own unless forced, and record ownership in
 * `metadata.managedFields` (FieldsV1).
 */
import { ApiError, badRequest } from '../errors.ts';
import type { KubeObject } from '../types.ts';
import { mergeApplied, removeItems } from './apply-merge.ts';
import { pathToString, type FieldPath, type FieldSet } from './fieldpath.ts';
import { clone, deepEqual, isObject, type JsonObject } from './json.ts';
import {
  decodeManagedFields,
  describeManager,
  fieldSetOf,
  formatTime,
  managerIdentity,
  stripServerOwned,
  type ManagerEntry,
} from './managed-fields.ts';
import type { PatchMeta } from './patch-meta.ts';
import { withManagedFields, withoutManagedFields } from './record-update.ts';
import { compareObjects, ensureNamedFieldsAreMembers, toFieldSet } from './typed-walk.ts';

export { recordUpdate, type RecordUpdateArgs } from './record-update.ts';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export interface ServerSideApplyArgs {
  /** The stored object, or `undefined` when the apply creates it. */
  live: KubeObject | undefined;
  /** The applied configuration as parsed from the request body. */
  applied: Record<string, unknown>;
  /** The `fieldManager` query parameter (required for apply). */
  manager: string;
  force: boolean;
  now: number;
  meta: PatchMeta;
  /** The group/version of the request path (`apps/v1`); the applied object must match it. */
  apiVersion: string;
  /** The kind served at the request path; defaults to the live object's kind. */
  kind?: string;
  /** `status` when applying through the /status subresource. */
  subresource?: string;
  /** Fields this endpoint resets and so never records, e.g. `[['status']]` (see RecordUpdateArgs). */
  resetFields?: ReadonlyArray<readonly string[]>;
}

function groupVersionKind(apiVersion: unknown, kind: unknown): string {
  const version = typeof apiVersion === 'string' ? apiVersion : '';
  return `${version.includes('/') ? version : `/${version}`}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/** Nulls in an applied configuration set nothing: the field is left to pruning and other managers. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([key, item]) => (item === null ? [] : [[key, withoutNulls(item)]])));
}

function checkApplied(args: ServerSideApplyArgs): void {
  const { applied, apiVersion } = args;
  const kind = args.kind ?? args.live?.kind;
  if (applied.apiVersion !== apiVersion || (kind === undefined ? typeof applied.kind !== 'string' || applied.kind === '' : applied.kind !== kind)) {
    throw badRequest(`invalid object type: ${groupVersionKind(applied.apiVersion, applied.kind)}`);
  }
  if (isObject(applied.metadata) && applied.metadata.managedFields !== undefined && applied.metadata.managedFields !== null) {
    throw badRequest('metadata.managedFields must be nil');
  }
}

function typedPatchError(applied: JsonObject, errors: string[]): ApiError {
  const metadata = isObject(applied.metadata) ? applied.metadata : {};
  const where = `${String(metadata.namespace ?? '')}/${String(metadata.name ?? '')}; ${groupVersionKind(applied.apiVersion, applied.kind)}`;
  const detail = errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => `  ${e}`)].join('\n');
  return new ApiError(500, '', `failed to create typed patch object (${where}): ${detail}`);
}

interface Conflict {
  readonly entry: ManagerEntry;
  readonly path: FieldPath;
}

/** kube-apiserver's apply conflict: 409 Conflict, one FieldManagerConflict cause per field. */
function conflictError(conflicts: readonly Conflict[]): ApiError {
  const causes = conflicts.map(({ entry, path }) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(entry)}`, field: pathToString(path) }));
  const [first] = conflicts;
  let message: string;
  if (conflicts.length === 1 && first) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(first.entry)}: ${pathToString(first.path)}`;
  } else {
    const lines: string[] = [];
    let previous: ManagerEntry | undefined;
    for (const { entry, path } of conflicts) {
      if (entry !== previous) lines.push(`conflicts with ${describeManager(entry)}:`);
      lines.push(`- ${pathToString(path)}`);
      previous = entry;
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError(409, 'Conflict', message, { causes });
}

function lastAppliedOf(live: JsonObject): string | undefined {
  const annotations = isObject(live.metadata) && isObject(live.metadata.annotations) ? live.metadata.annotations : {};
  const raw = annotations[LAST_APPLIED];
  return typeof raw === 'string' && raw !== '' ? raw : undefined;
}

/**
 * The fields `kubectl` may take over from a client-side apply without a conflict: those in the
 * last-applied-configuration annotation whose live values still match it (kube-apiserver's
 * lastAppliedManager, which upgrades client-side apply to server-side apply).
 */
function upgradableFromLastApplied(live: JsonObject, meta: PatchMeta, apiVersion: string): FieldSet | undefined {
  const raw = lastAppliedOf(live);
  if (raw === undefined) return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
  const differences = compareObjects(lastApplied, live, meta);
  return toFieldSet(lastApplied, meta).difference(differences.modified).difference(differences.added).difference(differences.removed);
}

/** Go's json encoding of an unstructured object: map keys sorted, plus the encoder's newline. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])])) : v;
  return `${JSON.stringify(sort(value))}\n`;
}

/** kubectl's server-side apply keeps an existing last-applied annotation in step with what it applied. */
function syncLastApplied(merged: JsonObject, applied: JsonObject): JsonObject {
  const metadata = isObject(merged.metadata) ? merged.metadata : {};
  const annotations = isObject(metadata.annotations) ? metadata.annotations : {};
  const appliedMetadata = isObject(applied.metadata) ? applied.metadata : undefined;
  const appliedAnnotations = appliedMetadata && isObject(appliedMetadata.annotations) ? appliedMetadata.annotations : undefined;
  const recorded = appliedAnnotations
    ? { ...applied, metadata: { ...appliedMetadata, annotations: Object.fromEntries(Object.entries(appliedAnnotations).filter(([k]) => k !== LAST_APPLIED)) } }
    : applied;
  return { ...merged, metadata: { ...metadata, annotations: { ...annotations, [LAST_APPLIED]: sortedJson(recorded) } } };
}

interface PruneInput {
  readonly previous: FieldSet;
  readonly applied: FieldSet;
  readonly managers: ReadonlyMap<string, ManagerEntry>;
  readonly identity: string;
  readonly meta: PatchMeta;
}

/**
 * Removes what the applier owned last time and nobody claims now, itself included (its new
 * configuration is checked before server-owned fields are stripped, so `metadata` stays).
 */
function prune(merged: JsonObject, input: PruneInput): JsonObject {
  const { previous, applied, managers, identity, meta } = input;
  let claimed = ensureNamedFieldsAreMembers(applied, meta);
  for (const [other, entry] of managers) if (other !== identity) claimed = claimed.union(ensureNamedFieldsAreMembers(entry.set, meta));
  return removeItems(merged, ensureNamedFieldsAreMembers(previous, meta).difference(claimed), meta) as JsonObject;
}

/** Fields other managers own that the apply adds or changes, managers in identity order. */
function conflictsOf(managers: ReadonlyMap<string, ManagerEntry>, identity: string, changed: FieldSet): Conflict[] {
  return [...managers]
    .filter(([other]) => other !== identity)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([, entry]) => entry.set.intersection(changed).paths().map((path) => ({ entry, path })));
}

/**
 * Applies `applied` as `manager` and returns the object to store (still to be defaulted and
 * validated by the caller). Throws ApiError 400 for a wrong apiVersion/kind or a body carrying
 * managedFields, 500 for list items without their keys, and 409 Conflict when the apply would
 * change fields another manager owns and `force` is false. Inputs are not mutated.
 */
export function serverSideApply(args: ServerSideApplyArgs): KubeObject {
  const { live, manager, force, now, meta, apiVersion, subresource } = args;
  checkApplied(args);
  const applied = clone(args.applied);
  const config = withoutNulls(applied) as JsonObject;
  const errors: string[] = [];
  const appliedSet = toFieldSet(config, meta, errors);
  if (errors.length > 0) throw typedPatchError(applied, errors);

  const liveBody = live ? clone(withoutManagedFields(live)) : undefined;
  const managers = (live && decodeManagedFields(live.metadata.managedFields)) || new Map<string, ManagerEntry>();
  const applier = { manager, operation: 'Apply' as const, apiVersion, ...(subresource ? { subresource } : {}) };
  const identity = managerIdentity(applier);
  const previous = managers.get(identity);
  const reset = fieldSetOf(args.resetFields ?? []);
  managers.set(identity, { ...applier, ...(previous?.time ? { time: previous.time } : {}), set: stripServerOwned(appliedSet).recursiveDifference(reset) });

  let merged = mergeApplied(liveBody ?? {}, config, meta) as JsonObject;
  if (previous) merged = prune(merged, { previous: previous.set, applied: appliedSet, managers, identity, meta });

  const comparison = compareObjects(liveBody, merged, meta, { fromZero: !live });
  const changed = comparison.added.union(comparison.modified).recursiveDifference(reset);
  const removed = comparison.removed.recursiveDifference(reset);
  const conflicts = conflictsOf(managers, identity, changed);
  if (conflicts.length > 0 && !force) {
    const upgradable = manager === 'kubectl' && liveBody ? upgradableFromLastApplied(liveBody, meta, apiVersion) : undefined;
    const remaining = upgradable ? conflicts.filter(({ path }) => !upgradable.has(path)) : conflicts;
    if (remaining.length > 0) throw conflictError(remaining);
  }
  // Past this point the apply goes through (forced, or upgraded from client-side apply):
  // other managers lose what it changed and what it removed.
  for (const [other, entry] of managers) {
    if (other !== identity) managers.set(other, { ...entry, set: entry.set.difference(changed).difference(removed) });
  }
  const own = managers.get(identity);
  if (own && (!liveBody || !deepEqual(liveBody, merged))) managers.set(identity, { ...own, time: formatTime(now) });
  if (manager === 'kubectl' && liveBody && lastAppliedOf(liveBody) !== undefined) merged = syncLastApplied(merged, applied);
  return withManagedFields(merged, managers);
}
