/**
 * Schema v4: kinds are named by kind key (shared/kinds.ts), not by the fixed enum of earlier
 * builds. Every stored kind column that the readers use is rewritten from the enum's name to its
 * key (`Deployment` -> `deployments.apps`), so a database recorded before reads as before:
 * `workloads.kind` (the timeline's workloads, episode filters by kind) and `owners.child_kind`.
 *
 * Left as written, on purpose:
 * - `events.object_kind` is an Event's `involvedObject.kind`, a Kubernetes kind name as the Event
 *   carries it, never a key;
 * - the compressed headers of the object log (`delta_batches`) carry the kind of each change,
 *   which no reader uses (a state at T is rebuilt by uid), so a batch is not decompressed and
 *   rewritten for it; a future reader of that field maps old names with `keyFromLegacy`.
 */
import type { DatabaseSync } from 'node:sqlite';
import { LEGACY_KIND_KEYS } from '../../../shared/builtin-kinds.ts';

/** Rewrites the stored enum names of kinds to kind keys. */
export function migrateKindKeys(db: DatabaseSync): void {
  const workloads = db.prepare('UPDATE workloads SET kind = ? WHERE kind = ?');
  const owners = db.prepare('UPDATE owners SET child_kind = ? WHERE child_kind = ?');
  for (const [name, key] of Object.entries(LEGACY_KIND_KEYS)) {
    workloads.run(key, name);
    owners.run(key, name);
  }
}
