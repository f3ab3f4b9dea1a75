/**
 * A controller card's sparkline as a pure function: occurrences per bucket over the range as a
 * filled line, the Warning share of them in the danger colour on top. No axes: the card says
 * the range; the tooltip gives each bucket's time and counts.
 */
import type { ControllerSummary, ControllersResult } from '../../../shared/contracts/events.ts';
import { escapeHtml, tooltipStyle } from '../../components/charts/chart-style.ts';
import type { ChartTheme } from '../../components/charts/chart-theme.ts';
import type { ChartOption } from '../../components/charts/echarts.ts';
import { formatMoment } from '../../components/charts/time-format.ts';
import { formatCount } from '../../components/events/event-format.ts';

type Range = Pick<ControllersResult, 'from' | 'to' | 'bucketMs'>;

/** [bucket middle, value] points of a per-bucket series. */
export function bucketPoints(values: readonly number[], range: Range): Array<[number, number]> {
  return values.map((value, index) => [range.from + (index + 0.5) * range.bucketMs, value]);
}

function areaSeries(id: string, name: string, data: Array<[number, number]>, color: string, opacity: number): Record<string, unknown> {
  return { id, name, type: 'line', showSymbol: false, data, lineStyle: { color, width: 1.4 }, itemStyle: { color }, areaStyle: { color, opacity } };
}

export function buildSparklineOption(summary: ControllerSummary, range: Range, theme: ChartTheme): ChartOption {
  const peak = Math.max(1, ...summary.rate);
  return {
    animation: false,
    textStyle: { fontFamily: theme.font },
    grid: { left: 1, right: 1, top: 3, bottom: 1 },
    xAxis: { type: 'time', show: false, min: range.from, max: range.to },
    yAxis: { type: 'value', show: false, min: 0, max: peak * 1.08 },
    tooltip: {
      ...tooltipStyle(theme),
      trigger: 'axis',
      axisPointer: { type: 'line', lineStyle: { color: theme.faint } },
      formatter: (params: unknown) => {
        const items = (Array.isArray(params) ? params : [params]) as Array<{ seriesId?: string; value?: [number, number] }>;
        const at = items[0]?.value?.[0];
        if (at === undefined) return '';
        const count = (id: string) => items.find((item) => item.seriesId === id)?.value?.[1] ?? 0;
        const start = at - range.bucketMs / 2;
        return `<div style="font-size:11px;opacity:.7">${escapeHtml(formatMoment(start))} – ${escapeHtml(formatMoment(start + range.bucketMs))}</div><b>${formatCount(count('all'))}</b> events · <span style="color:${theme.danger}">${formatCount(count('warnings'))} Warning</span>`;
      },
    },
    series: [
      areaSeries('all', 'Events', bucketPoints(summary.rate, range), theme.accent, theme.dark ? 0.2 : 0.14),
      // A flat Warning line would paint the baseline red: only drawn when there are some.
      ...(summary.warningRate.some((v) => v > 0) ? [areaSeries('warnings', 'Warnings', bucketPoints(summary.warningRate, range), theme.danger, theme.dark ? 0.22 : 0.16)] : []),
    ],
  } as ChartOption;
}
