// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import GraphCanvas from '../../../renderer/components/graph/GraphCanvas.vue';
import { GRAPH } from './graph-fixtures.ts';

describe('GraphCanvas', () => {
  afterEach(() => vi.restoreAllMocks());

  it('draws the cards only once the host is measured, already fitted to it', async () => {
    // happy-dom lays nothing out: give the host the size a browser would.
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1_000);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    const canvas = mount(GraphCanvas, { props: { nodes: GRAPH.nodes, edges: GRAPH.edges, selectedId: null, fitKey: 'shop' }, attachTo: document.body });
    // Mounted: the empty host was measured (a cheap layout), the drawing comes in the next render.
    expect(canvas.find('[data-png-viewport]').exists()).toBe(false);
    await nextTick();
    const viewport = canvas.get('[data-png-viewport]');
    expect(canvas.findAll('[data-testid="graph-node"]')).toHaveLength(GRAPH.nodes.length);
    // Its first transform is the fitted one, not the unfitted identity it would be redrawn from.
    expect(viewport.attributes('transform')).not.toBe('translate(0 0) scale(1)');
    expect(viewport.attributes('transform')).toMatch(/^translate\(-?[\d.]+ -?[\d.]+\) scale\([\d.]+\)$/);
    expect(canvas.get('svg').attributes('width')).toBe('1000');
    canvas.unmount();
  });
});
