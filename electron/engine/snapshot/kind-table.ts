/**
 * Writes a snapshot's kind table (shared/contracts/snapshot-kinds.ts): the kind key, plural and
 * scope of every apiVersion and kind among the exported objects, so opening the file files them
 * under the same keys without a cluster. The engine knows those from, best first: the live cache
 * (which holds each object under its key), an opened snapshot's own table (re-exporting it), the
 * built-in kinds, and the context's discovery.
 */
import { BUILTIN_RESOLVER, builtinKind, KindResolver } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { snapshotKindId, type SnapshotKind } from '../../../shared/contracts/snapshot-kinds.ts';
import type { KindEntry } from '../../../shared/discovery.ts';
import { apiVersionOf, parseApiVersion, parseKindKey, type KindRef } from '../../../shared/kinds.ts';

/** What the table says of a kind besides its key. */
export type KindFacts = Pick<SnapshotKind, 'plural' | 'namespaced' | 'custom' | 'metadataOnly'>;

/** Names the kinds of objects that arrive without a key. */
export interface KindNames {
  /** The key of objects of this apiVersion and kind, or undefined when the engine cannot name it. */
  keyOf(apiVersion: string, kind: string): string | undefined;
  /** What discovery (or a table) says of the kind, when something does. */
  factsOf(key: string): KindFacts | undefined;
}

export interface KindNameSources {
  /** Objects of the live cache with the key each is cached under. */
  cached?: { objects: readonly SlimObject[]; kinds: readonly string[] };
  /** The table of the opened snapshot being exported again. */
  table?: readonly SnapshotKind[];
  /** The selected context's discovered kinds. */
  discovered?: readonly KindEntry[];
}

/** KindNames from what the engine has at hand (see the file comment for the order). */
export function kindNames(sources: KindNameSources): KindNames {
  const exact = new Map<string, string>();
  const facts = new Map<string, KindFacts>();
  const { objects = [], kinds = [] } = sources.cached ?? {};
  for (const [index, object] of objects.entries()) {
    const id = snapshotKindId(object.apiVersion, object.kind);
    const key = kinds[index];
    if (key !== undefined && !exact.has(id)) exact.set(id, key);
  }
  for (const entry of sources.table ?? []) {
    const id = snapshotKindId(entry.apiVersion, entry.kind);
    if (!exact.has(id)) exact.set(id, entry.key);
    facts.set(entry.key, { plural: entry.plural, namespaced: entry.namespaced, custom: entry.custom, metadataOnly: entry.metadataOnly });
  }
  // Discovered kinds name objects by group and kind; a built-in kind keeps its built-in key
  // (the events.k8s.io view of Events is core `events`, not the excluded `events.events.k8s.io`).
  const discovered = new KindResolver([]);
  for (const entry of sources.discovered ?? []) {
    facts.set(entry.key, { plural: entry.ref.plural, namespaced: entry.ref.namespaced, custom: entry.custom, metadataOnly: entry.mode === 'metadata' });
    if (BUILTIN_RESOLVER.keyOf(apiVersionOf(entry.ref), entry.ref.kind) === undefined) discovered.add(entry.key, entry.ref);
  }
  return {
    keyOf: (apiVersion, kind) => exact.get(snapshotKindId(apiVersion, kind)) ?? BUILTIN_RESOLVER.keyOf(apiVersion, kind) ?? discovered.keyOf(apiVersion, kind),
    factsOf(key) {
      const known = facts.get(key);
      if (known) return known;
      const ref = builtinKind(key)?.ref;
      return ref ? { plural: ref.plural, namespaced: ref.namespaced, custom: false, metadataOnly: false } : undefined;
    },
  };
}

/** Fields a metadata-only object (PartialObjectMetadata) has; anything more means a full read. */
const METADATA_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * The table for `objects`, and the `apiVersion kind` of those the engine could not name. A kind
 * nothing describes (a past state's kind the cluster no longer serves) takes its plural from its
 * key and its scope and read mode from its objects.
 */
export function kindTable(objects: readonly SlimObject[], names: KindNames): { kinds: SnapshotKind[]; unnamed: string[] } {
  const table = new Map<string, SnapshotKind>();
  const unnamed = new Set<string>();
  for (const object of objects) {
    const id = snapshotKindId(object.apiVersion, object.kind);
    if (table.has(id)) continue;
    const key = names.keyOf(object.apiVersion, object.kind);
    if (key === undefined) {
      unnamed.add(`${object.apiVersion} ${object.kind}`);
      continue;
    }
    const facts = names.factsOf(key) ?? {
      plural: parseKindKey(key).plural,
      namespaced: object.metadata.namespace !== undefined,
      custom: false,
      metadataOnly: Object.keys(object).every((field) => METADATA_FIELDS.has(field)),
    };
    table.set(id, { apiVersion: object.apiVersion, kind: object.kind, key, ...facts });
  }
  const kinds = [...table.values()].sort((a, b) => a.key.localeCompare(b.key) || a.apiVersion.localeCompare(b.apiVersion));
  return { kinds, unnamed: [...unnamed].sort() };
}

/** What an opened snapshot says of a kind it holds only as metadata. */
export const SNAPSHOT_METADATA_MESSAGE = 'Only its metadata is in the snapshot: Kubedrift read this kind as metadata only.';

/**
 * An opened snapshot's kinds as discovery entries: the engine's resolver learns them and the
 * Cluster screen, Overview and Timeline list them as they would live (custom resources beside
 * workloads). A built-in kind keeps its built-in key and reference whatever the file says, so a
 * hand-edited table cannot refile Deployments; one entry per key (both Event APIs are `events`).
 */
export function kindEntries(kinds: readonly SnapshotKind[]): KindEntry[] {
  const entries = new Map<string, KindEntry>();
  for (const entry of kinds) {
    const builtinKey = BUILTIN_RESOLVER.keyOf(entry.apiVersion, entry.kind);
    const builtin = builtinKey === undefined ? undefined : builtinKind(builtinKey);
    const key = builtin?.key ?? entry.key;
    if (entries.has(key)) continue;
    const gv = parseApiVersion(entry.apiVersion);
    const ref: KindRef = builtin ? { ...builtin.ref } : { group: gv.group, version: gv.version, kind: entry.kind, plural: entry.plural, namespaced: entry.namespaced };
    entries.set(key, {
      key,
      ref,
      versions: [ref.version],
      verbs: ['get', 'list', 'watch'],
      listable: true,
      watchable: true,
      subresources: { status: false, scale: false },
      shortNames: [],
      categories: [],
      custom: builtin ? false : entry.custom,
      mode: entry.metadataOnly ? 'metadata' : 'full',
      ...(entry.metadataOnly ? { message: SNAPSHOT_METADATA_MESSAGE } : {}),
      count: null,
    });
  }
  return [...entries.values()];
}
