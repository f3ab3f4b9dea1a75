/**
 * How edges are drawn, and what lights up around a node. An edge runs from the right of its
 * source card to the left of its target as a curve; within one column (an HPA above its
 * workload) straight down. A source with many targets in one column (a ReplicaSet's 40 pods, a
 * Service selecting them) is drawn as a comb — one trunk, a spine along the targets, a stub to
 * each — instead of a fan of 40 curves that merge into a solid band; many pods on one node
 * likewise share a bus (a stub from each pod to the node's own vertical line).
 */
import type { GraphEdge, GraphEdgeType } from '../../../shared/contracts/graph.ts';
import { CARD_HEIGHT, CARD_WIDTH, type Placed } from './layout.ts';

/** Targets of one source and type beyond which a fan becomes a comb. */
export const COMB_THRESHOLD = 6;

export interface RoutedEdge {
  key: string;
  type: GraphEdgeType;
  d: string;
  from: string;
  to: readonly string[];
}

/** One edge's path (see the file comment). */
export function edgePath(from: Placed, to: Placed): string {
  if (from.column === to.column) {
    const x = from.x + CARD_WIDTH / 2;
    const down = to.y >= from.y;
    const y1 = down ? from.y + CARD_HEIGHT : from.y;
    const y2 = down ? to.y : to.y + CARD_HEIGHT;
    return `M${x} ${y1} L${to.x + CARD_WIDTH / 2} ${y2}`;
  }
  const forward = to.x > from.x;
  const x1 = forward ? from.x + CARD_WIDTH : from.x;
  const x2 = forward ? to.x : to.x + CARD_WIDTH;
  const y1 = from.y + CARD_HEIGHT / 2;
  const y2 = to.y + CARD_HEIGHT / 2;
  const bend = Math.max(24, Math.abs(x2 - x1) / 2) * (forward ? 1 : -1);
  return `M${x1} ${y1} C${x1 + bend} ${y1} ${x2 - bend} ${y2} ${x2} ${y2}`;
}

/** A comb from `from` to targets in one column to its right. */
export function combPath(from: Placed, targets: readonly Placed[], type: GraphEdgeType): string {
  const x1 = from.x + CARD_WIDTH;
  const y1 = from.y + CARD_HEIGHT / 2;
  const x2 = (targets[0] as Placed).x;
  const spine = x2 - (type === 'selects' ? 12 : 22);
  const ys = targets.map((target) => target.y + CARD_HEIGHT / 2);
  const top = Math.min(...ys);
  const bottom = Math.max(...ys);
  const join = Math.min(bottom, Math.max(top, y1));
  const mid = (x1 + spine) / 2;
  const trunk = join === y1 ? `M${x1} ${y1} H${spine}` : `M${x1} ${y1} C${mid} ${y1} ${mid} ${join} ${spine} ${join}`;
  return `${trunk} M${spine} ${top} V${bottom}${ys.map((y) => ` M${spine} ${y} H${x2}`).join('')}`;
}

/** The drawable edges: single curves, and combs for large fans of owns/selects edges. */
export function routeEdges(edges: readonly GraphEdge[], positions: ReadonlyMap<string, Placed>): RoutedEdge[] {
  const fans = new Map<string, GraphEdge[]>();
  for (const edge of edges) {
    if (edge.type !== 'owns' && edge.type !== 'selects') continue;
    const key = `${edge.from}>${edge.type}`;
    const list = fans.get(key);
    if (list) list.push(edge);
    else fans.set(key, [edge]);
  }
  const combed = new Set<GraphEdge>();
  const routed: RoutedEdge[] = [];
  for (const [key, fan] of fans) {
    if (fan.length <= COMB_THRESHOLD) continue;
    const from = positions.get((fan[0] as GraphEdge).from);
    const targets = fan.map((edge) => ({ edge, at: positions.get(edge.to) })).filter((entry): entry is { edge: GraphEdge; at: Placed } => entry.at !== undefined);
    const x = targets[0]?.at.x;
    if (!from || targets.length === 0 || x === undefined || x <= from.x || targets.some((target) => target.at.x !== x)) continue;
    for (const target of targets) combed.add(target.edge);
    const type = (fan[0] as GraphEdge).type;
    routed.push({ key: `${key}>comb`, type, d: combPath(from, targets.map((target) => target.at), type), from: (fan[0] as GraphEdge).from, to: targets.map((target) => target.edge.to) });
  }
  routed.push(...routeBuses(edges, positions, combed));
  for (const edge of edges) {
    if (combed.has(edge)) continue;
    const from = positions.get(edge.from);
    const to = positions.get(edge.to);
    if (from && to) routed.push({ key: `${edge.from}>${edge.to}>${edge.type}`, type: edge.type, d: edgePath(from, to), from: edge.from, to: [edge.to] });
  }
  return routed;
}

/** Pods to nodes: a node with many pods gets a bus; buses stand side by side, the top node's rightmost. */
function routeBuses(edges: readonly GraphEdge[], positions: ReadonlyMap<string, Placed>, combed: Set<GraphEdge>): RoutedEdge[] {
  const fanIns = new Map<string, GraphEdge[]>();
  for (const edge of edges) {
    if (edge.type !== 'runs-on') continue;
    const list = fanIns.get(edge.to);
    if (list) list.push(edge);
    else fanIns.set(edge.to, [edge]);
  }
  const buses = [...fanIns].flatMap(([node, fan]) => {
    const target = positions.get(node);
    const sources = fan.map((edge) => ({ edge, at: positions.get(edge.from) })).filter((entry): entry is { edge: GraphEdge; at: Placed } => entry.at !== undefined);
    const x = sources[0]?.at.x;
    if (!target || sources.length <= COMB_THRESHOLD || x === undefined || x >= target.x || sources.some((source) => source.at.x !== x)) return [];
    return [{ node, target, sources }];
  });
  buses.sort((a, b) => a.target.y - b.target.y);
  return buses.map(({ node, target, sources }, index) => {
    const spine = target.x - 14 - 7 * index;
    const ty = target.y + CARD_HEIGHT / 2;
    const ys = sources.map((source) => source.at.y + CARD_HEIGHT / 2);
    const sx = (sources[0] as { at: Placed }).at.x + CARD_WIDTH;
    for (const source of sources) combed.add(source.edge);
    const d = `M${spine} ${Math.min(ty, ...ys)} V${Math.max(ty, ...ys)} M${spine} ${ty} H${target.x}${ys.map((y) => ` M${sx} ${y} H${spine}`).join('')}`;
    return { key: `${node}>runs-on>bus`, type: 'runs-on' as const, d, from: node, to: sources.map((source) => source.edge.from) };
  });
}

/**
 * What `id` belongs to: its owners up the chain, everything it owns down the chain, its direct
 * neighbours, and what selects or scales its tree and the nodes its pods run on.
 */
export function lineage(id: string, edges: readonly GraphEdge[]): Set<string> {
  const set = new Set([id]);
  const walk = (down: boolean): void => {
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop() as string;
      for (const edge of edges) {
        if (edge.type !== 'owns') continue;
        const next = down ? (edge.from === current ? edge.to : null) : edge.to === current ? edge.from : null;
        if (next !== null && !set.has(next)) {
          set.add(next);
          stack.push(next);
        }
      }
    }
  };
  walk(true);
  walk(false);
  const tree = new Set(set);
  for (const edge of edges) {
    if (edge.from === id) set.add(edge.to);
    if (edge.to === id) set.add(edge.from);
    if (edge.type === 'runs-on' && tree.has(edge.from)) set.add(edge.to);
    else if ((edge.type === 'selects' || edge.type === 'scales') && tree.has(edge.to)) set.add(edge.from);
  }
  return set;
}
