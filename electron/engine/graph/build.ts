/**
 * The ownership graph builder: nodes for the objects in scope (scope.ts), their health
 * (health.ts), and five kinds of edges — ownerReferences (`owns`, any kind, custom resources
 * included, matched by group, kind and uid), Service selectors (`selects`), HPA targets
 * (`scales`), the node each pod runs on (`runs-on`) and the ConfigMaps, Secrets, claims and
 * ServiceAccount each pod uses (`uses`). Owners that are not in the cluster become `missing`
 * reference nodes, owners of kinds the app does not watch `external` ones. Pods beyond a
 * threshold are collapsed (collapse.ts); beyond a node cap whole workloads are left out and the
 * answer says so. Pure: the same objects give the same graph.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { GraphEdge, GraphEdgeType, GraphHealth, GraphNode, GraphResult } from '../../../shared/contracts/graph.ts';
import { byCreation, createdMs, DEFAULT_LIMITS, isIdleReplicaSet, podGroupNode, replicaSetGroupNode, revisionOf, sortByCreation, type Limits } from './collapse.ts';
import { describeObject, hasDanglingOwner, isOrphan, isWatchedKind, podHealth, type Description } from './health.ts';
import { isFallbackKey, isKind } from './kinds.ts';
import { nodeNameOf, ownersOf, primaryOwner, scaleTargetOf, type GraphIndex, type OwnerRef } from './objects.ts';
import { focusScope, namespaceScope } from './scope.ts';
import { truncate } from './truncate.ts';

export interface BuildOptions {
  /** One namespace, or null for all; ignored with `focus`. */
  namespace: string | null;
  /** The uid to focus on, or null. */
  focus: string | null;
  /** Group ids to show member by member. */
  expand?: ReadonlySet<string>;
  limits?: Partial<Limits>;
}

export type GraphBuild = Pick<GraphResult, 'nodes' | 'edges' | 'stats' | 'truncated' | 'message'>;

const sortKey = (node: GraphNode): string => `${node.namespace ?? ''}\u0000${node.name}\u0000${node.id}`;

/** The kind key to hand the renderer: none for groups, references of unknown kinds and fallbacks. */
function keyField(key: string | undefined): { kindKey?: string } {
  return key !== undefined && !isFallbackKey(key) ? { kindKey: key } : {};
}

function refNode(id: string, owner: Pick<OwnerRef, 'kind' | 'name'> & { apiVersion?: string | undefined }, namespace: string | undefined, index: GraphIndex): GraphNode {
  const watched = isWatchedKind(owner, index.resolver);
  return {
    id,
    kind: owner.kind,
    ...keyField(owner.apiVersion !== undefined ? index.resolver.keyOf(owner.apiVersion, owner.kind) : undefined),
    name: owner.name,
    ...(namespace !== undefined ? { namespace } : {}),
    health: watched ? 'unknown' : 'neutral',
    status: watched ? 'Not in the cluster' : 'Not watched by Kubedrift',
    flags: [watched ? 'missing' : 'external'],
  };
}

/** Builds the graph for `options` from an index of the objects; null when the focus does not exist. */
export function buildGraph(index: GraphIndex, options: BuildOptions): GraphBuild | null {
  const started = performance.now();
  const scope = options.focus ? focusScope(index, options.focus) : namespaceScope(index, options.namespace);
  if (!scope) return null;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const expand = options.expand ?? new Set<string>();
  // A namespace's scope is a test on the index; a focus's a set (it is small).
  const focusSet = options.focus ? new Set(scope.map((object) => object.metadata.uid)) : null;
  const inScope = (uid: string): boolean => {
    if (focusSet) return focusSet.has(uid);
    const object = index.get(uid);
    return object !== undefined && !isKind(object, 'Node') && (options.namespace === null || object.metadata.namespace === options.namespace);
  };

  const descriptions = new Map<string, Description>();
  const describe = (object: SlimObject): Description => {
    let description = descriptions.get(object.metadata.uid);
    if (!description) {
      description = describeObject(object, index);
      descriptions.set(object.metadata.uid, description);
    }
    return description;
  };
  /** Health alone: a pod's without building its card lines (most pods end up in groups). */
  const healthOf = (object: SlimObject): GraphHealth => (isKind(object, 'Pod') ? podHealth(object) : describe(object).health);

  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  // from -> to -> types: every pod of a group adds the same edge, so this check runs per pod.
  const edgeIndex = new Map<string, Map<string, GraphEdgeType[]>>();
  const addEdge = (from: string, to: string, type: GraphEdgeType): void => {
    if (from === to) return;
    let targets = edgeIndex.get(from);
    if (!targets) {
      targets = new Map();
      edgeIndex.set(from, targets);
    }
    const types = targets.get(to);
    if (types?.includes(type)) return;
    if (types) types.push(type);
    else targets.set(to, [type]);
    edges.push({ from, to, type });
  };
  // Asked for each pod by every pass below (grouping, nodes, edges); found once per object.
  const parents = new Map<string, string | undefined>();
  const findParent = (object: SlimObject): string | undefined => {
    const owner = primaryOwner(object);
    if (!owner) return undefined;
    if (!index.owner(owner)) return `ref:${owner.uid}`;
    return inScope(owner.uid) ? owner.uid : undefined;
  };
  const parentOf = (object: SlimObject): string | undefined => {
    const uid = object.metadata.uid;
    const known = parents.get(uid);
    if (known !== undefined || parents.has(uid)) return known;
    const parent = findParent(object);
    parents.set(uid, parent);
    return parent;
  };
  /** The key a pod is grouped under: its owner's id, or its namespace for bare pods. */
  const podKey = (pod: SlimObject): string => parentOf(pod) ?? `ns/${pod.metadata.namespace ?? ''}`;

  /** Collapsed ReplicaSets and the remainder pods of expanded groups -> their group. */
  const shownAs = new Map<string, string>();
  /** Pod key -> the group holding all of that owner's pods (no entry per pod: there may be 10,000). */
  const podGroups = new Map<string, string>();
  /**
   * The id an object is drawn as: itself, or the group it was collapsed into. Asked for only once
   * the groups are made (below), and for each pod by several passes: kept per uid.
   */
  const drawnAs = new Map<string, string>();
  const drawnOf = (object: SlimObject): string => {
    const uid = object.metadata.uid;
    let id = drawnAs.get(uid);
    if (id === undefined) {
      id = shownAs.get(uid) ?? (isKind(object, 'Pod') ? podGroups.get(podKey(object)) : undefined) ?? uid;
      drawnAs.set(uid, id);
    }
    return id;
  };
  const drawn = (uid: string): string => {
    const object = index.get(uid);
    return object ? drawnOf(object) : uid;
  };

  // A Deployment's old, scaled-down ReplicaSets: one node, unless asked to expand.
  for (const deployment of scope) {
    if (!isKind(deployment, 'Deployment')) continue;
    const replicaSets = index.dependents(deployment.metadata.uid).filter((rs) => isKind(rs, 'ReplicaSet') && inScope(rs.metadata.uid) && primaryOwner(rs)?.uid === deployment.metadata.uid);
    const newest = replicaSets.reduce<SlimObject | undefined>((best, rs) => (!best || revisionOf(rs) > revisionOf(best) || (revisionOf(rs) === revisionOf(best) && byCreation(rs, best) > 0) ? rs : best), undefined);
    const idle = replicaSets.filter((rs) => rs !== newest && isIdleReplicaSet(rs) && !index.dependents(rs.metadata.uid).some((pod) => inScope(pod.metadata.uid)));
    const id = `group:${deployment.metadata.uid}:ReplicaSet`;
    if (idle.length < 2 || expand.has(id)) continue;
    idle.sort(byCreation);
    nodes.set(id, replicaSetGroupNode({ id, parent: deployment.metadata.uid, namespace: deployment.metadata.namespace, members: idle, health: healthOf, expandable: true }));
    for (const rs of idle) shownAs.set(rs.metadata.uid, id);
  }

  // Pods, per owner: one by one up to the threshold and within the budget, else as a group.
  const podsByParent = new Map<string, SlimObject[]>();
  for (const pod of scope) {
    if (!isKind(pod, 'Pod')) continue;
    const key = podKey(pod);
    const list = podsByParent.get(key);
    if (list) list.push(pod);
    else podsByParent.set(key, [pod]);
  }
  const ownerName = (key: string): string => {
    const owner = index.get(key);
    return owner ? `${owner.metadata.namespace ?? ''}/${owner.metadata.name}/${key}` : key;
  };
  let budget = limits.podBudget;
  for (const key of [...podsByParent.keys()].sort((a, b) => ownerName(a).localeCompare(ownerName(b)))) {
    const unsorted = podsByParent.get(key) as SlimObject[];
    const id = `group:${key}:Pod`;
    const parent = key.startsWith('ns/') ? undefined : key;
    const namespace = unsorted[0]?.metadata.namespace;
    if (expand.has(id)) {
      // Which pods show first is stable: oldest first, then by name.
      const grouped = sortByCreation(unsorted).slice(limits.expandLimit);
      budget -= Math.min(unsorted.length, limits.expandLimit);
      if (grouped.length > 0) {
        const rest = `${id}:more`;
        nodes.set(rest, podGroupNode({ id: rest, parent, namespace, members: grouped, health: healthOf, expandable: false, remainder: true }));
        for (const pod of grouped) shownAs.set(pod.metadata.uid, rest);
      }
    } else if (unsorted.length > limits.groupThreshold || (unsorted.length > budget && unsorted.length > 1)) {
      nodes.set(id, podGroupNode({ id, parent, namespace, members: unsorted, health: healthOf, expandable: true }));
      podGroups.set(key, id);
    } else budget -= unsorted.length;
  }

  // Every object not collapsed is a node of its own.
  for (const object of scope) {
    const uid = object.metadata.uid;
    if (drawnOf(object) !== uid) continue;
    const description = describe(object);
    const parent = parentOf(object);
    const created = createdMs(object);
    nodes.set(uid, {
      id: uid,
      kind: object.kind,
      ...keyField(index.keyOf(object)),
      name: object.metadata.name,
      ...(object.metadata.namespace !== undefined ? { namespace: object.metadata.namespace } : {}),
      ...description,
      ...(parent !== undefined ? { parent } : {}),
      ...(created !== undefined ? { created } : {}),
    });
  }

  // ownerReferences: to owners in scope, and to reference nodes for absent or unwatched owners.
  for (const object of scope) {
    for (const owner of ownersOf(object)) {
      const found = index.owner(owner);
      if (found && inScope(owner.uid)) addEdge(drawn(owner.uid), drawnOf(object), 'owns');
      else if (!found) {
        const id = `ref:${owner.uid}`;
        if (!nodes.has(id)) nodes.set(id, refNode(id, owner, object.metadata.namespace, index));
        addEdge(id, drawnOf(object), 'owns');
      }
    }
  }

  for (const object of scope) {
    if (isKind(object, 'Pod')) {
      // What the pod's spec names: drawn from the pod (or its group) to the object, when in scope.
      for (const used of index.uses(object)) if (inScope(used.metadata.uid)) addEdge(drawnOf(object), used.metadata.uid, 'uses');
    } else if (isKind(object, 'Service')) {
      for (const pod of index.selectedPods(object)) if (inScope(pod.metadata.uid)) addEdge(object.metadata.uid, drawnOf(pod), 'selects');
    } else if (isKind(object, 'HorizontalPodAutoscaler')) {
      const target = scaleTargetOf(object);
      if (!target) continue;
      const scaled = index.byName(object.metadata.namespace, target.kind, target.name);
      if (scaled && inScope(scaled.metadata.uid)) addEdge(object.metadata.uid, drawnOf(scaled), 'scales');
      else if (!scaled) {
        const id = `ref:target/${object.metadata.namespace ?? ''}/${target.kind}/${target.name}`;
        if (!nodes.has(id)) nodes.set(id, refNode(id, target, object.metadata.namespace, index));
        addEdge(object.metadata.uid, id, 'scales');
      }
    }
  }

  // The nodes the pods run on, unless there are too many to draw: then only counted (a
  // namespace's 3,000 pods may run on 3,000 nodes).
  const runsOn = new Map<string, Set<string>>();
  const tooMany = new Set<string>();
  for (const pod of scope) {
    const name = isKind(pod, 'Pod') ? nodeNameOf(pod) : undefined;
    if (!name) continue;
    if (tooMany.size > 0) {
      tooMany.add(name);
      continue;
    }
    let set = runsOn.get(name);
    if (!set) {
      if (runsOn.size >= limits.maxClusterNodes) {
        for (const known of runsOn.keys()) tooMany.add(known);
        tooMany.add(name);
        continue;
      }
      set = new Set<string>();
      runsOn.set(name, set);
    }
    set.add(drawnOf(pod));
  }
  let hiddenNodes = 0;
  if (tooMany.size > 0) hiddenNodes = tooMany.size;
  else {
    for (const [name, from] of runsOn) {
      const node = index.node(name);
      const id = node ? node.metadata.uid : `ref:node/${name}`;
      if (!nodes.has(id)) {
        const created = node ? createdMs(node) : undefined;
        nodes.set(id, node ? { id, kind: 'Node', kindKey: BUILTIN_KEYS.Node, name, ...describe(node), ...(created !== undefined ? { created } : {}) } : refNode(id, { apiVersion: 'v1', kind: 'Node', name }, undefined, index));
      }
      for (const source of from) addEdge(source, id, 'runs-on');
    }
  }

  const cut = truncate(nodes, edges, limits.maxNodes);
  const byHealth: Partial<Record<GraphHealth, number>> = {};
  let pods = 0;
  let danglingOwners = 0;
  let orphans = 0;
  for (const object of scope) {
    const health = healthOf(object);
    byHealth[health] = (byHealth[health] ?? 0) + 1;
    if (isKind(object, 'Pod')) pods += 1;
    if (hasDanglingOwner(object, index)) danglingOwners += 1;
    if (isOrphan(object)) orphans += 1;
  }
  const shown = [...cut.nodes.values()].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  return {
    nodes: shown,
    edges: cut.edges,
    stats: {
      objects: scope.length,
      pods,
      shown: shown.length,
      groups: shown.filter((node) => node.kind === 'Group').length,
      byHealth,
      danglingOwners,
      orphans,
      hiddenNodes,
      buildMs: Math.round((performance.now() - started) * 10) / 10,
    },
    truncated: cut.message !== undefined,
    ...(cut.message !== undefined ? { message: cut.message } : {}),
  };
}
