/**
 * Upgrades of older snapshot files, run on the parsed JSON before the schema check so every
 * snapshot ever written still opens. Objects and Events are never touched: they carry their own
 * `apiVersion` and `kind`, as the API server sent them, in every format.
 *
 * Format 1 to 2: format 1 named the recorded workloads' kinds by the fixed enum of earlier
 * builds (`Deployment`); format 2 names them by kind key (`deployments.apps`, see shared/kinds.ts).
 *
 * Format 2 to 3: format 3 adds the kind table (shared/contracts/snapshot-kinds.ts). Format 2
 * files were written when the engine watched only the built-in kinds, so their table lists the
 * built-in kinds they hold; an object of any other kind (a build between the two formats could
 * write some) stays in the file but has no key, and the engine leaves it out when opening.
 */
import { BUILTIN_RESOLVER, builtinKind, keyFromLegacy } from '../../../shared/builtin-kinds.ts';
import { snapshotKindId, type SnapshotKind } from '../../../shared/contracts/snapshot-kinds.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A workload reference of format 1 (`{kind, namespace, name, uid}`) with its kind as a key. */
function upgradeRef(ref: unknown): void {
  if (isObject(ref) && typeof ref['kind'] === 'string') ref['kind'] = keyFromLegacy(ref['kind']);
}

/**
 * Upgrades a parsed format 1 file in place to format 2: the workload references of its history
 * (per-workload series, episodes and their controllers). Anything not shaped as expected is left
 * for the schema check to report.
 */
export function upgradeFormat1(file: Json): void {
  const history = file['history'];
  if (isObject(history)) {
    for (const entry of Array.isArray(history['workloads']) ? history['workloads'] : []) if (isObject(entry)) upgradeRef(entry['workload']);
    for (const episode of Array.isArray(history['episodes']) ? history['episodes'] : []) {
      if (!isObject(episode)) continue;
      upgradeRef(episode['workload']);
      upgradeRef(episode['controller']);
    }
  }
  file['schemaVersion'] = 2;
}

/** The table entries of the built-in kinds among `objects` (anything malformed is skipped). */
export function builtinKindTable(objects: readonly unknown[]): SnapshotKind[] {
  const table = new Map<string, SnapshotKind>();
  for (const object of objects) {
    if (!isObject(object) || typeof object['apiVersion'] !== 'string' || typeof object['kind'] !== 'string') continue;
    const { apiVersion, kind } = object as { apiVersion: string; kind: string };
    const id = snapshotKindId(apiVersion, kind);
    if (table.has(id)) continue;
    const key = BUILTIN_RESOLVER.keyOf(apiVersion, kind);
    const ref = key === undefined ? undefined : builtinKind(key)?.ref;
    if (key && ref) table.set(id, { apiVersion, kind, key, plural: ref.plural, namespaced: ref.namespaced, custom: false, metadataOnly: false });
  }
  return [...table.values()];
}

/** Upgrades a parsed format 2 file in place to format 3: a kind table of its built-in kinds. */
export function upgradeFormat2(file: Json): void {
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  file['kinds'] = builtinKindTable([...list(file['objects']), ...list(file['events'])]);
  file['schemaVersion'] = 3;
}
