// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { err, ok } from '../../../shared/result.ts';
import { useTimeTravelStore } from '../../../renderer/stores/time-travel.ts';
import GraphView from '../../../renderer/views/graph/GraphView.vue';
import { clusterHealth, deployment, kindHealth, snapshotFrames } from './cluster-fixtures.ts';
import type { FakeApi, Handlers } from './fake-api.ts';
import { GRAPH, OBJECT, changed } from './graph-fixtures.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/graph', frames: true });

/** Mounts the view on a synced cluster with workloads in shop (2) and ops (1). */
async function mountGraph(handlers: Handlers = {}): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({
    'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
    'cluster:health': () => ok(clusterHealth('e1', [kindHealth('deployments.apps', 'live', 3)])),
    'graph:get': (request) => ok({ ...GRAPH, namespace: request.namespace ?? null, focus: request.focus ?? null }),
    'graph:object': () => ok(OBJECT),
    ...handlers,
  });
  const view = test.mount(GraphView, { attachTo: document.body });
  await flushPromises();
  for (const frame of snapshotFrames('e1', 1, [deployment('web', { namespace: 'shop' }), deployment('api', { namespace: 'shop' }), deployment('backup', { namespace: 'ops' })])) api.emit('cluster:frames', frame);
  test.frames.runFrame();
  await flushPromises();
  return { api, view };
}

const graphCalls = (api: FakeApi) => api.calls.filter((call) => call.channel === 'graph:get').map((call) => call.payload);
const cards = (view: VueWrapper) => view.findAll('[data-testid="graph-node"]');

async function click(view: VueWrapper, id: string): Promise<void> {
  const card = view.get(`[data-testid="graph-node"][data-id="${id}"]`);
  await card.trigger('pointerdown', { button: 0, pointerId: 1 });
  await card.trigger('pointerup', { button: 0, pointerId: 1 });
  await flushPromises();
}

describe('GraphView', () => {
  it('draws the namespace with the most workloads, its nodes coloured by health and its edges', async () => {
    const { api, view } = await mountGraph();
    await vi.waitFor(() => expect(cards(view)).toHaveLength(GRAPH.nodes.length));
    expect(graphCalls(api).at(-1)).toEqual({ namespace: 'shop' });
    expect(view.get('[data-id="dep-web"]').attributes('data-health')).toBe('progressing');
    expect(view.get('[data-id="pod-web-2"]').attributes('data-health')).toBe('failing');
    expect(view.get('[data-id="pod-web-2"]').text()).toContain('CrashLoopBackOff');
    expect(view.findAll('path[data-type="owns"]')).toHaveLength(4);
    expect(view.findAll('path[data-type="selects"]')).toHaveLength(2);
    expect(view.get('[data-testid="graph-summary"]').text()).toContain('7 objects · 3 pods');
  });

  it('finds nodes by name or status and fades the rest', async () => {
    const { view } = await mountGraph();
    await vi.waitFor(() => expect(cards(view).length).toBeGreaterThan(0));
    await view.get('[data-testid="table-search"]').setValue('crashloop');
    expect(view.get('[data-testid="graph-matches"]').text()).toBe('1 match');
    expect(view.findAll('[data-testid="graph-node"]:not(.dimmed)').map((card) => card.attributes('data-id'))).toEqual(['pod-web-2']);
    await view.get('[data-testid="table-search"]').setValue('nothing-like-this');
    expect(view.get('[data-testid="graph-matches"]').text()).toBe('no match');
    await view.get('[data-testid="table-search"]').setValue('');
    expect(view.findAll('[data-testid="graph-node"].dimmed')).toHaveLength(0);
  });

  it('expands a group of pods on click, and groups them again', async () => {
    const { api, view } = await mountGraph();
    await vi.waitFor(() => expect(cards(view).length).toBeGreaterThan(0));
    await click(view, 'group:rs-api:Pod');
    expect(graphCalls(api).at(-1)).toEqual({ namespace: 'shop', expand: ['group:rs-api:Pod'] });
    await view.get('[data-testid="graph-collapse-all"]').trigger('click');
    await flushPromises();
    expect(graphCalls(api).at(-1)).toEqual({ namespace: 'shop' });
  });

  it('opens the side panel with desired vs actual, conditions, Events and the spec beside the status', async () => {
    const { api, view } = await mountGraph();
    await vi.waitFor(() => expect(cards(view).length).toBeGreaterThan(0));
    await click(view, 'dep-web');
    expect(api.calls.filter((call) => call.channel === 'graph:object').at(-1)?.payload).toEqual({ uid: 'dep-web' });
    const panel = view.get('[data-testid="graph-detail"]');
    const pairs = panel.findAll('[data-testid="graph-pair"]');
    expect(pairs.map((row) => row.attributes('data-match'))).toEqual(['false', 'true']);
    expect(pairs[0]?.text()).toContain('Image web');
    expect(panel.text()).toContain('1 of 3 desired replicas ready');
    expect(panel.get('[data-testid="graph-conditions"]').text()).toContain('Progressing=True');
    expect(panel.get('[data-testid="graph-event"]').text()).toContain('Scaled up replica set web-8c4f to 1');
    expect(panel.get('[data-testid="graph-spec"]').text()).toBe('replicas: 3\nstrategy:\n  type: RollingUpdate');
    expect(panel.get('[data-testid="graph-status"]').text()).toContain('readyReplicas: 1');
    await panel.get('[data-testid="graph-detail-close"]').trigger('click');
    expect(view.find('[data-testid="graph-detail"]').exists()).toBe(false);
  });

  it('focuses on a workload from its panel, through the location', async () => {
    const { api, view } = await mountGraph();
    await vi.waitFor(() => expect(cards(view).length).toBeGreaterThan(0));
    await click(view, 'dep-web');
    await view.get('[data-testid="graph-focus"]').trigger('click');
    await flushPromises();
    expect(window.location.hash).toBe('#/graph?namespace=shop&focus=dep-web');
    expect(graphCalls(api).at(-1)).toEqual({ focus: 'dep-web' });
    await vi.waitFor(() => expect(view.get('[data-testid="graph-focus-chip"]').text()).toContain('Deployment web'));
    await view.get('[data-testid="graph-clear-focus"]').trigger('click');
    await flushPromises();
    expect(graphCalls(api).at(-1)).toEqual({ namespace: 'shop' });
  });

  it('asks again when graph:changed says its namespace changed, and not for another namespace', async () => {
    const { api, view } = await mountGraph();
    await vi.waitFor(() => expect(cards(view).length).toBeGreaterThan(0));
    const asked = (): number => graphCalls(api).length;
    const before = asked();
    api.emit('graph:changed', changed({ shop: 4, ops: 1 }, GRAPH.revision));
    await flushPromises();
    api.emit('graph:changed', changed({ shop: 4, ops: 9 }, 13));
    await flushPromises();
    expect(asked()).toBe(before);
    api.emit('graph:changed', changed({ shop: 5, ops: 9 }, 14));
    await flushPromises();
    expect(asked()).toBe(before + 1);
  });

  it('asks again at once when the first counters it sees are newer than the graph it holds', async () => {
    const { api, view } = await mountGraph();
    await vi.waitFor(() => expect(cards(view).length).toBeGreaterThan(0));
    const before = graphCalls(api).length;
    api.emit('graph:changed', changed({ shop: 4 }, GRAPH.revision + 5));
    await flushPromises();
    expect(graphCalls(api)).toHaveLength(before + 1);
  });

  it('shows the graph at a past time, asked with `at`, and ignores live changes then', async () => {
    const at = Date.parse('2025-05-01T10:00:00Z');
    const { api, view } = await mountGraph({ 'graph:get': (request) => ok({ ...GRAPH, namespace: request.namespace ?? null, at: request.at ?? null }) });
    await vi.waitFor(() => expect(cards(view).length).toBeGreaterThan(0));
    useTimeTravelStore().at = at;
    await flushPromises();
    expect(graphCalls(api).at(-1)).toEqual({ namespace: 'shop', at });
    await vi.waitFor(() => expect(view.get('[data-testid="graph-past"]').text()).toContain('as it was at'));
    const count = graphCalls(api).length;
    api.emit('graph:changed', changed({ shop: 40 }, 99));
    await flushPromises();
    expect(graphCalls(api)).toHaveLength(count);
  });

  it('says why when the graph cannot be built, and retries', async () => {
    let fail = true;
    const { api, view } = await mountGraph({
      'graph:get': () => (fail ? err('unavailable', 'The cluster at 2025-05-01T10:00:00.000Z is not available: nothing recorded') : ok(GRAPH)),
    });
    await vi.waitFor(() => expect(view.get('[data-testid="graph-error"]').text()).toContain('nothing recorded'));
    expect(view.get('[data-testid="graph-error"]').text()).toContain('The graph of namespace shop could not be built');
    fail = false;
    await view.get('[data-testid="graph-error"] button').trigger('click');
    await flushPromises();
    expect(cards(view)).toHaveLength(GRAPH.nodes.length);
    expect(graphCalls(api).length).toBeGreaterThanOrEqual(2);
  });
});

