/**
 * The labels of the history charts' bands (a gap nobody observed, a rollout) stay inside their
 * band: drawn by ECharts itself (server-side SVG, the renderer the app uses) and fitted as
 * BaseChart fits them, each label's text box, measured the way ECharts lays it out, must lie
 * within its band's visible part. A gap at the window's start and a rollout near its end are the
 * cases users saw cut off at the plot's edge ("t recording: history had not started …").
 */
import * as echarts from 'echarts/core';
import { describe, expect, it } from 'vitest';
import { getWidth } from 'zrender/lib/contain/text.js';
import type { CoverageGap, SeriesResult } from '../../../../shared/contracts/history.ts';
import { chartPixels, fitBandLabels, fitChartBandLabels, fittedOption, MIN_LABEL_PX } from '../../../../renderer/components/charts/band-labels.ts';
import { LIGHT_CHART_THEME } from '../../../../renderer/components/charts/chart-theme.ts';
import { buildDriftCountOption } from '../../../../renderer/components/charts/drift-count-option.ts';
// The app's ECharts assembly (its charts, components and SVG renderer), registered as the app does.
import '../../../../renderer/components/charts/echarts.ts';
import type { ChartInstance, ChartOption } from '../../../../renderer/components/charts/echarts.ts';
import { buildSeriesOption } from '../../../../renderer/components/charts/workload-option.ts';
import { MINUTE, stuckRollout, T0 } from './fixtures.ts';

const WIDTH = 900;
const HEIGHT = 320;
const NOW = T0 + 60 * MINUTE;

interface DrawnText {
  text: string;
  left: number;
  right: number;
}

const attribute = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Every text in an SVG ECharts drew, with its horizontal extent as ECharts measures it. */
function drawnTexts(svg: string): DrawnText[] {
  return [...svg.matchAll(/(<text\b[^>]*>)([^<]*)<\/text>/g)].map(([, tag = '', text = '']) => {
    const style = attribute(tag, 'style') ?? '';
    const size = /font-size:([\d.]+)px/.exec(style)?.[1] ?? '12';
    const family = /font-family:([^;]+)/.exec(style)?.[1] ?? 'sans-serif';
    const translate = /translate\(([-\d.]+)[ ,]/.exec(attribute(tag, 'transform') ?? '')?.[1] ?? '0';
    const x = Number(translate) + Number(attribute(tag, 'x') ?? 0);
    const width = getWidth(text, `${size}px ${family}`);
    const anchor = attribute(tag, 'text-anchor') ?? 'start';
    const left = anchor === 'middle' ? x - width / 2 : anchor === 'end' ? x - width : x;
    return { text, left, right: left + width };
  });
}

/** Draws `option` as BaseChart does (fitted once laid out); calls `check` with the chart and the texts drawn. */
function draw(option: ChartOption, check: (chart: ChartInstance, texts: DrawnText[]) => void): void {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: HEIGHT });
  try {
    chart.setOption(option);
    const fitted = fitChartBandLabels(chart, option, '', false);
    // A second look at the same layout merges nothing: the chart settles.
    expect(fitChartBandLabels(chart, option, fitted, false)).toBe(fitted);
    check(chart, drawnTexts(chart.renderToSVGString()));
  } finally {
    chart.dispose();
  }
}

/** Each label matching `match` lies within the band [start, end] (its visible part) it belongs to. */
function expectWithinBands(chart: ChartInstance, texts: DrawnText[], bands: ReadonlyArray<{ match: RegExp; start: number; end: number }>, axisIndex = 0): void {
  const pixels = chartPixels(chart);
  const [low, high] = pixels.extent(axisIndex) ?? [0, WIDTH];
  for (const band of bands) {
    const labels = texts.filter((drawn) => band.match.test(drawn.text));
    expect(labels, `a label ${String(band.match)}`).toHaveLength(1);
    const [label] = labels as [DrawnText];
    const left = Math.max(low, pixels.toPixel(axisIndex, band.start) ?? low);
    const right = Math.min(high, pixels.toPixel(axisIndex, band.end) ?? high);
    expect(label.left, `"${label.text}" starts left of its band`).toBeGreaterThanOrEqual(left - 0.5);
    expect(label.right, `"${label.text}" ends right of its band`).toBeLessThanOrEqual(right + 0.5);
  }
}

describe('band labels', () => {
  it('fits the drift count chart’s gap labels to their bands, at the window’s start and end', () => {
    const gaps: CoverageGap[] = [
      // History began a few minutes into the window; the connection was lost near its end.
      { start: T0 - 30 * MINUTE, end: T0 + 15 * MINUTE, reason: 'not-yet' },
      { start: T0 + 50 * MINUTE, end: NOW, reason: 'connection-lost' },
    ];
    const option = buildDriftCountOption([[T0 + 15 * MINUTE, 2], [T0 + 30 * MINUTE, 0]], LIGHT_CHART_THEME, { range: { from: T0, to: NOW }, now: NOW, plot: { left: 60, right: 20 }, gaps });
    draw(option, (chart, texts) => {
      expectWithinBands(chart, texts, [
        { match: /^not recording: history/, start: gaps[0]!.start, end: gaps[0]!.end },
        { match: /^not recording: c/, start: gaps[1]!.start, end: gaps[1]!.end },
      ]);
      // Cut, not dropped: the start of the reason stays, an ellipsis says there is more.
      expect(texts.find((drawn) => drawn.text.startsWith('not recording: history'))?.text).toMatch(/…$/);
    });
  });

  it('fits a workload chart’s rollout and gap labels, the last rollout’s at the window’s end too', () => {
    const base = stuckRollout();
    const last = { generation: 9, start: base.to - 2 * MINUTE, end: null, image: 'registry.example.com/team/payments-api:v2.31.4-rc1' };
    const result: SeriesResult = { ...base, gaps: [{ start: base.from - 10 * MINUTE, end: base.from + 3 * MINUTE, reason: 'not-yet' }], rollouts: [...base.rollouts, last] };
    draw(buildSeriesOption(result, LIGHT_CHART_THEME, { now: base.to }), (chart, texts) => {
      expectWithinBands(chart, texts, [
        { match: /^not recording/, start: base.from - 10 * MINUTE, end: base.from + 3 * MINUTE },
        { match: /^gen 5 /, start: base.rollouts[0]!.start, end: base.rollouts[0]!.end! },
        { match: /^gen 9 /, start: last.start, end: base.to },
      ]);
      // A band wide enough keeps its whole label.
      expect(texts.some((drawn) => drawn.text === 'gen 5 · payments-api:broken')).toBe(true);
    });
  });

  it('draws a new option for the same window fitted from its first frame, with nothing left to merge', () => {
    const base = stuckRollout();
    const result: SeriesResult = { ...base, gaps: [{ start: base.from - 10 * MINUTE, end: base.from + 3 * MINUTE, reason: 'not-yet' }] };
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height: HEIGHT });
    try {
      chart.setOption(buildSeriesOption(result, LIGHT_CHART_THEME, { now: base.to }));
      // A live refresh: the same window, a new option object (built again from the same data).
      const again = buildSeriesOption(result, LIGHT_CHART_THEME, { now: base.to });
      const drawn = fittedOption(chart, again);
      chart.setOption(drawn.option, { notMerge: true });
      expectWithinBands(chart, drawnTexts(chart.renderToSVGString()), [{ match: /^not recording/, start: base.from - 10 * MINUTE, end: base.from + 3 * MINUTE }]);
      expect(fitChartBandLabels(chart, again, drawn.key, false)).toBe(drawn.key);
      // The series keeps the rest of its markArea (silent bands) and the option object given is not changed.
      const series = (drawn.option as unknown as { series: Array<{ markArea?: { silent?: boolean } }> }).series;
      expect(series.filter((entry) => entry.markArea).every((entry) => entry.markArea?.silent === true)).toBe(true);
      expect(JSON.stringify(again)).toBe(JSON.stringify(buildSeriesOption(result, LIGHT_CHART_THEME, { now: base.to })));
    } finally {
      chart.dispose();
    }
  });

  it('hides the label of a band too narrow for a few characters, and leaves bands that ask for nothing as they are', () => {
    const gaps: CoverageGap[] = [{ start: T0 + 30 * MINUTE, end: T0 + 30 * MINUTE + 20_000, reason: 'app-closed' }];
    const option = buildDriftCountOption([[T0, 2]], LIGHT_CHART_THEME, { range: { from: T0, to: NOW }, now: NOW, plot: { left: 60, right: 20 }, gaps });
    const pixels = { toPixel: (_axis: number, value: number) => 60 + ((value - T0) / (NOW - T0)) * 820, extent: (): [number, number] => [60, 880] };
    const patches = fitBandLabels(option, pixels);
    const count = patches?.find((patch) => patch !== undefined);
    const [start] = count?.markArea.data[0] as [{ label: { show?: boolean; width?: number } }];
    expect(start.label.show).toBe(false);
    // Wider, the same gap gets a width: its band's pixels less the label's inset on each side.
    const wide = fitBandLabels(option, { ...pixels, toPixel: (_axis, value) => (value === gaps[0]!.start ? 100 : value === gaps[0]!.end ? 100 + MIN_LABEL_PX + 40 : 0) });
    const [widened] = wide?.find((patch) => patch !== undefined)?.markArea.data[0] as [{ label: { show?: boolean; width?: number } }];
    expect(widened.label).toMatchObject({ width: MIN_LABEL_PX + 30 });
    expect(widened.label.show).not.toBe(false);
    // The chosen episode's band on the replica chart has no label to fit: its item is not touched.
    const base = stuckRollout();
    const workload = buildSeriesOption(base, LIGHT_CHART_THEME, { now: base.to, selectedEpisode: base.episodes[0]!.id }) as unknown as { series: Array<{ markArea?: { data: unknown[][] } }> };
    const bands = workload.series.find((series) => series.markArea?.data.length === 2)!.markArea!.data;
    const fitted = fitBandLabels(workload as unknown as ChartOption, pixels)!.find((patch) => patch !== undefined)!.markArea.data;
    expect(fitted[1]).toBe(bands[1]);
    expect(fitted[0]).not.toBe(bands[0]);
    // Nothing asks to be fitted: nothing to do.
    expect(fitBandLabels(buildDriftCountOption([[T0, 2]], LIGHT_CHART_THEME, { range: { from: T0, to: NOW }, now: NOW, plot: { left: 60, right: 20 } }), pixels)).toBeNull();
  });
});
