/**
 * Which `graph:changed` counters a graph on screen depends on, so the view asks the engine again
 * only when its own namespace changed (or, for the side panel, when its object's namespace or
 * Events did) — never on a timer.
 */
import type { GraphChanged, GraphResult } from '../../../shared/contracts/graph.ts';

/** The namespaces a shown graph draws from (`''` holds the cluster-scoped nodes); null: all. */
export function graphNamespaces(scope: { namespace: string | null; focus: string | null }, result: GraphResult | null): string[] | null {
  if (scope.focus === null) return scope.namespace === null ? null : [scope.namespace, ''];
  if (!result) return null;
  const namespaces = new Set<string>(['']);
  for (const node of result.nodes) if (node.namespace !== undefined) namespaces.add(node.namespace);
  return [...namespaces].sort();
}

/** A key that changes exactly when one of `namespaces`' object counters moved (null: any). */
export function graphChangeKey(changed: GraphChanged, namespaces: readonly string[] | null): string {
  if (namespaces === null) return `${changed.context ?? ''}|*|${Object.values(changed.objects).reduce((sum, count) => sum + count, 0)}`;
  return `${changed.context ?? ''}|${namespaces.map((namespace) => `${namespace}=${changed.objects[namespace] ?? 0}`).join(',')}`;
}

/** The side panel's key: its object's namespace's objects and Events. */
export function detailChangeKey(changed: GraphChanged, namespace: string): string {
  return `${changed.context ?? ''}|${changed.objects[namespace] ?? 0}|${changed.events[namespace] ?? 0}`;
}
