import { describe, expect, it } from 'vitest';
import type { GraphEdge, GraphNode } from '../../../shared/contracts/graph.ts';
import { combPath, COMB_THRESHOLD, edgePath, lineage, routeEdges } from '../../../renderer/components/graph/edges.ts';
import { BAND_GAP, CARD_HEIGHT, CARD_WIDTH, COLUMN_GAP, layoutGraph, ROW_HEIGHT, SECTION_GAP, type Layout } from '../../../renderer/components/graph/layout.ts';

const COLUMN = CARD_WIDTH + COLUMN_GAP;

function n(id: string, kind: string, extra: Partial<GraphNode> = {}): GraphNode {
  return { id, kind, name: extra.name ?? id, namespace: 'shop', health: 'ready', status: 'Ready', flags: [], ...extra };
}

/** A Deployment with one ReplicaSet and `pods` pods, its Service and (optionally) HPA. */
function workload(name: string, pods: number, options: { hpa?: boolean; created?: number } = {}): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const rs = `${name}-rs`;
  const nodes = [n(name, 'Deployment'), n(rs, 'ReplicaSet', { parent: name, created: options.created ?? 100 }), n(`svc-${name}`, 'Service', { name })];
  const edges: GraphEdge[] = [{ from: name, to: rs, type: 'owns' }];
  for (let i = 0; i < pods; i += 1) {
    const pod = `${rs}-p${i}`;
    nodes.push(n(pod, 'Pod', { parent: rs, created: 1_000 + i, name: pod }));
    edges.push({ from: rs, to: pod, type: 'owns' }, { from: `svc-${name}`, to: pod, type: 'selects' }, { from: pod, to: 'worker-1', type: 'runs-on' });
  }
  if (options.hpa) {
    nodes.push(n(`hpa-${name}`, 'HorizontalPodAutoscaler', { name }));
    edges.push({ from: `hpa-${name}`, to: name, type: 'scales' });
  }
  return { nodes, edges };
}

function merge(...parts: Array<{ nodes: GraphNode[]; edges: GraphEdge[] }>): { nodes: GraphNode[]; edges: GraphEdge[] } {
  return { nodes: [...parts.flatMap((p) => p.nodes), n('worker-1', 'Node', { namespace: undefined })], edges: parts.flatMap((p) => p.edges) };
}

const at = (layout: Layout, id: string): { x: number; y: number } => {
  const placed = layout.positions.get(id);
  if (!placed) throw new Error(`${id} is not placed`);
  return { x: placed.x, y: placed.y };
};

describe('graph layout', () => {
  it('puts kinds in columns: workload (its HPA above it), ReplicaSet and Service, pod, node', () => {
    const g = merge(workload('web', 2, { hpa: true }));
    const layout = layoutGraph(g.nodes, g.edges);
    expect(at(layout, 'hpa-web')).toEqual({ x: 0, y: 0 });
    expect(at(layout, 'web')).toEqual({ x: 0, y: ROW_HEIGHT });
    expect(at(layout, 'web-rs').x).toBe(COLUMN);
    expect(at(layout, 'svc-web')).toEqual({ x: COLUMN, y: 0 });
    expect(at(layout, 'web-rs-p0').x).toBe(2 * COLUMN);
    expect(at(layout, 'worker-1').x).toBe(3 * COLUMN);
    expect(layout.columns.map((c) => c.title)).toEqual(['Workloads', 'ReplicaSets · Jobs · Services', 'Pods', 'Nodes']);
    expect(layout.width).toBe(4 * COLUMN - COLUMN_GAP);
  });

  it('leaves out empty columns', () => {
    const nodes = [n('db', 'StatefulSet'), n('db-0', 'Pod', { parent: 'db' })];
    const layout = layoutGraph(nodes, [{ from: 'db', to: 'db-0', type: 'owns' }]);
    expect(at(layout, 'db-0')).toEqual({ x: COLUMN, y: 0 });
    expect(layout.width).toBe(2 * COLUMN - COLUMN_GAP);
  });

  it('starts a band with its HPA and Service, the tree below them top-aligned', () => {
    const g = merge(workload('web', 3, { hpa: true }));
    const layout = layoutGraph(g.nodes, g.edges);
    expect(at(layout, 'svc-web').y).toBe(0);
    expect(at(layout, 'hpa-web').y).toBe(0);
    expect(at(layout, 'web').y).toBe(ROW_HEIGHT);
    expect(at(layout, 'web-rs').y).toBe(ROW_HEIGHT);
    expect([0, 1, 2].map((i) => at(layout, `web-rs-p${i}`).y)).toEqual([ROW_HEIGHT, 2 * ROW_HEIGHT, 3 * ROW_HEIGHT]);
    expect(layout.bands).toEqual([{ id: 'web', y: 0, height: 4 * ROW_HEIGHT }]);
  });

  it('orders bands by name, ReplicaSets newest first and pods oldest first, whatever the input order', () => {
    const g = merge(workload('web', 2), workload('api', 1));
    g.nodes.push(n('web-rs-new', 'ReplicaSet', { parent: 'web', created: 500 }), n('web-rs-new-p0', 'Pod', { parent: 'web-rs-new', created: 5_000 }));
    const a = layoutGraph(g.nodes, g.edges);
    const b = layoutGraph([...g.nodes].reverse(), [...g.edges].reverse());
    expect([...b.positions]).toEqual(expect.arrayContaining([...a.positions]));
    expect(at(a, 'api').y).toBeLessThan(at(a, 'web').y);
    expect(at(a, 'web-rs-new').y).toBeLessThan(at(a, 'web-rs').y);
    expect(at(a, 'web-rs-p0').y).toBeLessThan(at(a, 'web-rs-p1').y);
  });

  it('adding a pod moves no node above it or in its own band, and shifts the bands below rigidly', () => {
    const before = merge(workload('api', 2), workload('web', 2), workload('zeta', 3));
    const first = layoutGraph(before.nodes, before.edges);
    const after = merge(workload('api', 2), workload('web', 3), workload('zeta', 3));
    const second = layoutGraph(after.nodes, after.edges, first.memory);
    for (const id of ['api', 'api-rs', 'api-rs-p0', 'api-rs-p1', 'svc-api', 'web', 'web-rs', 'web-rs-p0', 'web-rs-p1', 'svc-web', 'worker-1']) expect(at(second, id)).toEqual(at(first, id));
    const shift = at(second, 'zeta').y - at(first, 'zeta').y;
    expect(shift).toBe(ROW_HEIGHT);
    for (const id of ['zeta-rs', 'zeta-rs-p0', 'zeta-rs-p2', 'svc-zeta']) expect(at(second, id).y - at(first, id).y).toBe(shift);
  });

  it('a pod leaving and coming back (a rollout’s surge) moves nothing once the band has grown', () => {
    const grown = merge(workload('api', 2), workload('web', 3), workload('zeta', 1));
    const first = layoutGraph(grown.nodes, grown.edges);
    const shrunk = merge(workload('api', 2), workload('web', 2), workload('zeta', 1));
    const second = layoutGraph(shrunk.nodes, shrunk.edges, first.memory);
    for (const id of ['zeta', 'zeta-rs', 'zeta-rs-p0', 'web-rs-p1']) expect(at(second, id)).toEqual(at(first, id));
    const third = layoutGraph(grown.nodes, grown.edges, second.memory);
    for (const [id, place] of first.positions) expect(third.positions.get(id)).toEqual(place);
  });

  it('gives up kept rows once a band shrank by more than the slack (a group collapsed)', () => {
    const big = merge(workload('web', 9), workload('zeta', 1));
    const first = layoutGraph(big.nodes, big.edges);
    const small = merge(workload('web', 1), workload('zeta', 1));
    const second = layoutGraph(small.nodes, small.edges, first.memory);
    expect(at(second, 'zeta').y).toBeLessThan(at(first, 'zeta').y);
  });

  it('puts an owner of an unknown kind (a custom resource) left of what it owns', () => {
    const nodes = [n('ref:rollout', 'Rollout', { name: 'canary', flags: ['external'] }), n('canary-pod', 'Pod', { parent: 'ref:rollout' }), n('ref:app', 'Application', { name: 'shop' }), n('web', 'Deployment', { parent: 'ref:app' })];
    const layout = layoutGraph(nodes, [{ from: 'ref:rollout', to: 'canary-pod', type: 'owns' }]);
    expect(layout.columns.map((c) => c.title)).toEqual(['Owners', 'Workloads', 'ReplicaSets · Jobs · Services', 'Pods']);
    expect(at(layout, 'ref:app').x).toBe(0);
    expect(at(layout, 'web')).toEqual({ x: COLUMN, y: at(layout, 'ref:app').y });
    expect(at(layout, 'ref:rollout').x).toBe(2 * COLUMN);
    expect(at(layout, 'canary-pod')).toEqual({ x: 3 * COLUMN, y: at(layout, 'ref:rollout').y });
  });

  it('starts each namespace’s bands with a section when the graph spans several namespaces', () => {
    const nodes = [n('web', 'Deployment'), n('api', 'Deployment'), n('db', 'StatefulSet', { namespace: 'data' })];
    const layout = layoutGraph(nodes, []);
    expect(layout.sections.map((section) => section.namespace)).toEqual(['data', 'shop']);
    expect(layout.sections[1]?.y).toBe(at(layout, 'api').y);
    expect(at(layout, 'api').y).toBe(ROW_HEIGHT + BAND_GAP + SECTION_GAP);
    expect(layoutGraph(nodes.slice(0, 2), []).sections).toEqual([]);
  });

  it('never puts two cards in one place, across many bands with HPAs, Services, groups and nodes', () => {
    const parts = Array.from({ length: 120 }, (_, i) => workload(`app-${i}`, i % 7, { hpa: i % 3 === 0 }));
    const g = merge(...parts);
    g.nodes.push(n('worker-2', 'Node', { namespace: undefined }), n('ref:cr', 'Rollout', { name: 'canary' }), n('canary-pod', 'Pod', { parent: 'ref:cr' }));
    const layout = layoutGraph(g.nodes, g.edges);
    expect(layout.positions.size).toBe(g.nodes.length);
    const places = [...layout.positions.values()].map((placed) => `${placed.x},${placed.y}`);
    expect(new Set(places).size).toBe(places.length);
  });

  it('keeps a Service that selects nothing in a band of its own', () => {
    const nodes = [n('lonely', 'Service', { flags: ['selects-nothing'] }), n('web', 'Deployment')];
    const layout = layoutGraph(nodes, []);
    expect(layout.bands.map((b) => b.id)).toEqual(['lonely', 'web']);
  });

  it('draws an edge from the right of its source to the left of its target, and straight down within a column', () => {
    const path = edgePath({ x: 0, y: 0, column: 0 }, { x: COLUMN, y: ROW_HEIGHT, column: 1 });
    expect(path.startsWith(`M${CARD_WIDTH} ${CARD_HEIGHT / 2} C`)).toBe(true);
    expect(path.endsWith(`${COLUMN} ${ROW_HEIGHT + CARD_HEIGHT / 2}`)).toBe(true);
    expect(edgePath({ x: 0, y: 0, column: 0 }, { x: 0, y: ROW_HEIGHT, column: 0 })).toBe(`M${CARD_WIDTH / 2} ${CARD_HEIGHT} L${CARD_WIDTH / 2} ${ROW_HEIGHT}`);
  });
});

describe('graph edges', () => {
  it('draws a large fan as one comb and a small one as curves', () => {
    const g = merge(workload('web', COMB_THRESHOLD + 1), workload('api', 2));
    const layout = layoutGraph(g.nodes, g.edges);
    const routed = routeEdges(g.edges, layout.positions);
    const comb = routed.find((edge) => edge.key === 'web-rs>owns>comb');
    expect(comb?.to).toHaveLength(COMB_THRESHOLD + 1);
    expect(routed.find((edge) => edge.key === 'svc-web>selects>comb')?.to).toHaveLength(COMB_THRESHOLD + 1);
    expect(routed.filter((edge) => edge.from === 'api-rs' && edge.type === 'owns')).toHaveLength(2);
    const path = combPath({ x: 0, y: 0, column: 1 }, [{ x: COLUMN, y: 0, column: 2 }, { x: COLUMN, y: ROW_HEIGHT, column: 2 }], 'owns');
    const spine = COLUMN - 22;
    expect(path).toBe(`M${CARD_WIDTH} ${CARD_HEIGHT / 2} H${spine} M${spine} ${CARD_HEIGHT / 2} V${ROW_HEIGHT + CARD_HEIGHT / 2} M${spine} ${CARD_HEIGHT / 2} H${COLUMN} M${spine} ${ROW_HEIGHT + CARD_HEIGHT / 2} H${COLUMN}`);
  });

  it('gives a node with many pods a bus instead of a fan', () => {
    const g = merge(workload('web', COMB_THRESHOLD + 1));
    const layout = layoutGraph(g.nodes, g.edges);
    const bus = routeEdges(g.edges, layout.positions).filter((edge) => edge.type === 'runs-on');
    expect(bus).toHaveLength(1);
    expect(bus[0]?.key).toBe('worker-1>runs-on>bus');
    expect(bus[0]?.to).toHaveLength(COMB_THRESHOLD + 1);
  });

  it('lights a node’s owners, everything it owns, the Services and HPA on its tree and its pods’ nodes', () => {
    const g = merge(workload('web', 2, { hpa: true }), workload('api', 1));
    const lit = lineage('web-rs', g.edges);
    expect([...lit].sort()).toEqual(['hpa-web', 'svc-web', 'web', 'web-rs', 'web-rs-p0', 'web-rs-p1', 'worker-1'].sort());
    expect(lineage('web-rs-p0', g.edges).has('web-rs-p1')).toBe(false);
  });
});
