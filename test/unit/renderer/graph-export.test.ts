// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../../shared/result.ts';
import GraphView from '../../../renderer/views/graph/GraphView.vue';
import { clusterHealth, deployment, kindHealth, snapshotFrames } from './cluster-fixtures.ts';
import { GRAPH, namespaceGraph, OBJECT } from './graph-fixtures.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/graph', frames: true });

describe('GraphView with a graph too large to draw whole', () => {
  it('draws the cards near the view, and every card once "Save as PNG" is pressed', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1_280);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
    const large = namespaceGraph(60);
    const api = installApi({
      'cluster:resync': () => ok({ epoch: 'e1', seq: 0 }),
      'cluster:health': () => ok(clusterHealth('e1', [kindHealth('deployments.apps', 'live', 1)])),
      'graph:get': () => ok({ ...GRAPH, namespace: 'churn-001', ...large, stats: { ...GRAPH.stats, objects: large.nodes.length, shown: large.nodes.length } }),
      'graph:object': () => ok(OBJECT),
    });
    const view = test.mount(GraphView, { attachTo: document.body });
    await flushPromises();
    for (const frame of snapshotFrames('e1', 1, [deployment('svc-000', { namespace: 'churn-001' })])) api.emit('cluster:frames', frame);
    test.frames.runFrame();
    await flushPromises();
    const cards = () => view.findAll('[data-testid="graph-node"]');
    await vi.waitFor(() => expect(cards().length).toBeGreaterThan(0));
    expect(cards().length).toBeLessThan(large.nodes.length / 2);

    await view.get('[data-testid="export-png"]').trigger('pointerdown');
    await flushPromises();
    expect(cards()).toHaveLength(large.nodes.length);
    vi.restoreAllMocks();
  });
});
