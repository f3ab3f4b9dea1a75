// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import GraphCanvas from '../../../renderer/components/graph/GraphCanvas.vue';
import { cardInWindow, drawWindow, DRAW_ALL_UP_TO, edgeSpan, spanInWindow } from '../../../renderer/components/graph/cull.ts';
import { CARD_HEIGHT, CARD_WIDTH, layoutGraph } from '../../../renderer/components/graph/layout.ts';
import { GRAPH, namespaceGraph } from './graph-fixtures.ts';

const drawnIds = (canvas: ReturnType<typeof mount>): string[] => canvas.findAll('[data-testid="graph-node"]').map((card) => card.attributes('data-id') ?? '');

describe('drawing only what is near the view', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a window is the view and one view around it in graph units, below the header, null before a measure', () => {
    expect(drawWindow({ x: 0, y: 0, k: 1 }, { width: 0, height: 600 }, 64)).toBeNull();
    const window = drawWindow({ x: 28, y: 28, k: 0.5 }, { width: 1000, height: 600 }, 64);
    if (!window) throw new Error('no window');
    // The view alone spans graph x -56..1944 and y -120..1080 (header 64 taken off); one view more around it.
    expect(window.left).toBeLessThanOrEqual(-56 - 2000);
    expect(window.right).toBeGreaterThanOrEqual(1944 + 2000);
    expect(window.top).toBeLessThanOrEqual(-120 - 1200);
    expect(window.bottom).toBeGreaterThanOrEqual(1080 + 1200);
    // ...widened by at most half a view, so a small pan keeps the same window.
    expect(window.bottom).toBeLessThan(1080 + 1200 + 600);
    expect(drawWindow({ x: 28, y: 20, k: 0.5 }, { width: 1000, height: 600 }, 64)).toEqual(window);
    expect(cardInWindow({ x: 0, y: window.bottom + 1 }, window)).toBe(false);
    expect(cardInWindow({ x: 0, y: window.bottom - 1 }, window)).toBe(true);
    expect(cardInWindow({ x: 0, y: window.top - CARD_HEIGHT + 1 }, window)).toBe(true);
    expect(cardInWindow({ x: window.left - CARD_WIDTH - 1, y: 0 }, window)).toBe(false);
  });

  it('an edge shows when the rows between its cards meet the window, even with both cards outside it', () => {
    const positions = new Map([
      ['a', { x: 0, y: 0, column: 0 }],
      ['b', { x: 300, y: 5_000, column: 1 }],
      ['c', { x: 300, y: 9_000, column: 1 }],
    ]);
    const window = { left: -100, right: 2_000, top: 2_000, bottom: 3_000 };
    expect(edgeSpan('a', ['b'], positions)).toEqual({ top: 0, bottom: 5_000 + CARD_HEIGHT });
    expect(spanInWindow(edgeSpan('a', ['b'], positions), window)).toBe(true);
    expect(spanInWindow(edgeSpan('b', ['c'], positions), window)).toBe(false);
    expect(spanInWindow(edgeSpan('x', ['y'], positions), window)).toBe(true);
  });

  it('a large graph draws the cards and edges near the view, more as it pans, and everything before a picture', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1_280);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
    const { nodes, edges } = namespaceGraph(60);
    expect(nodes.length).toBeGreaterThan(DRAW_ALL_UP_TO);
    const canvas = mount(GraphCanvas, { props: { nodes, edges, selectedId: null, fitKey: 'churn-001' }, attachTo: document.body });
    await nextTick();
    const first = drawnIds(canvas);
    // The first view starts at the top at a readable scale: the first workloads' cards, not the 60th's.
    expect(first).toContain('dep-0');
    expect(first).toContain('group:rs-0:Pod');
    expect(first).not.toContain('dep-59');
    expect(first.length).toBeLessThan(nodes.length / 2);
    const paths = canvas.findAll('path.edge').length;
    expect(paths).toBeGreaterThan(0);
    expect(paths).toBeLessThan(edges.length / 2);

    // Scrolling down to the end draws its cards (and no longer the first ones).
    const layout = layoutGraph(nodes, edges);
    const last = layout.positions.get('dep-59');
    if (!last) throw new Error('dep-59 not placed');
    await canvas.get('svg').trigger('wheel', { deltaX: 0, deltaY: last.y });
    await nextTick();
    const scrolled = drawnIds(canvas);
    expect(scrolled).toContain('dep-59');
    expect(scrolled).not.toContain('dep-0');

    (canvas.vm as unknown as { drawEverything(): void }).drawEverything();
    await nextTick();
    expect(drawnIds(canvas)).toHaveLength(nodes.length);
    expect(canvas.findAll('path.edge')).toHaveLength(edges.length);

    // A new scope is drawn near its view again.
    await canvas.setProps({ fitKey: 'churn-002' });
    await nextTick();
    expect(drawnIds(canvas).length).toBeLessThan(nodes.length / 2);
    canvas.unmount();
  });

  it('Tab reaches every card of a large graph: cards are in reading order and the view follows the focused one', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1_280);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
    const { nodes, edges } = namespaceGraph(60);
    const canvas = mount(GraphCanvas, { props: { nodes, edges, selectedId: null, fitKey: 'churn-001' }, attachTo: document.body });
    await nextTick();
    const positions = layoutGraph(nodes, edges).positions;
    const cards = () => canvas.findAll('[data-testid="graph-node"]').map((card) => card.element as HTMLElement);
    const order = (ids: string[]) => ids.map((id) => positions.get(id)).map((p) => [p?.y ?? 0, p?.x ?? 0] as const);
    // Drawn in reading order: band by band, left to right.
    const drawn = order(drawnIds(canvas));
    expect(drawn).toEqual([...drawn].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    expect(drawnIds(canvas)).not.toContain('dep-59');
    // Tab as the browser does it: the next focusable card in document order, each time.
    const reached = new Set<string>();
    let current = cards()[0];
    for (let step = 0; current && step < nodes.length; step += 1) {
      current.focus();
      await nextTick();
      expect(document.activeElement).toBe(current);
      reached.add(current.getAttribute('data-id') ?? '');
      const now = cards();
      current = now[now.indexOf(current) + 1];
    }
    expect(reached.size).toBe(nodes.length);
    expect(reached).toContain('dep-59');
    // The view followed: the last card is drawn, the first no longer.
    expect(drawnIds(canvas)).not.toContain('dep-0');
    canvas.unmount();
  });

  it('a small graph is drawn whole whatever the view', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(300);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(120);
    const canvas = mount(GraphCanvas, { props: { nodes: GRAPH.nodes, edges: GRAPH.edges, selectedId: null, fitKey: 'shop' }, attachTo: document.body });
    await nextTick();
    await canvas.get('svg').trigger('wheel', { deltaX: 0, deltaY: 2_000 });
    await nextTick();
    expect(drawnIds(canvas)).toHaveLength(GRAPH.nodes.length);
    canvas.unmount();
  });
});
