/**
 * Snapshot files of format version 1 named the recorded workloads' kinds by the fixed enum of
 * earlier builds (`Deployment`); format 2 names them by kind key (`deployments.apps`, see
 * shared/kinds.ts). Opening a version 1 file rewrites those names to keys before the schema
 * check, so every snapshot ever written still opens. Objects and Events are untouched: they
 * carry their own `apiVersion` and `kind`, as the API server sent them, in both formats.
 */
import { keyFromLegacy } from '../../../shared/builtin-kinds.ts';

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
