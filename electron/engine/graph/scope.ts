/**
 * Which objects a graph shows: a namespace (or every one), or one focused object with its owner
 * chain, its whole subtree, the Services selecting its pods and the HPAs scaling it. A Service,
 * an HPA or a Node can be the focus too: then the pods it selects, scales or runs and their owners;
 * so can what pods use (a ConfigMap, Secret, claim or ServiceAccount): then the pods using it.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { isKind, usedKeyOf } from './kinds.ts';
import { ownersOf, scaleTargetOf, type GraphIndex } from './objects.ts';

/** Every drawable object of `namespace` (null: all namespaces); Nodes join through their pods. */
export function namespaceScope(index: GraphIndex, namespace: string | null): SlimObject[] {
  return index.all().filter((object) => !isKind(object, 'Node') && (namespace === null || object.metadata.namespace === namespace));
}

function addAncestors(index: GraphIndex, object: SlimObject, into: Map<string, SlimObject>): void {
  const seen = new Set<string>();
  const stack = [object];
  while (stack.length > 0) {
    const current = stack.pop() as SlimObject;
    for (const owner of ownersOf(current)) {
      const found = index.owner(owner);
      if (!found || seen.has(owner.uid)) continue;
      seen.add(owner.uid);
      into.set(owner.uid, found);
      stack.push(found);
    }
  }
}

function addSubtree(index: GraphIndex, root: SlimObject, into: Map<string, SlimObject>): void {
  const stack = [root];
  while (stack.length > 0) {
    const current = stack.pop() as SlimObject;
    into.set(current.metadata.uid, current);
    for (const dependent of index.dependents(current.metadata.uid)) if (!into.has(dependent.metadata.uid)) stack.push(dependent);
  }
}

/** The objects of a focus on `uid`, or null when no such object exists. */
export function focusScope(index: GraphIndex, uid: string): SlimObject[] | null {
  const focus = index.get(uid);
  if (!focus) return null;
  const scope = new Map<string, SlimObject>();
  const entryPods: SlimObject[] = [];
  if (isKind(focus, 'Service')) {
    scope.set(uid, focus);
    entryPods.push(...index.selectedPods(focus));
  } else if (isKind(focus, 'Node')) {
    scope.set(uid, focus);
    entryPods.push(...index.podsOnNode(focus.metadata.name));
  } else if (isKind(focus, 'HorizontalPodAutoscaler')) {
    scope.set(uid, focus);
    const target = scaleTargetOf(focus);
    const scaled = target ? index.byName(focus.metadata.namespace, target.kind, target.name) : undefined;
    if (scaled) {
      addAncestors(index, scaled, scope);
      addSubtree(index, scaled, scope);
    }
  } else {
    addAncestors(index, focus, scope);
    addSubtree(index, focus, scope);
    // A ConfigMap, Secret, claim or ServiceAccount: the pods using it too.
    if (usedKeyOf(focus)) entryPods.push(...index.usersOf(focus));
  }
  for (const pod of entryPods) {
    scope.set(pod.metadata.uid, pod);
    addAncestors(index, pod, scope);
  }
  // The Services in front of the subtree's pods, what they use and the HPAs scaling any of it.
  for (const object of [...scope.values()]) {
    if (isKind(object, 'Pod')) {
      for (const service of index.servicesSelecting(object)) scope.set(service.metadata.uid, service);
      for (const used of index.uses(object)) scope.set(used.metadata.uid, used);
    }
    for (const hpa of index.scalersOf(object)) scope.set(hpa.metadata.uid, hpa);
  }
  return [...scope.values()];
}
