// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ExportPngButton from '../../../renderer/components/export/ExportPngButton.vue';
import { MAX_PIXELS, MAX_SIDE, pixelScale, svgPicture, svgToPngDataUrl } from '../../../renderer/components/export/svg-png.ts';

/** A small stand-in for the graph: its styles come only from classes and theme variables. */
const STYLES = `
  :root { --kd-bg: #15191f; --kd-surface-raised: #242b35; --kd-border-strong: #3a4451; --kd-accent: #1f8fb3; --kd-text-faint: #6b7684; --kd-font: Inter, sans-serif; }
  .graph-canvas { background-color: var(--kd-bg); }
  .surface { font-family: var(--kd-font); }
  .column-title { fill: var(--kd-text-faint); font-size: 11px; font-weight: 600; text-transform: uppercase; }
  .card { fill: var(--kd-surface-raised); stroke: var(--kd-border-strong); stroke-width: 1; }
  .edge { fill: none; stroke: var(--kd-text-faint); stroke-width: 1.3; opacity: 0.75; }
  .edge.selects { stroke: var(--kd-accent); stroke-dasharray: 5 4; }
  .dimmed { opacity: 0.32; }
  .hidden { display: none; }
`;

const GRAPH = `
  <div class="graph-canvas">
    <svg class="surface" width="640" height="400">
      <g transform="translate(120 40) scale(0.5)" data-png-viewport>
        <text class="column-title" x="2" y="12">Workloads</text>
        <path class="edge selects" d="M0 0L50 50" />
        <g class="node dimmed" style="transform: translate(40px, 8px);"><title>Deployment shop/web</title><rect class="card" width="200" height="48" /></g>
        <rect class="hidden" width="5" height="5" />
      </g>
    </svg>
  </div>`;

function render(html: string): SVGSVGElement {
  document.head.innerHTML = `<style>${STYLES}</style>`;
  document.body.innerHTML = html;
  return document.querySelector('svg') as SVGSVGElement;
}

/** The picture's SVG parsed back, as an image would read it (no stylesheet). */
function parse(text: string): Document {
  return new DOMParser().parseFromString(text, 'image/svg+xml');
}

function bbox(box: { x: number; y: number; width: number; height: number }): void {
  vi.spyOn(SVGGraphicsElement.prototype, 'getBBox').mockImplementation(() => ({ ...box, top: box.y, left: box.x, right: box.x + box.width, bottom: box.y + box.height, toJSON: () => box }) as DOMRect);
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('svgPicture', () => {
  it('writes the classes\' computed colours, strokes, fonts and opacity inline, variables resolved', () => {
    bbox({ x: -12, y: 0, width: 500, height: 300 });
    const doc = parse(svgPicture(render(GRAPH)).text);
    const style = (selector: string) => doc.querySelector(selector)?.getAttribute('style') ?? '';
    expect(style('svg')).toMatch(/font-family: Inter, sans-serif/);
    expect(style('rect.card')).toMatch(/fill: #242b35/);
    expect(style('rect.card')).toMatch(/stroke: #3a4451/);
    expect(style('rect.card')).toMatch(/stroke-width: 1(px)?(;|$)/);
    expect(style('path.edge')).toMatch(/stroke: #1f8fb3/);
    expect(style('path.edge')).toMatch(/stroke-dasharray: 5(px)?,? 4/);
    expect(style('path.edge')).toMatch(/fill: none/);
    expect(style('path.edge')).toMatch(/opacity: 0\.75/);
    expect(style('g.node')).toMatch(/^transform: translate\(40px, 8px\); .*opacity: 0\.32/);
    expect(style('text.column-title')).toMatch(/fill: #6b7684.*font-size: 11px.*font-weight: 600/);
    expect(style('rect.hidden')).toMatch(/display: none/);
    // Inherited values are written once, where they change.
    expect(style('text.column-title')).not.toMatch(/font-family/);
    expect(doc.querySelector('text.column-title')?.textContent).toBe('WORKLOADS');
    expect(doc.querySelector('title')).toBeNull();
  });

  it('draws the whole content at scale 1, padded, on the background behind the SVG', () => {
    bbox({ x: -12, y: 0, width: 500, height: 300 });
    const picture = svgPicture(render(GRAPH));
    const svg = parse(picture.text).documentElement;
    expect(svg.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(svg.getAttribute('viewBox')).toBe('-28 -16 532 332');
    expect([picture.width, picture.height]).toEqual([532, 332]);
    expect([svg.getAttribute('width'), svg.getAttribute('height')]).toEqual(['532', '332']);
    expect(svg.querySelector('[data-png-viewport]')?.hasAttribute('transform')).toBe(false);
    const background = svg.firstElementChild;
    expect(background?.hasAttribute('data-png-background')).toBe(true);
    expect([background?.getAttribute('x'), background?.getAttribute('y'), background?.getAttribute('width'), background?.getAttribute('height')]).toEqual(['-28', '-16', '532', '332']);
    expect(background?.getAttribute('fill')).toBe('#15191f');
    expect(svgPicture(render(GRAPH), { backgroundColor: '#ffffff' }).text).toContain('fill="#ffffff"');
  });

  it('keeps the view as on screen when the content cannot be measured or there is no viewport', () => {
    bbox({ x: 0, y: 0, width: 0, height: 0 });
    const picture = svgPicture(render(GRAPH));
    expect([picture.width, picture.height]).toEqual([640, 400]);
    expect(parse(picture.text).querySelector('[data-png-viewport]')?.getAttribute('transform')).toBe('translate(120 40) scale(0.5)');
    const plain = svgPicture(render('<svg width="120" height="40"><rect class="card" width="10" height="10"/></svg>'));
    expect([plain.width, plain.height]).toEqual([120, 40]);
    expect(parse(plain.text).documentElement.getAttribute('viewBox')).toBe('0 0 120 40');
  });
});

describe('pixelScale', () => {
  it('keeps the pixel ratio for ordinary pictures and shrinks huge ones into a valid canvas', () => {
    expect(pixelScale(1200, 800, 2)).toBe(2);
    const wide = pixelScale(40_000, 900, 2);
    expect(Math.round(40_000 * wide)).toBeLessThanOrEqual(MAX_SIDE);
    const big = pixelScale(9_000, 9_000, 2);
    expect(9_000 * big * 9_000 * big).toBeLessThanOrEqual(MAX_PIXELS * 1.0001);
    expect(big).toBeGreaterThan(0.5);
  });
});

/** A canvas and an Image that record what is drawn; `encoded` is what toDataURL answers. */
function fakeDrawing(encoded: string, loads = true): { drawn: Array<{ width: number; height: number; fill: string }> } {
  const drawn: Array<{ width: number; height: number; fill: string }> = [];
  class FakeImage {
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    set src(_url: string) {
      setTimeout(() => (loads ? this.onload?.() : this.onerror?.()), 0);
    }
  }
  vi.stubGlobal('Image', FakeImage);
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:picture');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    const size = (): { width: number; height: number } => ({ width: this.width, height: this.height });
    const context = { fillStyle: '', fillRect: () => drawn.push({ ...size(), fill: context.fillStyle }), drawImage: () => {} };
    return context as unknown as CanvasRenderingContext2D;
  } as unknown as HTMLCanvasElement['getContext']);
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue(encoded);
  return { drawn };
}

describe('svgToPngDataUrl', () => {
  it('draws the picture at the pixel ratio on the background, and frees its blob URL', async () => {
    bbox({ x: -12, y: 0, width: 500, height: 300 });
    const { drawn } = fakeDrawing('data:image/png;base64,AAAA');
    expect(await svgToPngDataUrl(render(GRAPH), { pixelRatio: 2 })).toBe('data:image/png;base64,AAAA');
    expect(drawn).toEqual([{ width: 1064, height: 664, fill: '#15191f' }]);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:picture');
  });

  it('says so when the browser cannot render or encode the picture', async () => {
    bbox({ x: 0, y: 0, width: 500, height: 300 });
    fakeDrawing('data:,');
    await expect(svgToPngDataUrl(render(GRAPH))).rejects.toThrow(/too large for this window to encode/);
    vi.restoreAllMocks();
    fakeDrawing('data:image/png;base64,AAAA', false);
    await expect(svgToPngDataUrl(render(GRAPH))).rejects.toThrow(/could not be drawn/);
  });
});

describe('ExportPngButton', () => {
  it('names the file after the moment shown, and turns red with the reason when saving fails', async () => {
    fakeDrawing('data:image/png;base64,AAAA'); // (and the blob URLs of the download)
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { names.push(this.download); });
    const chart = { getDataURL: () => 'data:image/png;base64,AAAA', getWidth: () => 10, getHeight: () => 10 };
    const past = new Date(2024, 4, 1, 9, 5).getTime();
    const wrapper = mount(ExportPngButton, { props: { source: () => chart, subject: 'cluster-graph', at: past } });
    await wrapper.trigger('click');
    await flushPromises();
    expect(names).toEqual(['cluster-graph-2024-05-01-0905.png']);
    expect(wrapper.attributes('data-failed')).toBeUndefined();
    await wrapper.setProps({ source: () => document.createElement('div') });
    await wrapper.trigger('click');
    await flushPromises();
    expect(wrapper.attributes('data-failed')).toBe('');
    expect(wrapper.get('[role="alert"]').text()).toBe('There is no chart here to save');
    wrapper.unmount();
  });
});
