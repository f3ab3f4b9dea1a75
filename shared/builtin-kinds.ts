/**
 * The built-in kinds the engine has watched since before discovery, named by their kind keys
 * (shared/kinds.ts). Code that branches on a built-in kind (a dedicated view, a workload rule)
 * uses these constants; every other kind is just a key and its KindRef.
 *
 * Events: the core `v1` Event and the `events.k8s.io/v1` Event are two views of one stored
 * object. The engine keeps them as one kind, `events`, whichever API it reads them through, so
 * an Event has one uid and one cache entry; the object keeps the apiVersion it was read with.
 */
import { apiVersionOf, kindKey, tryParseApiVersion, type KindRef } from './kinds.ts';

/** A built-in kind: its key and its reference (preferred group version, plural, scope). */
export interface BuiltinKind<K extends string = string> {
  readonly key: K;
  readonly ref: Readonly<KindRef>;
}

function builtin<const K extends string>(key: K, group: string, version: string, kind: string, plural: string, namespaced: boolean): BuiltinKind<K> {
  const ref: KindRef = { group, version, kind, plural, namespaced };
  // The literal key is written out so the type checker knows it; it must be the computed one.
  if (kindKey(ref) !== key) throw new Error(`built-in kind ${kind}: key "${key}" is not "${kindKey(ref)}"`);
  return { key, ref: Object.freeze(ref) };
}

/** Built-in kinds by their Kubernetes kind name. */
export const BUILTIN_KINDS = {
  Namespace: builtin('namespaces', '', 'v1', 'Namespace', 'namespaces', false),
  Node: builtin('nodes', '', 'v1', 'Node', 'nodes', false),
  Pod: builtin('pods', '', 'v1', 'Pod', 'pods', true),
  Service: builtin('services', '', 'v1', 'Service', 'services', true),
  Deployment: builtin('deployments.apps', 'apps', 'v1', 'Deployment', 'deployments', true),
  ReplicaSet: builtin('replicasets.apps', 'apps', 'v1', 'ReplicaSet', 'replicasets', true),
  StatefulSet: builtin('statefulsets.apps', 'apps', 'v1', 'StatefulSet', 'statefulsets', true),
  DaemonSet: builtin('daemonsets.apps', 'apps', 'v1', 'DaemonSet', 'daemonsets', true),
  Job: builtin('jobs.batch', 'batch', 'v1', 'Job', 'jobs', true),
  CronJob: builtin('cronjobs.batch', 'batch', 'v1', 'CronJob', 'cronjobs', true),
  HorizontalPodAutoscaler: builtin('horizontalpodautoscalers.autoscaling', 'autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true),
  Event: builtin('events', '', 'v1', 'Event', 'events', true),
} as const;

/** The Kubernetes kind name of a built-in kind (`Deployment`). */
export type BuiltinKindName = keyof typeof BUILTIN_KINDS;
/** The kind key of a built-in kind (`deployments.apps`). */
export type BuiltinKindKey = (typeof BUILTIN_KINDS)[BuiltinKindName]['key'];

/** The built-in keys by kind name, for code that branches on them: `BUILTIN_KEYS.Deployment === 'deployments.apps'`. */
export const BUILTIN_KEYS: { readonly [N in BuiltinKindName]: (typeof BUILTIN_KINDS)[N]['key'] } = Object.freeze(
  Object.fromEntries(Object.entries(BUILTIN_KINDS).map(([name, b]) => [name, b.key])) as { [N in BuiltinKindName]: (typeof BUILTIN_KINDS)[N]['key'] },
);

/** The group of the events.k8s.io view of Events, kept under the `events` key. */
const EVENTS_GROUP = 'events.k8s.io';

const BY_KEY = new Map<string, BuiltinKind>(Object.values(BUILTIN_KINDS).map((b) => [b.key, b]));

/** The built-in kind of a key, if it is one. */
export function builtinKind(key: string): BuiltinKind | undefined {
  return BY_KEY.get(key);
}

/** The KindRef of a built-in key; throws for any other key. */
export function builtinRef(key: string): Readonly<KindRef> {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`"${key}" is not a built-in kind`);
  return found.ref;
}

/**
 * Kind names as the fixed enum of earlier versions wrote them (history databases, snapshot
 * files) and the key each one is now. Only for reading old data.
 */
export const LEGACY_KIND_KEYS: Readonly<Record<string, BuiltinKindKey>> = Object.freeze(
  Object.fromEntries(Object.entries(BUILTIN_KINDS).map(([name, b]) => [name, b.key])) as Record<string, BuiltinKindKey>,
);

/** A stored kind written by an earlier version (`Deployment`) as today's key; a key stays as it is. */
export function keyFromLegacy(stored: string): string {
  return LEGACY_KIND_KEYS[stored] ?? stored;
}

/** `apiVersion` of a built-in kind's preferred version (`apps/v1`). */
export function builtinApiVersion(key: BuiltinKindKey): string {
  return apiVersionOf(builtinRef(key));
}

/**
 * Finds the kind key of objects by apiVersion and kind, for objects that arrive without one (an
 * opened snapshot, the state at a past time). Group + kind names one resource in a cluster, so
 * the version does not matter; each apiVersion is parsed once and remembered.
 */
export class KindResolver {
  private readonly byGroup = new Map<string, Map<string, string>>();
  private readonly groupOf = new Map<string, string | null>();

  constructor(kinds: Iterable<{ key: string; ref: Pick<KindRef, 'group' | 'kind'> }> = Object.values(BUILTIN_KINDS)) {
    for (const { key, ref } of kinds) this.add(key, ref);
    // The events.k8s.io view of Events is the same kind as core Events (see the header).
    if (!this.byGroup.get(EVENTS_GROUP)?.has('Event')) this.add(BUILTIN_KEYS.Event, { group: EVENTS_GROUP, kind: 'Event' });
  }

  /** Adds (or replaces) a kind; the key is what objects of that group and kind resolve to. */
  add(key: string, ref: Pick<KindRef, 'group' | 'kind'>): void {
    let kinds = this.byGroup.get(ref.group);
    if (!kinds) {
      kinds = new Map();
      this.byGroup.set(ref.group, kinds);
    }
    kinds.set(ref.kind, key);
  }

  /** The key of objects with this apiVersion and kind, or undefined when the kind is unknown. */
  keyOf(apiVersion: string, kind: string): string | undefined {
    let group = this.groupOf.get(apiVersion);
    if (group === undefined) {
      group = tryParseApiVersion(apiVersion)?.group ?? null;
      this.groupOf.set(apiVersion, group);
    }
    return group === null ? undefined : this.byGroup.get(group)?.get(kind);
  }
}

/** A resolver of the built-in kinds, shared by callers that know no other kinds. */
export const BUILTIN_RESOLVER = new KindResolver();

/** Whether an object (or reference) is of the built-in kind `key`, by group and kind, never by kind name alone. */
export function isBuiltinObject(object: { apiVersion: string; kind: string }, key: BuiltinKindKey): boolean {
  return BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind) === key;
}

/** The key of an object of a built-in kind; throws for any other (code that only holds built-in objects). */
export function builtinKeyOf(object: { apiVersion: string; kind: string }): BuiltinKindKey {
  const key = BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind);
  if (key === undefined || !BY_KEY.has(key)) throw new Error(`${object.apiVersion} ${object.kind} is not a built-in kind`);
  return key as BuiltinKindKey;
}

/** The Kubernetes kind name of a kind key, for text (`deployments.apps` -> `Deployment`); any other key as it is. */
export function kindNameOf(key: string): string {
  return BY_KEY.get(key)?.ref.kind ?? key;
}
