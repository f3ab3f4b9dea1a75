/**
 * The report's charts: ECharts rendered to SVG strings on the server side (no DOM, no canvas),
 * so the HTML file carries them inline and opens anywhere without a network or a script.
 * Animation is off: a server-side render is a single frame.
 */
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkAreaComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { Point, SeriesName } from '../../../../shared/contracts/history.ts';

echarts.use([LineChart, GridComponent, LegendComponent, MarkAreaComponent, SVGRenderer]);

export const CHART_COLORS = { desired: '#5470c6', ready: '#3ba272', available: '#91cc75', updated: '#fac858', drift: '#ee6666', axis: '#6b7785', grid: '#e4e8ee' } as const;

interface ChartSize {
  width: number;
  height: number;
}

function render(option: echarts.EChartsCoreOption, size: ChartSize): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: size.width, height: size.height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' }, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

const timeAxis = (from: number, to: number) => ({
  type: 'time',
  min: from,
  max: to,
  axisLine: { lineStyle: { color: CHART_COLORS.axis } },
  axisLabel: { color: CHART_COLORS.axis, fontSize: 10, hideOverlap: true },
  splitLine: { show: false },
});

const valueAxis = (name?: string) => ({
  type: 'value',
  minInterval: 1,
  ...(name ? { name, nameTextStyle: { color: CHART_COLORS.axis, fontSize: 10 } } : {}),
  axisLabel: { color: CHART_COLORS.axis, fontSize: 10 },
  splitLine: { lineStyle: { color: CHART_COLORS.grid } },
});

/** The number of drifting workloads over the window, as a step line. */
export function driftCountChart(points: readonly Point[], window: { from: number; to: number }, size: ChartSize = { width: 880, height: 180 }): string {
  return render(
    {
      grid: { left: 44, right: 16, top: 24, bottom: 28 },
      xAxis: timeAxis(window.from, window.to),
      yAxis: valueAxis('drifting'),
      series: [{ type: 'line', step: 'end', symbol: 'none', data: points, lineStyle: { color: CHART_COLORS.drift, width: 2 }, areaStyle: { color: CHART_COLORS.drift, opacity: 0.15 } }],
    },
    size,
  );
}

const WORKLOAD_SERIES: ReadonlyArray<{ name: SeriesName; color: string; dashed?: boolean }> = [
  { name: 'desired', color: CHART_COLORS.desired, dashed: true },
  { name: 'ready', color: CHART_COLORS.ready },
  { name: 'available', color: CHART_COLORS.available },
  { name: 'updated', color: CHART_COLORS.updated },
];

/** One workload's desired vs actual over the window (the recorded series), its drift episodes shaded. */
export function workloadChart(
  recorded: ReadonlyArray<{ name: SeriesName; points: readonly Point[] }>,
  window: { from: number; to: number },
  episodes: ReadonlyArray<{ start: number; end: number | null }>,
  size: ChartSize = { width: 880, height: 200 },
): string {
  const byName = new Map(recorded.map((entry) => [entry.name, entry.points]));
  const shown = WORKLOAD_SERIES.filter((entry) => (byName.get(entry.name) ?? []).some(([, value]) => value !== null));
  const series = shown.map((entry, index) => {
    const points = byName.get(entry.name) ?? [];
    const last = points.at(-1);
    return {
      type: 'line',
      name: entry.name,
      step: 'end',
      symbol: 'none',
      // Held to the window's end: a step chart's last value lasts until something changes it.
      data: last && last[0] < window.to ? [...points, [window.to, last[1]] as Point] : [...points],
      lineStyle: { color: entry.color, width: 2, type: entry.dashed ? 'dashed' : 'solid' },
      itemStyle: { color: entry.color },
      ...(index === 0
        ? { markArea: { silent: true, itemStyle: { color: CHART_COLORS.drift, opacity: 0.12 }, data: episodes.map((episode) => [{ xAxis: Math.max(episode.start, window.from) }, { xAxis: episode.end ?? window.to }]) } }
        : {}),
    };
  });
  return render(
    {
      grid: { left: 44, right: 16, top: 30, bottom: 28 },
      legend: { top: 0, right: 8, itemWidth: 14, itemHeight: 8, textStyle: { fontSize: 11, color: CHART_COLORS.axis } },
      xAxis: timeAxis(window.from, window.to),
      yAxis: valueAxis(),
      series,
    },
    size,
  );
}
