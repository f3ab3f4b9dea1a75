/**
 * Band labels that fit their band. A markArea label (a gap nobody observed, a rollout) asks for
 * `overflow: 'truncate'`, but ECharts truncates only to a width in pixels, which the option's
 * builder cannot know: it depends on the chart's size and on the zoom. Without one, a label wider
 * than its band ran over the lines beside it and off the plot's edge, where the chart cut it
 * ("t recording: history had not started …" at a window's start, a last rollout's image at its
 * end). BaseChart measures each such band's visible part once the chart is laid out, and sets
 * the label's width to it, cut with an ellipsis; a band too narrow for a few characters shows
 * none. What is cut is said elsewhere on the screen: a gap's reason and times in the notes above
 * the charts (and the timeline's tooltip), a rollout's image in the episode list.
 */
import type { ChartInstance, ChartOption } from './echarts.ts';

/** The label's inset from its band's edges: ECharts' default `distance` for inside positions. */
const LABEL_INSET_PX = 5;
/** Narrower than this, a label would be an ellipsis and little else: none is shown. */
export const MIN_LABEL_PX = 24;

/** How a chart turns an x value into pixels, and which pixels its x axis spans. */
export interface XPixels {
  /** The pixel of `value` on x axis `axisIndex`, or null when the axis cannot say. */
  toPixel(axisIndex: number, value: number): number | null;
  /** The pixel range x axis `axisIndex` covers (the plot's left and right edge), or null. */
  extent(axisIndex: number): [number, number] | null;
}

type Item = { xAxis?: unknown; label?: Record<string, unknown> } & Record<string, unknown>;
type Series = { xAxisIndex?: number; markArea?: { data?: unknown[] } & Record<string, unknown> };

/** An option's series as a list (ECharts takes one series or an array). */
const seriesOf = (option: ChartOption): object[] => (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as object[];

/** Whether a band's start item asks for its label to be cut to the band. */
const fits = (item: Item): boolean => item.label?.['overflow'] === 'truncate' && item.label['show'] !== false && item.label['width'] === undefined;

/** The visible width in pixels of the band [start, end] on axis `axisIndex`, or null. */
function bandPixels(start: unknown, end: unknown, axisIndex: number, pixels: XPixels): number | null {
  if (typeof start !== 'number' || typeof end !== 'number') return null;
  const extent = pixels.extent(axisIndex);
  const from = pixels.toPixel(axisIndex, start);
  const to = pixels.toPixel(axisIndex, end);
  if (!extent || from === null || to === null) return null;
  const [low, high] = extent[0] <= extent[1] ? extent : [extent[1], extent[0]];
  const left = Math.max(low, Math.min(from, to));
  const right = Math.min(high, Math.max(from, to));
  return Math.max(0, right - left);
}

/**
 * For each series with band labels to fit, its markArea data with every such label's width set
 * to its band's visible part (or hidden when too narrow); `undefined` for the other series.
 * Returns null when nothing is to be fitted.
 */
export function fitBandLabels(option: ChartOption, pixels: XPixels): Array<{ markArea: { data: unknown[] } } | undefined> | null {
  let fitted = false;
  const patches = (seriesOf(option) as Series[]).map((entry) => {
    const data = entry.markArea?.data;
    if (!data || !data.some((pair) => Array.isArray(pair) && fits(pair[0] as Item))) return undefined;
    const axisIndex = entry.xAxisIndex ?? 0;
    const out = data.map((pair) => {
      if (!Array.isArray(pair)) return pair;
      const [start, end] = pair as [Item, Item];
      if (!fits(start)) return pair;
      const px = bandPixels(start.xAxis, end.xAxis, axisIndex, pixels);
      if (px === null) return pair;
      fitted = true;
      const width = Math.floor(px - 2 * LABEL_INSET_PX);
      const label = width < MIN_LABEL_PX ? { ...start.label, show: false } : { ...start.label, width, ellipsis: '…' };
      return [{ ...start, label }, end];
    });
    return { markArea: { data: out } };
  });
  return fitted ? patches : null;
}

/** What a band's label was fitted to: its width, '-' when hidden, '' when left alone. */
function fittedWidth(pair: unknown): string {
  if (!Array.isArray(pair)) return '';
  const label = (pair[0] as Item).label;
  return label?.['show'] === false ? '-' : String(label?.['width'] ?? '');
}

/** A stable key of the widths a patch sets: a chart re-fits only when one of them changed. */
export function fittedKey(patches: ReadonlyArray<{ markArea: { data: unknown[] } } | undefined>): string {
  return patches.map((patch) => (patch ? patch.markArea.data.map(fittedWidth).join(',') : '')).join('|');
}

/** Pixels of a chart's x axes as laid out now (an axis' span on the chart, from its model: ECharts has no public call for it). */
export function chartPixels(instance: ChartInstance): XPixels {
  return {
    toPixel: (axisIndex, value) => {
      const px = instance.convertToPixel({ xAxisIndex: axisIndex }, value) as unknown;
      return typeof px === 'number' && Number.isFinite(px) ? px : null;
    },
    extent: (axisIndex) => {
      const model = (instance as unknown as { getModel(): { getComponent(type: string, index: number): { axis?: { getGlobalExtent?(): [number, number] } } | undefined } }).getModel();
      const extent = model.getComponent('xAxis', axisIndex)?.axis?.getGlobalExtent?.();
      return extent && Number.isFinite(extent[0]) && Number.isFinite(extent[1]) ? extent : null;
    },
  };
}

/**
 * Fits `option`'s band labels to `instance` as laid out now, merging the widths into the chart
 * when they differ from the `previous` fit (a key from fittedKey; '' after a new option). Returns
 * the key of the widths now in the chart: called again after the merge's own render, it merges
 * nothing, so a chart settles after one extra render.
 */
export function fitChartBandLabels(instance: ChartInstance, option: ChartOption, previous: string, lazyUpdate = true): string {
  const patches = fitBandLabels(option, chartPixels(instance));
  if (!patches) return previous;
  const key = fittedKey(patches);
  if (key !== previous) instance.setOption({ series: patches.map((patch) => patch ?? {}) } as ChartOption, { lazyUpdate });
  return key;
}

/**
 * `option` with its band labels fitted to `instance`'s current layout before it is drawn, and the
 * key of those widths. A chart redrawn with a new option for the same window (a live refresh
 * every few seconds) keeps its labels fitted from the first frame, instead of drawing them whole
 * for one frame and fitting them in a second render.
 */
export function fittedOption(instance: ChartInstance, option: ChartOption): { option: ChartOption; key: string } {
  const patches = fitBandLabels(option, chartPixels(instance));
  if (!patches) return { option, key: '' };
  return { option: { ...option, series: seriesOf(option).map((entry, i) => {
    const patch = patches[i];
    return patch ? { ...entry, markArea: { ...(entry as { markArea?: object }).markArea, ...patch.markArea } } : entry;
  }) } as ChartOption, key: fittedKey(patches) };
}
