/**
 * From served group versions to kinds: one kind per group-resource, read in its preferred version.
 * The version choice is client-go's `ServerPreferredResources`: the group's preferred version
 * when it serves the resource, else the first version in the server's order that does. Group
 * versions that are down only supply kinds no available version serves, and those kinds are
 * unavailable with the server's message.
 */
import type { UnavailableGroupVersion } from '../../../../shared/discovery.ts';
import { kindKey, type KindRef } from '../../../../shared/kinds.ts';
import type { ServedGroup, ServedResource } from './documents.ts';

/** One kind as discovery found it, before a watch mode is chosen. */
export interface ServedKind {
  key: string;
  ref: KindRef;
  /** Every version serving it, the chosen (preferred) one first. */
  versions: string[];
  verbs: string[];
  listable: boolean;
  watchable: boolean;
  subresources: { status: boolean; scale: boolean };
  shortNames: string[];
  categories: string[];
  /** Set when only unavailable group versions serve it: the server's message. */
  unavailable?: string;
}

/** Kinds and unavailable group versions of one discovery. */
export interface ResolvedDiscovery {
  kinds: ServedKind[];
  unavailable: UnavailableGroupVersion[];
}

function toKind(group: string, version: string, r: ServedResource, unavailable?: string): ServedKind {
  const ref: KindRef = { group, version, kind: r.kind, plural: r.plural, namespaced: r.namespaced };
  return {
    key: kindKey(ref),
    ref,
    versions: [version],
    verbs: [...r.verbs],
    listable: r.verbs.includes('list'),
    watchable: r.verbs.includes('watch'),
    subresources: { status: r.subresources.includes('status'), scale: r.subresources.includes('scale') },
    shortNames: [...r.shortNames],
    categories: [...r.categories],
    ...(unavailable !== undefined ? { unavailable } : {}),
  };
}

/**
 * Resources a kind can be made of: object collections. Without `list` a resource is a
 * create-only review (TokenReview, SubjectAccessReview) or a binding, not objects to watch; a
 * resource without a kind cannot be named.
 */
function isCollection(r: ServedResource): boolean {
  return r.kind !== '' && r.plural !== '' && !r.plural.includes('/') && r.verbs.includes('list');
}

function resolveGroup(group: ServedGroup, out: Map<string, ServedKind>): void {
  const chosen = new Map<string, ServedKind>();
  const served = new Map<string, string[]>();
  const available = group.versions.filter((v) => v.unavailable === undefined);
  for (const v of available) {
    for (const r of v.resources.filter(isCollection)) {
      served.set(r.plural, [...(served.get(r.plural) ?? []), v.version]);
      if (chosen.has(r.plural) && v.version !== group.preferredVersion) continue;
      chosen.set(r.plural, toKind(group.name, v.version, r));
    }
  }
  for (const v of group.versions.filter((gv) => gv.unavailable !== undefined)) {
    for (const r of v.resources.filter(isCollection)) {
      if (chosen.has(r.plural)) continue;
      served.set(r.plural, [...(served.get(r.plural) ?? []), v.version]);
      chosen.set(r.plural, toKind(group.name, v.version, r, v.unavailable));
    }
  }
  for (const [plural, kind] of chosen) {
    const versions = served.get(plural) ?? [];
    kind.versions = [kind.ref.version, ...versions.filter((v) => v !== kind.ref.version)];
    out.set(kind.key, kind);
  }
}

/** Every kind the groups serve (sorted by key) and every unavailable group version. */
export function resolveKinds(groups: readonly ServedGroup[]): ResolvedDiscovery {
  const kinds = new Map<string, ServedKind>();
  const unavailable: UnavailableGroupVersion[] = [];
  for (const group of groups) {
    resolveGroup(group, kinds);
    for (const v of group.versions) if (v.unavailable !== undefined) unavailable.push({ group: group.name, version: v.version, message: v.unavailable });
  }
  return { kinds: [...kinds.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)), unavailable };
}
