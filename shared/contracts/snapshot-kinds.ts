/**
 * The kind table of a snapshot file (format 3 on): for every apiVersion and kind among the
 * file's objects and Events, the kind key the engine filed them under (shared/kinds.ts), with
 * what discovery said about the kind. Objects carry only `apiVersion` and `kind`; turning those
 * into a kind key takes discovery (a plural, a scope), and an opened snapshot has no cluster to
 * ask. With the table, custom resources and every other watched kind come back under the keys
 * they had, without the cluster.
 */
import { z } from 'zod';
import { KIND_KEY_PATTERN, kindKey, tryParseApiVersion } from '../kinds.ts';

export const SnapshotKindSchema = z
  .object({
    /** As the objects carry it (`cert-manager.io/v1`). */
    apiVersion: z.string().min(1).max(317),
    kind: z.string().min(1).max(63),
    /** The kind key the objects of this apiVersion and kind were cached under. */
    key: z.string().max(317).regex(KIND_KEY_PATTERN, 'not a kind key ("plural" or "plural.group")'),
    plural: z.string().min(1).max(63),
    namespaced: z.boolean(),
    /** Served by a CustomResourceDefinition or an aggregated API, not by Kubernetes itself. */
    custom: z.boolean(),
    /** Read as metadata only (Secrets, ConfigMaps, RBAC...): its objects hold no spec, status or data. */
    metadataOnly: z.boolean(),
  })
  .strict();
export type SnapshotKind = z.infer<typeof SnapshotKindSchema>;

/** The table's lookup name of an apiVersion and kind. */
export const snapshotKindId = (apiVersion: string, kind: string): string => `${apiVersion}|${kind}`;

/**
 * Why a table cannot be trusted, or null: two entries for one apiVersion and kind, or an entry
 * whose key is not its group's plural. The one exception to the latter is the events.k8s.io
 * Event, which is kept under core `events` (shared/builtin-kinds.ts).
 */
export function kindTableProblem(kinds: readonly SnapshotKind[]): string | null {
  const seen = new Set<string>();
  for (const [index, entry] of kinds.entries()) {
    const id = snapshotKindId(entry.apiVersion, entry.kind);
    if (seen.has(id)) return `kinds.${index}: ${entry.apiVersion} ${entry.kind} is listed twice`;
    seen.add(id);
    const gv = tryParseApiVersion(entry.apiVersion);
    if (!gv) return `kinds.${index}: "${entry.apiVersion}" is not an apiVersion`;
    const expected = kindKey({ group: gv.group, plural: entry.plural });
    const eventsView = gv.group === 'events.k8s.io' && entry.kind === 'Event' && entry.key === 'events';
    if (entry.key !== expected && !eventsView) return `kinds.${index}: the key of ${entry.apiVersion} ${entry.kind} must be "${expected}", not "${entry.key}"`;
  }
  return null;
}
