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

export function buildSparklineOption(summary: ControllerSummary, range: Range, theme: ChartTheme): ChartOption {
  const peak = Math.max(1, ...summary.rate);
  const area = (color: string, opacity: number) => ({ color, opacity });
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
      {
        id: 'all',
        name: 'Events',
        type: 'line',
        showSymbol: false,
        data: bucketPoints(summary.rate, range),
        lineStyle: { color: theme.accent, width: 1.5 },
        itemStyle: { color: theme.accent },
        areaStyle: area(theme.accent, theme.dark ? 0.2 : 0.14),
      },
      {
        id: 'warnings',
        name: 'Warnings',
        type: 'line',
        showSymbol: false,
        data: bucketPoints(summary.warningRate, range),
        lineStyle: { color: theme.danger, width: 1.2 },
        itemStyle: { color: theme.danger },
        areaStyle: area(theme.danger, theme.dark ? 0.22 : 0.16),
      },
    ],
  } as ChartOption;
}
