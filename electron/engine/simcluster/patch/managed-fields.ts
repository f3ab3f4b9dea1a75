/**
 * `metadata.managedFields` as kube-apiserver reads and writes it: one entry per manager
 * identity (manager, operation, subresource, and for updaters the apiVersion), FieldsV1 sets,
 * sorted Apply-first, then by time, manager, apiVersion and subresource.
 */
import { FieldSet } from './fieldpath.ts';
import { isObject } from './json.ts';

/** One manager's ownership, decoded. */
export interface ManagerEntry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly time?: string;
  readonly subresource?: string;
  readonly set: FieldSet;
}

/** A `metadata.managedFields` item as the API serves it (field order as kube-apiserver writes it). */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/**
 * The identity kube-apiserver keys managers by (`BuildManagerIdentifier`): the JSON of the entry
 * without time and fields, and without apiVersion for appliers, so that one applier keeps one
 * entry across versions. Sorting these strings is how conflict messages order managers.
 */
export function managerIdentity(entry: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  return JSON.stringify({
    manager: entry.manager,
    operation: entry.operation,
    ...(entry.operation === 'Update' ? { apiVersion: entry.apiVersion } : {}),
    ...(entry.subresource ? { subresource: entry.subresource } : {}),
  });
}

/** `"kubectl-client-side-apply" using apps/v1` — how conflict messages name a manager. */
export function describeManager(entry: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const name = JSON.stringify(entry.manager) + (entry.subresource ? ` with subresource ${JSON.stringify(entry.subresource)}` : '');
  return entry.operation === 'Update' ? `${name} using ${entry.apiVersion}` : name;
}

/** RFC 3339 with whole seconds in UTC, as metav1.Time serialises. */
export function formatTime(now: number): string {
  return new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Decodes managedFields into entries keyed by {@link managerIdentity}; `undefined` when the
 * value is not a valid list (an entry without `Apply`/`Update`, apiVersion or
 * `fieldsType: FieldsV1`), as kube-apiserver's DecodeManagedFields refuses it. Entries for the
 * same identity are merged.
 */
export function decodeManagedFields(raw: unknown): Map<string, ManagerEntry> | undefined {
  if (raw === undefined || raw === null) return new Map();
  if (!Array.isArray(raw)) return undefined;
  const entries = new Map<string, ManagerEntry>();
  for (const item of raw) {
    if (!isObject(item)) return undefined;
    const { manager, operation, apiVersion, time, subresource, fieldsType, fieldsV1 } = item;
    if (operation !== 'Apply' && operation !== 'Update') return undefined;
    if (typeof apiVersion !== 'string' || apiVersion === '' || fieldsType !== 'FieldsV1') return undefined;
    const entry: ManagerEntry = {
      manager: typeof manager === 'string' ? manager : '',
      operation,
      apiVersion,
      ...(typeof time === 'string' ? { time } : {}),
      ...(typeof subresource === 'string' && subresource !== '' ? { subresource } : {}),
      set: FieldSet.fromFieldsV1(fieldsV1),
    };
    const identity = managerIdentity(entry);
    const previous = entries.get(identity);
    entries.set(identity, previous ? { ...entry, set: previous.set.union(entry.set) } : entry);
  }
  return entries;
}

/** `[{}]`: the documented way for a client to wipe managedFields. */
export function isResetManagedFields(raw: unknown): boolean {
  return Array.isArray(raw) && raw.length === 1 && isObject(raw[0]) && Object.keys(raw[0]).length === 0;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Encodes entries in kube-apiserver's order, leaving out managers that own nothing. */
export function encodeManagedFields(entries: Iterable<ManagerEntry>): ManagedFieldsEntry[] {
  const seconds = (entry: ManagerEntry) => (entry.time ? Date.parse(entry.time) / 1000 : 0);
  return [...entries]
    .filter((entry) => !entry.set.isEmpty())
    .sort(
      (p, q) =>
        compareStrings(p.operation, q.operation) ||
        seconds(p) - seconds(q) ||
        compareStrings(p.manager, q.manager) ||
        compareStrings(p.apiVersion, q.apiVersion) ||
        compareStrings(p.subresource ?? '', q.subresource ?? ''),
    )
    .map((entry) => ({
      manager: entry.manager,
      operation: entry.operation,
      apiVersion: entry.apiVersion,
      ...(entry.time ? { time: entry.time } : {}),
      fieldsType: 'FieldsV1' as const,
      fieldsV1: entry.set.toFieldsV1(),
      ...(entry.subresource ? { subresource: entry.subresource } : {}),
    }));
}

/**
 * Fields nobody is recorded as owning (kube-apiserver's stripMeta manager): type meta and the
 * server-set metadata. Removed member by member, so `metadata.labels` stays ownable.
 */
const SERVER_OWNED = FieldSet.fromPaths(
  [['apiVersion'], ['kind'], ['metadata'], ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => ['metadata', f])].map(
    (path) => path.map((name) => `f:${name}`),
  ),
);

export function stripServerOwned(set: FieldSet): FieldSet {
  return set.difference(SERVER_OWNED);
}

/** Paths (field names) to a FieldSet, e.g. reset fields `[['status']]`. */
export function fieldSetOf(paths: ReadonlyArray<readonly string[]>): FieldSet {
  return FieldSet.fromPaths(paths.map((path) => path.map((name) => `f:${name}`)));
}
