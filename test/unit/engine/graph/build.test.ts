import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { GraphEdge, GraphNode } from '../../../../shared/contracts/graph.ts';
import { buildGraph, type BuildOptions, type GraphBuild } from '../../../../electron/engine/graph/build.ts';
import { createGraphIndex } from '../../../../electron/engine/graph/objects.ts';
import { danglingPod, db, dbPods, debugPod, orphanRs, patched, report, reportJob, reportPod, rolloutPod, runningPod, shop, UID, web, webHpa, webPods, webRs3, webService, worker1, worker2 } from './fixtures.ts';

function graph(objects: SlimObject[], options: Partial<BuildOptions> = {}): GraphBuild {
  const result = buildGraph(createGraphIndex(objects), { namespace: 'shop', focus: null, ...options });
  if (!result) throw new Error('no graph');
  return result;
}

const node = (g: GraphBuild, id: string): GraphNode => {
  const found = g.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id}; have ${g.nodes.map((n) => n.id).join(', ')}`);
  return found;
};
const has = (g: GraphBuild, edge: GraphEdge): boolean => g.edges.some((e) => e.from === edge.from && e.to === edge.to && e.type === edge.type);
const uid = (object: SlimObject): string => object.metadata.uid;

describe('graph builder: edges', () => {
  it('draws Deployment -> ReplicaSet -> Pod from ownerReferences, parents set for the layout', () => {
    const g = graph(shop());
    expect(has(g, { from: UID.web, to: UID.webRs3, type: 'owns' })).toBe(true);
    for (const pod of webPods) {
      expect(has(g, { from: UID.webRs3, to: uid(pod), type: 'owns' })).toBe(true);
      expect(node(g, uid(pod)).parent).toBe(UID.webRs3);
    }
    expect(node(g, UID.webRs3).parent).toBe(UID.web);
    expect(node(g, UID.web).parent).toBeUndefined();
  });

  it('collapses a Deployment’s scaled-down old ReplicaSets into one group, and shows them on expand', () => {
    const g = graph(shop());
    const id = `group:${UID.web}:ReplicaSet`;
    expect(node(g, id)).toMatchObject({ kind: 'Group', name: '2 old ReplicaSets', detail: 'revisions 1–2', health: 'neutral', parent: UID.web, group: { of: 'ReplicaSet', count: 2, expandable: true } });
    expect(g.nodes.some((n) => n.id === UID.webRs1 || n.id === UID.webRs2)).toBe(false);
    expect(has(g, { from: UID.web, to: id, type: 'owns' })).toBe(true);

    const expanded = graph(shop(), { expand: new Set([id]) });
    expect(expanded.nodes.some((n) => n.id === id)).toBe(false);
    expect(node(expanded, UID.webRs1)).toMatchObject({ status: 'Scaled to 0', health: 'neutral', parent: UID.web });
    expect(has(expanded, { from: UID.web, to: UID.webRs2, type: 'owns' })).toBe(true);
  });

  it('links StatefulSet pods straight to the StatefulSet and CronJob -> Job -> Pod', () => {
    const g = graph(shop());
    for (const pod of dbPods) expect(has(g, { from: UID.db, to: uid(pod), type: 'owns' })).toBe(true);
    expect(has(g, { from: UID.report, to: UID.reportJob, type: 'owns' })).toBe(true);
    expect(has(g, { from: UID.reportJob, to: uid(reportPod), type: 'owns' })).toBe(true);
    expect(node(g, UID.reportJob)).toMatchObject({ status: 'Complete', health: 'neutral' });
    expect(node(g, uid(reportPod))).toMatchObject({ status: 'Completed', health: 'neutral' });
    expect(node(g, UID.report)).toMatchObject({ status: 'Scheduled', health: 'ready', detail: '0 2 * * * · report:1.4' });
  });

  it('links a Service to the pods its selector matches, and the HPA to its scale target', () => {
    const g = graph(shop());
    const selected = g.edges.filter((e) => e.type === 'selects').map((e) => e.to).sort();
    expect(selected).toEqual(webPods.map(uid).sort());
    expect(node(g, UID.webService)).toMatchObject({ health: 'ready', status: '3/3 pods ready', detail: 'ClusterIP · 80' });
    expect(has(g, { from: UID.webHpa, to: UID.web, type: 'scales' })).toBe(true);
    expect(node(g, UID.webHpa)).toMatchObject({ health: 'ready', status: '3 replicas', detail: 'min 2 · max 10' });
  });

  it('links each pod to the node it runs on, coloured by the node’s Ready condition', () => {
    const g = graph(shop());
    expect(has(g, { from: uid(webPods[0] as SlimObject), to: UID.worker1, type: 'runs-on' })).toBe(true);
    expect(has(g, { from: uid(dbPods[0] as SlimObject), to: UID.worker2, type: 'runs-on' })).toBe(true);
    expect(node(g, UID.worker1)).toMatchObject({ kind: 'Node', health: 'ready', status: 'Ready', detail: 'worker' });
    expect(node(g, UID.worker2)).toMatchObject({ health: 'failing', status: 'NotReady (unreachable)' });
  });
});

describe('graph builder: dangling owners and orphans', () => {
  it('flags a pod whose owner is not in the cluster and draws the owner as a missing reference', () => {
    const g = graph(shop());
    expect(node(g, uid(danglingPod)).flags).toContain('dangling-owner');
    expect(node(g, `ref:${UID.goneRs}`)).toMatchObject({ kind: 'ReplicaSet', name: 'api-6b8d9c7f4', health: 'unknown', status: 'Not in the cluster', flags: ['missing'] });
    expect(node(g, uid(danglingPod)).parent).toBe(`ref:${UID.goneRs}`);
    expect(has(g, { from: `ref:${UID.goneRs}`, to: uid(danglingPod), type: 'owns' })).toBe(true);
    expect(g.stats.danglingOwners).toBe(1);
  });

  it('flags an object with a controller’s labels but no owner as an orphan, and a bare pod as unmanaged', () => {
    const g = graph(shop());
    expect(node(g, UID.orphanRs).flags).toEqual(['orphan']);
    expect(node(g, uid(debugPod)).flags).toEqual(['unmanaged']);
    expect(node(g, uid(debugPod)).parent).toBeUndefined();
    expect(g.stats.orphans).toBe(1);
  });

  it('draws an owner of an unwatched kind (a custom resource) as an external reference, not a dangling one', () => {
    const g = graph(shop());
    expect(node(g, `ref:${UID.rollout}`)).toMatchObject({ kind: 'Rollout', name: 'canary', health: 'neutral', flags: ['external'] });
    expect(node(g, uid(rolloutPod)).flags).toEqual([]);
    expect(has(g, { from: `ref:${UID.rollout}`, to: uid(rolloutPod), type: 'owns' })).toBe(true);
  });

  it('matches owners by group, kind and uid: a custom Job is not a batch Job (headlamp#5569)', () => {
    // A custom resource named Job in another group, and a pod it owns.
    const customJob = { apiVersion: 'example.com/v1', kind: 'Job', metadata: { name: 'nightly', namespace: 'shop', uid: 'custom-job', resourceVersion: '1' }, status: { succeeded: 1 } } as SlimObject;
    const owner = { apiVersion: 'example.com/v1', kind: 'Job', name: 'nightly', uid: 'custom-job', controller: true };
    const customPod = patched(runningPod('nightly-x', 'custom-pod'), { metadata: { ownerReferences: [owner] } });
    // A reference of that custom kind whose uid is a batch Job's (never a batch Job's child).
    const impostor = patched(runningPod('impostor', 'impostor-pod'), { metadata: { ownerReferences: [{ ...owner, name: 'report-29100000', uid: UID.reportJob }] } });
    const g = graph([...shop(), customJob, customPod, impostor]);
    // A custom resource is a node of its own, read by the status rule (no condition: neutral, not green).
    expect(node(g, 'custom-job')).toMatchObject({ kind: 'Job', health: 'neutral', status: 'No status signal', flags: [] });
    expect(node(g, 'custom-job').kindKey).toBeUndefined();
    expect(has(g, { from: 'custom-job', to: 'custom-pod', type: 'owns' })).toBe(true);
    expect(node(g, 'custom-pod').parent).toBe('custom-job');
    expect(node(g, 'custom-pod').flags).toEqual([]);
    expect(g.edges.some((e) => e.from === UID.reportJob && e.to === 'impostor-pod')).toBe(false);
    expect(node(g, 'impostor-pod').parent).not.toBe(UID.reportJob);
    // The batch Job keeps its own pod.
    expect(has(g, { from: UID.reportJob, to: uid(reportPod), type: 'owns' })).toBe(true);
  });

  it('flags an HPA whose target is gone and a Service that selects nothing', () => {
    const g = graph([webHpa, webService]);
    expect(node(g, UID.webHpa)).toMatchObject({ health: 'failing', status: 'Deployment web not found', flags: ['missing-target'] });
    expect(node(g, 'ref:target/shop/Deployment/web')).toMatchObject({ flags: ['missing'] });
    expect(node(g, UID.webService)).toMatchObject({ health: 'drifting', status: 'Selects no pods', flags: ['selects-nothing'] });
  });
});

describe('graph builder: health', () => {
  it('colours a rollout progressing, a short workload drifting, a stalled one and a crash-looping pod failing', () => {
    const rolling = patched(web, { metadata: { generation: 4 } });
    const short = patched(db, { status: { readyReplicas: 1 } });
    const crashing = runningPod('web-7d9f8c6b5d-crash', 'crash-1', { owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5d', uid: UID.webRs3 }, waiting: { reason: 'CrashLoopBackOff', restarts: 4 } });
    const stalled = patched(web, { metadata: { uid: 'stalled', name: 'stalled' }, status: { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] } });
    const g = graph([rolling, short, crashing, stalled, webRs3]);
    expect(node(g, UID.web)).toMatchObject({ health: 'progressing', status: 'Rolling out' });
    expect(node(g, UID.db)).toMatchObject({ health: 'drifting', status: 'Not ready', detail: '1/2 ready · postgres:16.3' });
    expect(node(g, 'stalled')).toMatchObject({ health: 'failing', status: 'Stalled' });
    expect(node(g, 'crash-1')).toMatchObject({ health: 'failing', status: 'CrashLoopBackOff', detail: '0/1 · 4 restarts · worker-1' });
    expect(g.stats.byHealth).toMatchObject({ progressing: 1, drifting: 1, failing: 2, ready: 1 });
  });
});

describe('graph builder: waiting or stuck', () => {
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5d', uid: UID.webRs3 };
  const short = patched(webRs3, { status: { readyReplicas: 2, availableReplicas: 2 } });

  it('calls a ReplicaSet whose missing replica is a pod still being created progressing', () => {
    const creating = runningPod('web-7d9f8c6b5d-new', 'creating', { owner, phase: 'Pending', waiting: { reason: 'ContainerCreating', restarts: 0 } });
    const g = graph([short, creating]);
    expect(node(g, UID.webRs3)).toMatchObject({ health: 'progressing', status: 'Not ready' });
    expect(node(g, 'creating')).toMatchObject({ health: 'progressing', status: 'ContainerCreating' });
  });

  it('calls it drifting when its pods run but do not get ready', () => {
    const g = graph([short, runningPod('web-7d9f8c6b5d-stuck', 'stuck', { owner, ready: false })]);
    expect(node(g, UID.webRs3)).toMatchObject({ health: 'drifting' });
    expect(node(g, 'stuck')).toMatchObject({ health: 'drifting', status: 'Running' });
  });
});

describe('graph builder: collapsing', () => {
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5d', uid: UID.webRs3 };
  const many = (n: number): SlimObject[] =>
    Array.from({ length: n }, (_, i) =>
      runningPod(`web-7d9f8c6b5d-${String(i).padStart(5, '0')}`, `pod-${i}`, { owner: rs, labels: { 'app.kubernetes.io/name': 'web' }, node: `worker-${(i % 2) + 1}`, ...(i % 5 === 0 ? { phase: 'Pending' } : {}) }),
    );

  it('collapses an owner’s pods beyond the threshold into one group with counts by phase and health', () => {
    const g = graph([web, webRs3, webService, worker1, worker2, ...many(25)]);
    const id = `group:${UID.webRs3}:Pod`;
    expect(node(g, id)).toMatchObject({ kind: 'Group', name: '25 pods', parent: UID.webRs3, status: '25 pods on 2 nodes', detail: '20 Running · 5 Pending', group: { of: 'Pod', count: 25, byPhase: { Running: 20, Pending: 5 }, nodes: 2, expandable: true } });
    expect(g.nodes.filter((n) => n.kind === 'Pod')).toHaveLength(0);
    expect(has(g, { from: UID.webRs3, to: id, type: 'owns' })).toBe(true);
    expect(has(g, { from: UID.webService, to: id, type: 'selects' })).toBe(true);
    expect(has(g, { from: id, to: UID.worker1, type: 'runs-on' })).toBe(true);
    expect(g.edges.filter((e) => e.type === 'selects')).toHaveLength(1);
  });

  it('expands a group up to the limit and keeps the rest as a smaller, final group', () => {
    const id = `group:${UID.webRs3}:Pod`;
    const g = graph([web, webRs3, ...many(25)], { expand: new Set([id]), limits: { expandLimit: 20 } });
    const pods = g.nodes.filter((n) => n.kind === 'Pod');
    expect(pods).toHaveLength(20);
    expect(pods.map((p) => p.id)).toContain('pod-0');
    expect(node(g, `${id}:more`)).toMatchObject({ name: '5 more pods', group: { count: 5, expandable: false } });
  });

  it('groups further owners’ pods (in owner name order) once the budget of single pods is spent', () => {
    const g = graph([web, webRs3, ...many(8), db, ...dbPods], { limits: { podBudget: 8 } });
    expect(g.nodes.filter((n) => n.kind === 'Pod').map((n) => n.name)).toEqual(['db-0', 'db-1']);
    expect(node(g, `group:${UID.webRs3}:Pod`).group?.count).toBe(8);
  });

  it('answers 10,000 pods in one namespace with a few nodes', () => {
    const g = graph([web, webRs3, webService, worker1, worker2, ...many(10_000)]);
    expect(g.nodes.length).toBeLessThan(10);
    expect(g.stats).toMatchObject({ pods: 10_000, objects: 10_003, groups: 1 });
  });

  it('leaves out whole trees beyond the node cap, in name order, and says so', () => {
    const deployments = Array.from({ length: 12 }, (_, i) => patched(web, { metadata: { name: `app-${String(i).padStart(2, '0')}`, uid: `dep-${i}` } }));
    const g = graph([...deployments, webService], { limits: { maxNodes: 5 } });
    expect(g.truncated).toBe(true);
    expect(g.nodes.map((n) => n.name)).toEqual(['app-00', 'app-01', 'app-02', 'app-03', 'app-04']);
    expect(g.message).toMatch(/^Showing 5 of 12 top-level objects; 7 more/);
  });
});

describe('graph builder: scope', () => {
  it('focuses on a Deployment: its subtree, the Service selecting its pods and its HPA, nothing else', () => {
    const g = graph(shop(), { focus: UID.web, namespace: null });
    const kinds = g.nodes.map((n) => `${n.kind}/${n.name}`).sort();
    expect(kinds).toEqual(['Deployment/web', 'Group/2 old ReplicaSets', 'HorizontalPodAutoscaler/web', 'Node/worker-1', 'Node/worker-2', 'Pod/web-7d9f8c6b5d-4xk2p', 'Pod/web-7d9f8c6b5d-9qz7m', 'Pod/web-7d9f8c6b5d-tb8rw', 'ReplicaSet/web-7d9f8c6b5d', 'Service/web']);
  });

  it('focuses on a pod with its owner chain', () => {
    const g = graph(shop(), { focus: uid(webPods[0] as SlimObject) });
    expect(g.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['web', 'web-7d9f8c6b5d', 'web-7d9f8c6b5d-4xk2p', 'worker-1']));
    expect(g.nodes.some((n) => n.name === 'web-7d9f8c6b5d-9qz7m')).toBe(false);
  });

  it('focuses on a Service: the pods it selects and their owners', () => {
    const g = graph(shop(), { focus: UID.webService });
    expect(g.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['web', 'web-7d9f8c6b5d', 'web-7d9f8c6b5d-4xk2p']));
    expect(g.nodes.some((n) => n.kind === 'StatefulSet')).toBe(false);
  });

  it('answers null for a focus that does not exist', () => {
    expect(buildGraph(createGraphIndex(shop()), { namespace: null, focus: 'no-such-uid' })).toBeNull();
  });

  it('shows only the asked namespace', () => {
    const other = patched(db, { metadata: { namespace: 'payments', uid: 'db-payments' } });
    const g = graph([...shop(), other]);
    expect(g.nodes.some((n) => n.id === 'db-payments')).toBe(false);
    expect(graph([...shop(), other], { namespace: null }).nodes.some((n) => n.id === 'db-payments')).toBe(true);
  });

  it('gives the same graph for the same objects in any order', () => {
    const objects = shop();
    const a = graph(objects);
    const b = graph([...objects].reverse());
    const strip = (g: GraphBuild) => ({ nodes: g.nodes, edges: [...g.edges].sort((x, y) => `${x.from}${x.to}${x.type}`.localeCompare(`${y.from}${y.to}${y.type}`)) });
    expect(strip(b)).toEqual(strip(a));
  });

  it('ignores Events and keeps orphaned ReplicaSets and jobs in the count of objects', () => {
    const g = graph(shop());
    expect(g.nodes.some((n) => n.kind === 'Event')).toBe(false);
    expect(g.stats.objects).toBe(shop().filter((o) => o.kind !== 'Event' && o.kind !== 'Node').length);
    expect([orphanRs, report, reportJob].every((o) => g.nodes.some((n) => n.id === uid(o)))).toBe(true);
  });
});
