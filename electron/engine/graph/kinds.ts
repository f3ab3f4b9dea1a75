/**
 * Which kinds the graph draws and how it tells them apart: by kind key (`plural.group`), never
 * by the kind name alone, so a custom `Job` in example.com is not drawn, described or laid out as
 * a batch Job (headlamp#5569). Drawn: the built-in workload kinds, Pods, Services, HPAs and Nodes;
 * the ConfigMaps, Secrets, claims and ServiceAccounts pods use; and every custom resource (any
 * kind outside the groups Kubernetes serves itself). Other built-in kinds the engine may hold
 * (RBAC, ControllerRevisions, CRDs, quotas) stay out: they would bury the workloads.
 */
import { WATCHED_KINDS } from '../../../shared/cluster.ts';
import { BUILTIN_KEYS, BUILTIN_KINDS, BUILTIN_RESOLVER, type BuiltinKindName, type KindResolver } from '../../../shared/builtin-kinds.ts';
import { apiVersionOf, groupKindKey, parseKindKey, tryParseApiVersion } from '../../../shared/kinds.ts';
import { BUILT_IN_GROUPS } from '../cluster/discovery/modes.ts';

/** Kind keys of the objects a pod's spec references, drawn at the end of its "uses" edges. */
export const USED_KEYS = {
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  ServiceAccount: 'serviceaccounts',
} as const;
export type UsedKey = (typeof USED_KEYS)[keyof typeof USED_KEYS];

/** Built-in kinds the graph draws, by kind key: the watched ones but Events and Namespaces, which are not nodes. */
const DRAWN_BUILTIN_KEYS: ReadonlySet<string> = new Set<string>([
  ...WATCHED_KINDS.filter((key) => key !== BUILTIN_KEYS.Event && key !== BUILTIN_KEYS.Namespace),
  ...Object.values(USED_KEYS),
]);

/** Whether a group is not one Kubernetes serves itself: its kinds come from a CRD (or an aggregated API). */
export function isCustomGroup(group: string): boolean {
  return !BUILT_IN_GROUPS.has(group);
}

/** Whether the graph draws objects of this kind key. */
export function isGraphKind(key: string): boolean {
  if (DRAWN_BUILTIN_KEYS.has(key)) return true;
  const dot = key.indexOf('.');
  return dot > 0 && isCustomGroup(parseKindKey(key).group);
}

/**
 * The kind key of an object the graph draws, from the resolver (the kinds the cache holds); for
 * a custom kind the resolver does not know (a past object of a CRD since deleted), its
 * group-kind (`Database.db.kubedrift.dev`) stands in. Undefined: the graph does not draw it.
 */
export function graphKeyOf(object: { apiVersion: string; kind: string }, resolver: KindResolver): string | undefined {
  const key = resolver.keyOf(object.apiVersion, object.kind) ?? BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind);
  if (key !== undefined) return isGraphKind(key) ? key : undefined;
  const group = tryParseApiVersion(object.apiVersion)?.group;
  return group !== undefined && isCustomGroup(group) ? groupKindKey({ group, kind: object.kind }) : undefined;
}

/** Whether a fallback from graphKeyOf (a group-kind, not a kind key): the renderer gets no key then. */
export function isFallbackKey(key: string): boolean {
  return /[A-Z]/.test(key);
}

/** Each built-in kind's apiVersion as the API serves it (`apps/v1`): the one to compare first. */
const USUAL_API_VERSIONS = Object.fromEntries(Object.entries(BUILTIN_KINDS).map(([name, kind]) => [name, apiVersionOf(kind.ref)])) as Record<BuiltinKindName, string>;

/**
 * Whether `object` is of the built-in kind `name`, by group and kind. The kind name is compared
 * first, so the usual miss costs one string comparison.
 */
export function isKind(object: { apiVersion: string; kind: string }, name: BuiltinKindName): boolean {
  if (object.kind !== name) return false;
  // The kind's usual apiVersion (v1 Pods, apps/v1 Deployments) is its group: asked per object by every pass of a build.
  return object.apiVersion === USUAL_API_VERSIONS[name] || BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind) === BUILTIN_KINDS[name].key;
}

/** The built-in kind name of an object (`Deployment`), or undefined for any other kind (a custom `Job`). */
export function builtinNameOf(object: { apiVersion: string; kind: string }): BuiltinKindName | undefined {
  const name = object.kind as BuiltinKindName;
  return BUILTIN_KINDS[name] !== undefined && isKind(object, name) ? name : undefined;
}

/** Whether `object` is a core ConfigMap, Secret, claim or ServiceAccount (what pods use). */
export function usedKeyOf(object: { apiVersion: string; kind: string }): UsedKey | undefined {
  if (object.apiVersion !== 'v1') return undefined;
  return (USED_KEYS as Record<string, UsedKey>)[object.kind];
}
