/**
 * Kind identity as data: a kind is named by its API group, version, kind and plural, discovered
 * at run time, never by a fixed enum. Platform-free, so the engine's registry, the contract and
 * the renderer all name kinds the same way.
 *
 * The stable key of a kind is its group-resource, `plural` for the core group and
 * `plural.group` otherwise (`pods`, `deployments.apps`, `certificates.cert-manager.io`), as
 * kubectl writes it. The version is left out on purpose: one stored object is served in every
 * version of its group, so a CRD that gains a new preferred version changes how the kind is read,
 * not which objects it holds; the cache keeps one entry per object either way.
 */
/**
 * Everything needed to list and watch one kind and to name it to a user. Its schema is in
 * discovery.ts: this module is imported by the list worker, whose start-up (before the first
 * page can be decoded) loading zod would lengthen by ~60 ms of compiling.
 */
export interface KindRef {
  /** The API group; `''` is the core group (`v1`). */
  group: string;
  /** The version the engine reads (the preferred served version). */
  version: string;
  /** CamelCase kind, as in an object's `kind` field. */
  kind: string;
  /** Lower-case plural, the URL segment. */
  plural: string;
  namespaced: boolean;
}

/** A kind without a version: what ownerReferences and exclusion rules name. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** A group and version, parsed from an `apiVersion`. */
export interface GroupVersion {
  group: string;
  version: string;
}

/**
 * What a kind key looks like: a lower-case DNS label (the plural) and, for a named group, a dot
 * and the group's DNS subdomain.
 */
export const KIND_KEY_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The kind key: `plural` for the core group, `plural.group` otherwise. */
export function kindKey(ref: Pick<KindRef, 'group' | 'plural'>): string {
  return ref.group === '' ? ref.plural : `${ref.plural}.${ref.group}`;
}

/** Splits a kind key back into plural and group (plurals never hold a dot; groups may). */
export function parseKindKey(key: string): { group: string; plural: string } {
  if (key === '' || key.startsWith('.') || key.endsWith('.')) throw new Error(`"${key}" is not a kind key: expected "plural" or "plural.group"`);
  const dot = key.indexOf('.');
  return dot < 0 ? { group: '', plural: key } : { group: key.slice(dot + 1), plural: key.slice(0, dot) };
}

/** `v1` for the core group, `group/version` otherwise. */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** Group and version of an apiVersion, or undefined when it is not `version` or `group/version`. */
export function tryParseApiVersion(apiVersion: string): GroupVersion | undefined {
  const parts = apiVersion.split('/');
  if (parts.some((p) => p === '' || p.trim() !== p)) return undefined;
  if (parts.length === 1) return { group: '', version: parts[0] as string };
  if (parts.length === 2) return { group: parts[0] as string, version: parts[1] as string };
  return undefined;
}

/** Group and version of an apiVersion (`v1` -> core group); throws with a clear message otherwise. */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const parsed = tryParseApiVersion(apiVersion);
  if (!parsed) throw new Error(`"${apiVersion}" is not an apiVersion: expected "v1" or "group/version"`);
  return parsed;
}

/** `Kind` for the core group, `Kind.group` otherwise (`Deployment.apps`), as kubectl names kinds. */
export function groupKindKey(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

/** The group-kind an object or reference with `apiVersion` and `kind` belongs to. */
export function groupKindOf(ref: { apiVersion: string; kind: string }): GroupKind | undefined {
  const gv = tryParseApiVersion(ref.apiVersion);
  return gv ? { group: gv.group, kind: ref.kind } : undefined;
}

/**
 * Whether an ownerReference (or any apiVersion + kind reference) names objects of `target`'s
 * kind. The group decides, never the kind alone: a custom `Job` in `example.com` is not a batch
 * Job (headlamp#5569). The version does not: owner references keep the apiVersion they were
 * written with, which may be an older version of the same group.
 */
export function refersToKind(ref: { apiVersion: string; kind: string }, target: GroupKind): boolean {
  const gk = groupKindOf(ref);
  return gk !== undefined && gk.kind === target.kind && gk.group === target.group;
}

/** An object as ownerReference matching needs it. */
export interface OwnerCandidate {
  apiVersion: string;
  kind: string;
  metadata: { uid: string };
}

/** Whether `ref` (an ownerReference) points at `owner`: same group, kind and uid. */
export function ownerReferenceMatches(ref: { apiVersion: string; kind: string; uid: string }, owner: OwnerCandidate): boolean {
  if (ref.uid !== owner.metadata.uid) return false;
  const ownerKind = groupKindOf(owner);
  return ownerKind !== undefined && refersToKind(ref, ownerKind);
}

/**
 * The collection URL of a kind, cluster-wide or in one namespace: `/api/v1/pods`,
 * `/apis/apps/v1/namespaces/web/deployments`.
 */
export function collectionPath(ref: Pick<KindRef, 'group' | 'version' | 'plural' | 'namespaced'>, namespace?: string): string {
  const root = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
  const scoped = namespace !== undefined && ref.namespaced ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${root}${scoped}/${ref.plural}`;
}
