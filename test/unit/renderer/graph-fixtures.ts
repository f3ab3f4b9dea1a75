/**
 * Engine answers for the Graph screen's tests: a shop namespace with a Deployment mid-rollout
 * (one pod crash-looping), its Service, and a ReplicaSet whose pods are collapsed into a group.
 */
import type { GraphChanged, GraphEdge, GraphNode, GraphObject, GraphResult } from '../../../shared/contracts/graph.ts';

function node(id: string, kind: string, extra: Partial<GraphNode> = {}): GraphNode {
  return { id, kind, name: extra.name ?? id, namespace: 'shop', health: 'ready', status: 'Running', flags: [], ...extra };
}

export const GRAPH: GraphResult = {
  context: 'kind-dev',
  namespace: 'shop',
  focus: null,
  at: null,
  revision: 10,
  nodes: [
    node('dep-web', 'Deployment', { name: 'web', health: 'progressing', status: 'Rolling out', detail: '1/3 ready · web:v2' }),
    node('rs-web', 'ReplicaSet', { name: 'web-8c4f', parent: 'dep-web', health: 'progressing', status: 'Not ready', created: 2 }),
    node('pod-web-1', 'Pod', { name: 'web-8c4f-a1', parent: 'rs-web', detail: '1/1 · worker-1', created: 3 }),
    node('pod-web-2', 'Pod', { name: 'web-8c4f-b2', parent: 'rs-web', health: 'failing', status: 'CrashLoopBackOff', detail: '0/1 · 4 restarts · worker-2', created: 4 }),
    node('svc-web', 'Service', { name: 'web', status: '1/2 pods ready', health: 'drifting' }),
    node('rs-api', 'ReplicaSet', { name: 'api-5d6f', status: 'Ready', detail: '40/40 ready' }),
    {
      ...node('group:rs-api:Pod', 'Group', { name: '40 pods', parent: 'rs-api', status: '40 pods on 3 nodes', detail: '38 Running · 2 Pending', health: 'progressing' }),
      group: { of: 'Pod', count: 40, byPhase: { Running: 38, Pending: 2 }, byHealth: { ready: 38, progressing: 2 }, nodes: 3, expandable: true },
    },
  ],
  edges: [
    { from: 'dep-web', to: 'rs-web', type: 'owns' },
    { from: 'rs-web', to: 'pod-web-1', type: 'owns' },
    { from: 'rs-web', to: 'pod-web-2', type: 'owns' },
    { from: 'rs-api', to: 'group:rs-api:Pod', type: 'owns' },
    { from: 'svc-web', to: 'pod-web-1', type: 'selects' },
    { from: 'svc-web', to: 'pod-web-2', type: 'selects' },
  ],
  stats: { objects: 7, pods: 3, shown: 7, groups: 1, byHealth: { ready: 3, progressing: 2, failing: 1, drifting: 1 }, danglingOwners: 0, orphans: 0, hiddenNodes: 0, buildMs: 1.5 },
  truncated: false,
};

export const OBJECT: GraphObject = {
  at: null,
  node: GRAPH.nodes[0] as GraphNode,
  apiVersion: 'apps/v1',
  uid: 'dep-web',
  labels: { app: 'web' },
  owners: [],
  reasons: ['1 of 3 desired replicas ready'],
  pairs: [
    { field: 'Image web', desired: 'web:v2', actual: '1× web:v2 · 2× web:v1', match: false },
    { field: 'Generation', desired: '4', actual: 'observed 4', match: true },
  ],
  spec: { replicas: 3, strategy: { type: 'RollingUpdate' } },
  status: { observedGeneration: 4, replicas: 3, readyReplicas: 1 },
  conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "web-8c4f" is progressing.', lastTransition: Date.parse('2025-05-01T10:00:00Z') }],
  events: [{ type: 'Normal', reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-8c4f to 1', count: 1, last: Date.parse('2025-05-01T10:00:00Z'), source: 'deployment-controller' }],
};

/** A `graph:changed` payload with these object counters. */
export function changed(objects: Record<string, number>, revision: number): GraphChanged {
  return { context: 'kind-dev', revision, objects, events: {} };
}

/** A namespace as the 150,000-pod bench seeds it: each Deployment owns a ReplicaSet owning a group of pods, a Service selects them. */
export function namespaceGraph(workloads: number): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const base = { namespace: 'churn-001', health: 'ready' as const, status: 'Running', flags: [] };
  for (let i = 0; i < workloads; i += 1) {
    const name = `svc-${String(i).padStart(3, '0')}`;
    nodes.push({ ...base, id: `dep-${i}`, kind: 'Deployment', name });
    nodes.push({ ...base, id: `rs-${i}`, kind: 'ReplicaSet', name: `${name}-h`, parent: `dep-${i}` });
    nodes.push({ ...base, id: `group:rs-${i}:Pod`, kind: 'Group', name: '50 pods', parent: `rs-${i}`, group: { of: 'Pod', count: 50, byPhase: { Running: 50 }, byHealth: { ready: 50 }, nodes: 50, expandable: true } });
    nodes.push({ ...base, id: `svc-${i}`, kind: 'Service', name });
    edges.push({ from: `dep-${i}`, to: `rs-${i}`, type: 'owns' }, { from: `rs-${i}`, to: `group:rs-${i}:Pod`, type: 'owns' }, { from: `svc-${i}`, to: `group:rs-${i}:Pod`, type: 'selects' });
  }
  return { nodes, edges };
}
