/** The look every history chart shares: axes, tooltips, zoom slider, cursor lines. */
import type { ChartTheme } from './chart-theme.ts';

/**
 * Time labels by the level ECharts picks for the visible span (it re-picks on zoom): seconds
 * only when ticks are seconds apart, the day only where it changes. 24-hour, local time.
 */
const TIME_LABELS = {
  year: '{yyyy}',
  month: '{MMM} {yyyy}',
  day: '{MMM} {d}',
  hour: '{HH}:{mm}',
  minute: '{HH}:{mm}',
  second: '{HH}:{mm}:{ss}',
  millisecond: '{HH}:{mm}:{ss}',
};

/** Text for tooltip HTML: Events carry user-controlled messages. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function tooltipStyle(theme: ChartTheme): Record<string, unknown> {
  return {
    backgroundColor: theme.raised,
    borderColor: theme.border,
    borderWidth: 1,
    padding: [6, 9],
    textStyle: { color: theme.text, fontFamily: theme.font, fontSize: 12 },
    extraCssText: `box-shadow: 0 8px 24px rgba(0,0,0,${theme.dark ? 0.45 : 0.14}); border-radius: 6px; max-width: 420px; white-space: normal;`,
    confine: true,
  };
}

/** A time x axis over `from`..`to`; labels only where `labels` (the bottom grid). */
export function timeAxis(theme: ChartTheme, options: { gridIndex: number; from: number; to: number; labels: boolean }): Record<string, unknown> {
  return {
    type: 'time',
    gridIndex: options.gridIndex,
    min: options.from,
    max: options.to,
    axisLine: { lineStyle: { color: theme.border } },
    axisTick: { show: options.labels, lineStyle: { color: theme.border } },
    axisLabel: { show: options.labels, color: theme.faint, fontSize: 11, hideOverlap: true, formatter: TIME_LABELS },
    splitLine: { show: true, lineStyle: { color: theme.border, opacity: 0.5 } },
  };
}

/** A count y axis (whole numbers from 0). */
export function countAxis(theme: ChartTheme, options: { gridIndex: number; name?: string; min?: number | ((extent: { min: number }) => number) }): Record<string, unknown> {
  return {
    type: 'value',
    gridIndex: options.gridIndex,
    min: options.min ?? 0,
    minInterval: 1,
    name: options.name,
    nameLocation: 'end',
    nameGap: 8,
    nameTextStyle: { color: theme.faint, fontSize: 11, align: 'left' },
    axisLabel: { color: theme.faint, fontSize: 11 },
    splitNumber: 3,
    splitLine: { lineStyle: { color: theme.border, opacity: 0.6 } },
  };
}

/** The slider under the chart and wheel/drag zoom inside it, over the given x axes. */
export function zoomControls(theme: ChartTheme, xAxisIndex: number[], window: { from: number; to: number } | null, slider: boolean): Array<Record<string, unknown>> {
  const range = window ? { startValue: window.from, endValue: window.to } : { start: 0, end: 100 };
  const inside = { type: 'inside', xAxisIndex, filterMode: 'none', ...range };
  if (!slider) return [inside];
  return [
    inside,
    {
      type: 'slider',
      xAxisIndex,
      filterMode: 'none',
      bottom: 6,
      height: 18,
      borderColor: theme.border,
      backgroundColor: 'transparent',
      fillerColor: theme.accentSoft,
      dataBackground: { lineStyle: { color: theme.faint, opacity: 0.5 }, areaStyle: { color: theme.faint, opacity: 0.08 } },
      selectedDataBackground: { lineStyle: { color: theme.accent }, areaStyle: { color: theme.accent, opacity: 0.12 } },
      handleStyle: { color: theme.surface, borderColor: theme.accent },
      moveHandleStyle: { color: theme.accent, opacity: 0.35 },
      textStyle: { color: theme.faint, fontSize: 10 },
      labelFormatter: () => '',
      ...range,
    },
  ];
}

/** A vertical marker line at `at` with a label on top. */
export function cursorLine(at: number, color: string, label: string, dashed = false): Record<string, unknown> {
  return {
    xAxis: at,
    lineStyle: { color, width: 1.5, type: dashed ? 'dashed' : 'solid' },
    label: { show: label !== '', formatter: label, position: 'end', color, fontSize: 11, fontWeight: 600 },
  };
}
