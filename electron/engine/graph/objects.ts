/**
 * The lookups the graph needs, built once per answer from the objects in play: objects by uid
 * with their kind keys, dependents by owner uid, pods by namespace and by label (so a Service's
 * selector costs the size of its answer, not of the namespace), nodes by name, HPAs by target,
 * and what each pod uses (ConfigMaps, Secrets, claims, its ServiceAccount) both ways.
 */
import { BUILTIN_RESOLVER, type KindResolver } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import { ownerReferenceMatches, tryParseApiVersion } from '../../../shared/kinds.ts';
import { graphKeyOf, isKind, usedKeyOf } from './kinds.ts';
import { podReferences } from './pod-refs.ts';

export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean | undefined;
}

export function ownersOf(object: SlimObject): readonly OwnerRef[] {
  return (object.metadata.ownerReferences ?? []) as readonly OwnerRef[];
}

/** The owner that places an object in the tree: the controller, else the first owner. */
export function primaryOwner(object: SlimObject): OwnerRef | undefined {
  const owners = ownersOf(object);
  return owners.find((owner) => owner.controller === true) ?? owners[0];
}

export function nodeNameOf(pod: SlimObject): string | undefined {
  const name = (pod as { spec?: { nodeName?: unknown } }).spec?.nodeName;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** A Service's equality selector; undefined when it has none (ExternalName, manual Endpoints). */
export function serviceSelector(service: SlimObject): Record<string, string> | undefined {
  const selector = (service as { spec?: { selector?: unknown } }).spec?.selector;
  if (typeof selector !== 'object' || selector === null) return undefined;
  const entries = Object.entries(selector).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

export interface ScaleTarget {
  kind: string;
  name: string;
}

export function scaleTargetOf(hpa: SlimObject): ScaleTarget | undefined {
  const ref = (hpa as { spec?: { scaleTargetRef?: { kind?: unknown; name?: unknown } } }).spec?.scaleTargetRef;
  return typeof ref?.kind === 'string' && typeof ref.name === 'string' ? { kind: ref.kind, name: ref.name } : undefined;
}

const key = (namespace: string | undefined, kind: string, name: string): string => `${namespace ?? ''}/${kind}/${name}`;

/** Whether an apiVersion parses, by its text (a handful of distinct texts in a cluster). */
const parsesAsApiVersion = new Map<string, boolean>();

/**
 * ownerReferenceMatches, with the usual case answered without parsing: a reference written with
 * the owner's own apiVersion and kind names its group and kind exactly when that apiVersion parses.
 */
function referenceMatches(ref: OwnerRef, found: SlimObject): boolean {
  if (ref.uid !== found.metadata.uid || ref.apiVersion !== found.apiVersion || ref.kind !== found.kind) return ownerReferenceMatches(ref, found);
  let parses = parsesAsApiVersion.get(ref.apiVersion);
  if (parses === undefined) {
    parses = tryParseApiVersion(ref.apiVersion) !== undefined;
    if (parsesAsApiVersion.size > 1_000) parsesAsApiVersion.clear();
    parsesAsApiVersion.set(ref.apiVersion, parses);
  }
  return parses;
}

/**
 * Where a pod's used objects are filed in an index (`namespace/key/name`), per pod version:
 * pods are replaced, never changed, on update, so a new version is read anew and a deleted pod's
 * entry goes with it.
 */
const usableKeysByPod = new WeakMap<SlimObject, readonly string[]>();
const NO_KEYS: readonly string[] = Object.freeze([]);

function usableKeys(pod: SlimObject): readonly string[] {
  let keys = usableKeysByPod.get(pod);
  if (!keys) {
    const refs = podReferences(pod);
    // A pod that names nothing (the most common) is not filed: its references say so, cached.
    if (refs.length === 0) return NO_KEYS;
    const namespace = pod.metadata.namespace ?? '';
    keys = refs.map((ref) => `${namespace}/${ref.key}/${ref.name}`);
    usableKeysByPod.set(pod, keys);
  }
  return keys;
}

const NONE: readonly SlimObject[] = Object.freeze([]);

export interface GraphIndex {
  get(uid: string): SlimObject | undefined;
  /** The kind key of an indexed object (a group-kind for a custom kind the resolver did not know). */
  keyOf(object: SlimObject): string | undefined;
  /** The kinds the index resolves with (learned from the cache): whether an absent owner's kind is watched. */
  readonly resolver: KindResolver;
  /** The user's status rules (Settings), for objects read by the one status rule. */
  readonly userRules: readonly UserStatusRule[];
  /** The object an ownerReference points at: same uid, group and kind; undefined when absent. */
  owner(ref: OwnerRef): SlimObject | undefined;
  /** Objects whose ownerReferences point at `uid` (by group, kind and uid). */
  dependents(uid: string): readonly SlimObject[];
  /** An object other than a Pod by namespace, kind and name (an HPA's scale target). */
  byName(namespace: string | undefined, kind: string, name: string): SlimObject | undefined;
  node(name: string): SlimObject | undefined;
  /** Every drawable object given to the index. */
  all(): readonly SlimObject[];
  /** The pods of the namespace a Service selects (every pod of its namespace given to the index). */
  selectedPods(service: SlimObject): readonly SlimObject[];
  /** The HPAs whose scaleTargetRef names this object. */
  scalersOf(object: SlimObject): readonly SlimObject[];
  /** The Services selecting a pod. */
  servicesSelecting(pod: SlimObject): readonly SlimObject[];
  podsOnNode(name: string): readonly SlimObject[];
  /** The ConfigMaps, Secrets, claims and ServiceAccount `pod` uses that are in the index. */
  uses(pod: SlimObject): readonly SlimObject[];
  /** The pods using a ConfigMap, Secret, claim or ServiceAccount. */
  usersOf(object: SlimObject): readonly SlimObject[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Indexes `objects` (any order; kinds the graph does not draw are skipped). `resolver` names
 * their kinds: the live cache's kinds, so custom resources resolve; built-in kinds by default.
 * `userRules` are the user's status rules, which come first for their kinds.
 */
export function createGraphIndex(objects: Iterable<SlimObject>, resolver: KindResolver = BUILTIN_RESOLVER, userRules: readonly UserStatusRule[] = []): GraphIndex {
  const byUid = new Map<string, SlimObject>();
  const keys = new Map<string, string>();
  /** ConfigMaps, Secrets, claims and ServiceAccounts by namespace/key/name. */
  const usable = new Map<string, SlimObject>();
  const dependents = new Map<string, SlimObject[]>();
  const nodes = new Map<string, SlimObject>();
  const podsByNamespace = new Map<string, SlimObject[]>();
  const services: SlimObject[] = [];
  const scalers = new Map<string, SlimObject[]>();
  const all: SlimObject[] = [];
  for (const object of objects) {
    const kindKey = graphKeyOf(object, resolver);
    if (kindKey === undefined) continue;
    all.push(object);
    const { uid, namespace, name } = object.metadata;
    byUid.set(uid, object);
    keys.set(uid, kindKey);
    const used = usedKeyOf(object);
    if (used) usable.set(`${namespace ?? ''}/${used}/${name}`, object);
    else if (isKind(object, 'Node')) nodes.set(name, object);
    else if (isKind(object, 'Pod')) push(podsByNamespace, namespace ?? '', object);
    else if (isKind(object, 'Service')) services.push(object);
    else if (isKind(object, 'HorizontalPodAutoscaler')) {
      const target = scaleTargetOf(object);
      if (target) push(scalers, key(namespace, target.kind, target.name), object);
    }
  }

  // A reference whose uid names an object of another group or kind points at nothing here.
  // Memoised per reference: a pod's owner is asked for by its parent, its edges, its flags and the counts.
  // A Map, not a WeakMap: the index lives for one build, and 10,000 ephemerons cost the collector more.
  const owners = new Map<OwnerRef, SlimObject | null>();
  const owner = (ref: OwnerRef): SlimObject | undefined => {
    const known = owners.get(ref);
    if (known !== undefined) return known ?? undefined;
    const found = byUid.get(ref.uid);
    const matched = found && referenceMatches(ref, found) ? found : undefined;
    owners.set(ref, matched ?? null);
    return matched;
  };
  for (const object of all) {
    for (const ref of ownersOf(object)) if (owner(ref) || !byUid.has(ref.uid)) push(dependents, ref.uid, object);
  }

  // Everything but pods by namespace/kind/name, built on the first ask.
  let byName: Map<string, SlimObject> | undefined;
  const named = (): Map<string, SlimObject> => {
    byName ??= new Map(all.filter((object) => !isKind(object, 'Pod')).map((object) => [key(object.metadata.namespace, object.kind, object.metadata.name), object]));
    return byName;
  };

  // Pods by namespace and label, then value, built on the first selector asked about, for the
  // labels some selector names only (pod-template-hash and friends are never asked for).
  let byLabel: Map<string, Map<string, SlimObject[]>> | undefined;
  const labelIndex = (): Map<string, Map<string, SlimObject[]>> => {
    if (byLabel) return byLabel;
    byLabel = new Map();
    const selected = [...new Set(services.flatMap((service) => Object.keys(serviceSelector(service) ?? {})))];
    for (const [namespace, pods] of podsByNamespace) {
      for (const label of selected) {
        const values = new Map<string, SlimObject[]>();
        for (const pod of pods) {
          const value = pod.metadata.labels?.[label];
          if (value !== undefined) push(values, value, pod);
        }
        byLabel.set(`${namespace}/${label}`, values);
      }
    }
    return byLabel;
  };
  const selected = new Map<string, readonly SlimObject[]>();
  const selectedPods = (service: SlimObject): readonly SlimObject[] => {
    const cached = selected.get(service.metadata.uid);
    if (cached) return cached;
    const selector = serviceSelector(service);
    let pods: readonly SlimObject[] = [];
    if (selector) {
      const namespace = service.metadata.namespace ?? '';
      const pairs = Object.entries(selector);
      // Start from the rarest label of the selector, then check the rest.
      const candidates = pairs.map(([label, value]) => labelIndex().get(`${namespace}/${label}`)?.get(value) ?? []).sort((a, b) => a.length - b.length)[0] ?? [];
      pods = pairs.length === 1 ? candidates : candidates.filter((pod) => pairs.every(([label, value]) => pod.metadata.labels?.[label] === value));
    }
    selected.set(service.metadata.uid, pods);
    return pods;
  };
  let selecting: Map<string, SlimObject[]> | undefined;
  const servicesSelecting = (pod: SlimObject): readonly SlimObject[] => {
    if (!selecting) {
      selecting = new Map();
      for (const service of services) for (const selectedPod of selectedPods(service)) push(selecting, selectedPod.metadata.uid, service);
    }
    return selecting.get(pod.metadata.uid) ?? [];
  };
  let onNode: Map<string, SlimObject[]> | undefined;
  const podsOnNode = (name: string): readonly SlimObject[] => {
    if (!onNode) {
      onNode = new Map();
      for (const pods of podsByNamespace.values()) {
        for (const pod of pods) {
          const nodeName = nodeNameOf(pod);
          if (nodeName) push(onNode, nodeName, pod);
        }
      }
    }
    return onNode.get(name) ?? [];
  };

  // Memoised per pod: asked for by the pod's edges and by the users of what it names.
  const usesByPod = new Map<string, readonly SlimObject[]>();
  const uses = (pod: SlimObject): readonly SlimObject[] => {
    const known = usesByPod.get(pod.metadata.uid);
    if (known) return known;
    let found: SlimObject[] | undefined;
    for (const usableKey of usableKeys(pod)) {
      const object = usable.get(usableKey);
      if (object) (found ??= []).push(object);
    }
    usesByPod.set(pod.metadata.uid, found ?? NONE);
    return found ?? NONE;
  };
  let users: Map<string, SlimObject[]> | undefined;
  const usersOf = (object: SlimObject): readonly SlimObject[] => {
    if (!users) {
      users = new Map();
      for (const pods of podsByNamespace.values()) for (const pod of pods) for (const used of uses(pod)) push(users, used.metadata.uid, pod);
    }
    return users.get(object.metadata.uid) ?? [];
  };

  return {
    get: (uid) => byUid.get(uid),
    keyOf: (object) => keys.get(object.metadata.uid),
    resolver,
    userRules,
    owner,
    dependents: (uid) => dependents.get(uid) ?? [],
    byName: (namespace, kind, name) => (kind === 'Pod' ? undefined : named().get(key(namespace, kind, name))),
    node: (name) => nodes.get(name),
    all: () => all,
    selectedPods,
    scalersOf: (object) => scalers.get(key(object.metadata.namespace, object.kind, object.metadata.name)) ?? [],
    servicesSelecting,
    podsOnNode,
    uses,
    usersOf,
  };
}
