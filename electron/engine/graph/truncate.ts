/**
 * The last resort when a graph is still too big after collapsing pods: keep whole top-level
 * trees (a workload with everything under it), in name order, until the node cap; Services,
 * HPAs, cluster nodes and what pods use stay when they still connect to something kept. Never
 * half a tree.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { GraphEdge, GraphNode } from '../../../shared/contracts/graph.ts';
import { USED_KEYS } from './kinds.ts';

/** Kinds whose nodes hang off trees rather than root one of their own (what pods use among them). */
const ATTACHED_KEYS: ReadonlySet<string> = new Set([BUILTIN_KEYS.Service, BUILTIN_KEYS.HorizontalPodAutoscaler, BUILTIN_KEYS.Node, ...Object.values(USED_KEYS)]);
const ATTACHED_KINDS: ReadonlySet<string> = new Set(['Service', 'HorizontalPodAutoscaler', 'Node']);

function attached(node: GraphNode): boolean {
  // By kind key where the engine knows it (a custom `Service` is not a Service); references by name.
  return node.kindKey !== undefined ? ATTACHED_KEYS.has(node.kindKey) : ATTACHED_KINDS.has(node.kind);
}

export function truncate(nodes: Map<string, GraphNode>, edges: GraphEdge[], maxNodes: number): { nodes: Map<string, GraphNode>; edges: GraphEdge[]; message?: string } {
  if (nodes.size <= maxNodes) return { nodes, edges };
  const rootOf = (id: string): string => {
    let current = id;
    for (let depth = 0; depth < 32; depth += 1) {
      const parent = nodes.get(current)?.parent;
      if (parent === undefined || !nodes.has(parent)) return current;
      current = parent;
    }
    return current;
  };
  const sizes = new Map<string, number>();
  for (const [id, node] of nodes) {
    if (attached(node)) continue;
    const root = rootOf(id);
    sizes.set(root, (sizes.get(root) ?? 0) + 1);
  }
  const label = (id: string): string => {
    const node = nodes.get(id);
    return node ? `${node.namespace ?? ''}/${node.name}/${id}` : id;
  };
  const roots = [...sizes.keys()].sort((a, b) => label(a).localeCompare(label(b)));
  const keptRoots = new Set<string>();
  let total = 0;
  for (const root of roots) {
    const size = sizes.get(root) ?? 0;
    if (total > 0 && total + size > maxNodes) break;
    keptRoots.add(root);
    total += size;
  }
  const kept = new Map<string, GraphNode>();
  for (const [id, node] of nodes) if (!attached(node) && keptRoots.has(rootOf(id))) kept.set(id, node);
  const linked = new Set<string>();
  for (const edge of edges) {
    if (kept.has(edge.to)) linked.add(edge.from);
    if (kept.has(edge.from)) linked.add(edge.to);
  }
  for (const [id, node] of nodes) if (attached(node) && linked.has(id)) kept.set(id, node);
  const left = roots.length - keptRoots.size;
  return {
    nodes: kept,
    edges: edges.filter((edge) => kept.has(edge.from) && kept.has(edge.to)),
    message: `Showing ${keptRoots.size.toLocaleString('en-US')} of ${roots.length.toLocaleString('en-US')} top-level objects; ${left.toLocaleString('en-US')} more (${(nodes.size - kept.size).toLocaleString('en-US')} nodes) are left out. Focus on a workload or pick a namespace to see them.`,
  };
}
