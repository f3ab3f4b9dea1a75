// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { CauseInfo } from '../../../shared/contracts/causes.ts';
import type { GraphNode, GraphResult } from '../../../shared/contracts/graph.ts';
import { err, ok } from '../../../shared/result.ts';
import { layoutGraph } from '../../../renderer/components/graph/layout.ts';
import { kindLabel } from '../../../renderer/components/graph/present.ts';
import GraphView from '../../../renderer/views/graph/GraphView.vue';
import { clusterHealth, deployment, kindHealth, snapshotFrames } from './cluster-fixtures.ts';
import type { FakeApi } from './fake-api.ts';
import { OBJECT } from './graph-fixtures.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/graph', frames: true });

function node(id: string, kind: string, kindKey: string | undefined, extra: Partial<GraphNode> = {}): GraphNode {
  return { id, kind, ...(kindKey ? { kindKey } : {}), name: extra.name ?? id, namespace: 'shop', health: 'ready', status: 'Running', flags: [], ...extra };
}

/** The demo's orders-db as the engine answers: Database -> StatefulSet -> Pods, its Secret and Service, and what the pods use. */
const DB_GRAPH: GraphResult = {
  context: 'kubedrift-demo',
  namespace: 'shop',
  focus: null,
  at: null,
  revision: 4,
  nodes: [
    node('db', 'Database', 'databases.db.kubedrift.dev', { name: 'orders-db', health: 'failing', status: 'UnsupportedVersion', detail: 'postgres 9 is not supported by this operator' }),
    node('sts', 'StatefulSet', 'statefulsets.apps', { name: 'orders-db', parent: 'db', health: 'drifting', status: '1/2 ready' }),
    node('pod-0', 'Pod', 'pods', { name: 'orders-db-0', parent: 'sts', created: 1 }),
    node('pod-1', 'Pod', 'pods', { name: 'orders-db-1', parent: 'sts', health: 'failing', status: 'CrashLoopBackOff', created: 2 }),
    node('secret', 'Secret', 'secrets', { name: 'orders-db-credentials', parent: 'db', health: 'neutral', status: 'Used by 2 pods' }),
    node('svc', 'Service', 'services', { name: 'orders-db', parent: 'db', status: '1/2 pods ready', health: 'drifting' }),
    node('cm', 'ConfigMap', 'configmaps', { name: 'postgres-tuning', health: 'neutral', status: 'Used by 2 pods' }),
    node('nightly', 'Job', 'jobs.example.com', { name: 'nightly', health: 'neutral', status: 'No status signal' }),
  ],
  edges: [
    { from: 'db', to: 'sts', type: 'owns' },
    { from: 'db', to: 'secret', type: 'owns' },
    { from: 'db', to: 'svc', type: 'owns' },
    { from: 'sts', to: 'pod-0', type: 'owns' },
    { from: 'sts', to: 'pod-1', type: 'owns' },
    { from: 'svc', to: 'pod-0', type: 'selects' },
    { from: 'svc', to: 'pod-1', type: 'selects' },
    { from: 'pod-0', to: 'secret', type: 'uses' },
    { from: 'pod-1', to: 'secret', type: 'uses' },
    { from: 'pod-0', to: 'cm', type: 'uses' },
    { from: 'pod-1', to: 'cm', type: 'uses' },
  ],
  stats: { objects: 8, pods: 2, shown: 8, groups: 0, byHealth: { ready: 1, failing: 2, drifting: 2, neutral: 3 }, danglingOwners: 0, orphans: 0, hiddenNodes: 0, buildMs: 1 },
  truncated: false,
};

const link = (apiVersion: string, kind: string, name: string, uid: string) => ({ apiVersion, kind, namespace: 'shop', name, uid });
/** The engine's cause for the Database: down its StatefulSet to the crash-looping pod. */
const DB_CAUSE: CauseInfo = {
  code: 'crash-loop',
  sentence: '1 pod is crash-looping: container postgres exited with code 1 (Error), restarted 3 times',
  evidence: [{ ...link('v1', 'Pod', 'orders-db-1', 'pod-1'), detail: 'container postgres: CrashLoopBackOff' }],
  chain: [link('db.kubedrift.dev/v1', 'Database', 'orders-db', 'db'), link('apps/v1', 'StatefulSet', 'orders-db', 'sts')],
};

async function mountGraph(): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(clusterHealth('e1', [kindHealth('deployments.apps', 'live', 1)])),
    'graph:get': (request) => ok({ ...DB_GRAPH, namespace: request.namespace ?? null, focus: request.focus ?? null }),
    'graph:object': () => ok(OBJECT),
    'causes:drifting': () => ok({ context: 'kubedrift-demo', revision: 1, at: 1, reports: [] }),
    'causes:for': ({ uid }) => (uid === 'db' ? ok({ target: link('db.kubedrift.dev/v1', 'Database', 'orders-db', 'db'), causes: [DB_CAUSE] }) : err('not-found', `No object with uid ${uid}`)),
  });
  const view = test.mount(GraphView, { attachTo: document.body });
  await flushPromises();
  for (const frame of snapshotFrames('e1', 1, [deployment('web', { namespace: 'shop' })])) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
  return { api, view };
}

const card = (view: VueWrapper, id: string) => view.get(`[data-testid="graph-node"][data-id="${id}"]`);
const lit = (view: VueWrapper) => view.findAll('[data-testid="graph-node"]:not(.dimmed)').map((c) => c.attributes('data-id'));

describe('Graph: custom resources', () => {
  it('draws a custom resource as a card with its kind key, its own kind label and its state', async () => {
    const { view } = await mountGraph();
    await vi.waitFor(() => expect(view.findAll('[data-testid="graph-node"]')).toHaveLength(DB_GRAPH.nodes.length));
    const db = card(view, 'db');
    expect(db.attributes('data-kind')).toBe('Database');
    expect(db.attributes('data-kind-key')).toBe('databases.db.kubedrift.dev');
    expect(db.attributes('data-health')).toBe('failing');
    expect(db.classes()).toContain('custom');
    expect(db.get('text.kind').text()).toBe('database');
    expect(db.get('title').text()).toContain('Custom resource · databases.db.kubedrift.dev');
    // A custom kind named Job says its group; the built-in kinds keep their keys too.
    expect(card(view, 'nightly').get('text.kind').text()).toBe('job.example');
    expect(card(view, 'nightly').attributes('data-kind-key')).toBe('jobs.example.com');
    expect(card(view, 'sts').attributes('data-kind-key')).toBe('statefulsets.apps');
    expect(card(view, 'secret').get('text.kind').text()).toBe('secret');
    // Uses edges are drawn in their own style, apart from ownership.
    expect(view.findAll('path[data-type="uses"]')).toHaveLength(4);
    expect(view.findAll('path[data-type="owns"]')).toHaveLength(5);
    expect(view.get('[data-testid="graph-legend"]').text()).toContain('uses');
  });

  it('lights the chain from a selected custom resource down to its failing pod', async () => {
    const { view } = await mountGraph();
    await vi.waitFor(() => expect(view.findAll('[data-testid="graph-node"]')).toHaveLength(DB_GRAPH.nodes.length));
    const target = card(view, 'db');
    await target.trigger('pointerdown', { button: 0, pointerId: 1 });
    await target.trigger('pointerup', { button: 0, pointerId: 1 });
    await flushPromises();
    await vi.waitFor(() => expect(view.find('[data-testid="graph-why"]').exists()).toBe(true));
    expect(view.get('[data-testid="graph-why"]').text()).toContain(DB_CAUSE.sentence);
    expect(lit(view).sort()).toEqual(['db', 'pod-1', 'sts']);
    expect(view.get('[data-testid="graph-detail-kind-key"]').text()).toContain('databases.db.kubedrift.dev');
  });
});

describe('Graph layout: custom resources and what pods use', () => {
  it('puts the Database left of its StatefulSet, pods next, what they use after them, in one band', () => {
    const layout = layoutGraph(DB_GRAPH.nodes, DB_GRAPH.edges);
    const x = (id: string) => layout.positions.get(id)?.x ?? Number.NaN;
    const y = (id: string) => layout.positions.get(id)?.y ?? Number.NaN;
    expect(x('db')).toBeLessThan(x('sts'));
    expect(x('sts')).toBeLessThan(x('pod-0'));
    expect(x('pod-0')).toBeLessThan(x('secret'));
    expect(x('cm')).toBe(x('secret'));
    // The unowned ConfigMap joins the band of the pods using it, in a free row (the owned Secret keeps its own).
    const band = layout.bands.find((b) => b.id === 'db');
    expect(band).toBeDefined();
    expect(y('cm')).toBeGreaterThanOrEqual(band?.y ?? Number.NaN);
    expect(y('cm')).toBeLessThan((band?.y ?? 0) + (band?.height ?? 0));
    expect(y('cm')).not.toBe(y('secret'));
    expect(layout.columns.map((c) => c.title)).toContain('Config · Secrets · Claims');
  });

  it('reads kinds by key: a custom owner sits left of what it owns, a custom Job is labelled with its group', () => {
    const jobs = [node('custom', 'Job', 'jobs.example.com', { name: 'a' }), node('batch', 'Job', 'jobs.batch', { name: 'b' }), node('owner', 'Widget', 'widgets.example.com', { name: 'w' })];
    const dep = node('dep', 'Deployment', 'deployments.apps', { name: 'd', parent: 'owner' });
    const layout = layoutGraph([...jobs, dep], [{ from: 'owner', to: 'dep', type: 'owns' }]);
    const column = (id: string) => layout.positions.get(id)?.column;
    expect(column('batch')).toBe(1);
    expect(column('dep')).toBe(0);
    expect(column('owner')).toBe(-1);
    expect(kindLabel(jobs[0] as GraphNode)).toBe('job.example');
    expect(kindLabel(jobs[1] as GraphNode)).toBe('job');
  });
});
