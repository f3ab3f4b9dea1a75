// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pngFileName, svgDataUrl, toPngDataUrl, type ChartLike } from '../../../renderer/components/export/chart-png.ts';
import { fromBase64, toBase64 } from '../../../renderer/components/export/download.ts';
import ExportPngButton from '../../../renderer/components/export/ExportPngButton.vue';

const PNG = `data:image/png;base64,${btoa('\x89PNG-bytes')}`;

function chart(url: string): ChartLike & { calls: unknown[] } {
  const calls: unknown[] = [];
  return { calls, getDataURL: (options) => (calls.push(options), url), getWidth: () => 400, getHeight: () => 200 };
}

afterEach(() => vi.restoreAllMocks());

describe('PNG export', () => {
  it('takes ECharts\' own PNG with a background and without the zoom slider', async () => {
    const source = chart(PNG);
    expect(await toPngDataUrl(source, { backgroundColor: '#15191f', pixelRatio: 2 })).toBe(PNG);
    expect(source.calls).toEqual([{ type: 'png', pixelRatio: 2, backgroundColor: '#15191f', excludeComponents: ['dataZoom', 'toolbox'] }]);
  });

  it('serialises an SVG element standalone, with its size', () => {
    document.body.innerHTML = '<svg width="120" height="40"><rect width="10" height="10"/></svg>';
    const { url, width, height } = svgDataUrl(document.querySelector('svg') as SVGSVGElement);
    expect([width, height]).toEqual([120, 40]);
    expect(decodeURIComponent(url)).toMatch(/^data:image\/svg\+xml;charset=utf-8,<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*><rect/);
  });

  it('names the file after the subject and the local time', () => {
    expect(pngFileName('shop/frontend replicas', new Date(2024, 4, 1, 9, 5))).toBe('shop-frontend-replicas-2024-05-01-0905.png');
  });

  it('round-trips bytes through base64', () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => i % 251);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
  });

  it('saves the chart from the button, and says so when there is nothing to save', async () => {
    const names: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    let source: ChartLike | null = null;
    const wrapper = mount(ExportPngButton, { props: { source: () => source, subject: 'drift' } });
    await wrapper.trigger('click');
    await flushPromises();
    expect(wrapper.attributes('title')).toBe('There is no chart to save yet');
    source = chart(PNG);
    await wrapper.trigger('click');
    await flushPromises();
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^drift-\d{4}-\d\d-\d\d-\d{4}\.png$/);
    wrapper.unmount();
  });
});
