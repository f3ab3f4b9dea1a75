/**
 * The timeline's top chart as a pure function: how many workloads drifted over time (the
 * engine's step series, drawn as a filled step line), with the time-travel cursor and the pinned
 * compare moment as vertical lines. Its plot area lines up with the swimlane's lane column
 * (`plot` gives the margins), so one x position is one time across both.
 *
 * Time nobody observed is shaded and labelled, and the count breaks there (no value, not 0):
 * "0 drifting" is only said of time that was watched. Rollouts inferred from the cluster on
 * connect are hollow dashed markers on the axis, apart from anything observed (the inferred
 * Events are drawn on their workloads' lanes only: an hour of them would bury the axis).
 */
import type { CoverageGap, InferredFact, Point } from '../../../shared/contracts/history.ts';
import { breakAtGaps, gapAreas, gapAt, gapLabel, inferredSeries, timedFacts } from './coverage-marks.ts';
import { countAxis, cursorLine, escapeHtml, timeAxis, tooltipStyle, zoomControls } from './chart-style.ts';
import type { ChartTheme } from './chart-theme.ts';
import type { ChartOption } from './echarts.ts';
import { formatMoment } from './time-format.ts';
import type { TimeRange } from './time-range.ts';

export interface DriftCountView {
  range: TimeRange;
  now: number;
  /** The time-travel cursor. */
  cursor?: number | null;
  /** The moment pinned as A for a comparison. */
  pinned?: number | null;
  /** Left/right margins of the plot area in px (to line up with the swimlane). */
  plot: { left: number; right: number };
  zoom?: TimeRange | null;
  /** The unobserved stretches of the range (`history:episodes` gaps). */
  gaps?: readonly CoverageGap[];
  /** Inferred rollouts of the range. */
  inferred?: readonly InferredFact[];
}

export const DRIFT_COUNT_SERIES_ID = 'drifting';

/** The drift-count chart option (see the file comment). */
export function buildDriftCountOption(points: readonly Point[], theme: ChartTheme, view: DriftCountView): ChartOption {
  const lines: unknown[] = [];
  if (view.pinned !== null && view.pinned !== undefined) lines.push(cursorLine(view.pinned, theme.muted, `A ${formatMoment(view.pinned, view.now)}`, true));
  if (view.cursor !== null && view.cursor !== undefined) lines.push(cursorLine(view.cursor, theme.accent, formatMoment(view.cursor, view.now)));
  const rollouts = timedFacts(view.inferred).filter((fact) => fact.fact === 'rollout');
  return {
    animation: false,
    textStyle: { fontFamily: theme.font },
    grid: { left: view.plot.left, right: view.plot.right, top: 22, bottom: 24 },
    xAxis: timeAxis(theme, { gridIndex: 0, ...view.range, labels: true }),
    yAxis: countAxis(theme, { gridIndex: 0, name: 'drifting workloads' }),
    tooltip: {
      ...tooltipStyle(theme),
      trigger: 'axis',
      axisPointer: { type: 'line', lineStyle: { color: theme.faint } },
      formatter: (params: unknown) => {
        const items = (Array.isArray(params) ? params : [params]) as Array<{ seriesId?: string; axisValue?: number; value?: [number, number | null] }>;
        const item = items.find((entry) => entry.seriesId === DRIFT_COUNT_SERIES_ID) ?? items[0];
        if (!item?.value) return '';
        const at = typeof item.axisValue === 'number' ? item.axisValue : item.value[0];
        const gap = gapAt(view.gaps, at);
        if (gap) return `<div style="font-size:11px;opacity:.7">${escapeHtml(formatMoment(at, view.now))}</div>not recorded: drift unknown<div style="font-size:11px;opacity:.7">${escapeHtml(gapLabel(gap, view.now))}</div>`;
        const count = item.value[1];
        return `<div style="font-size:11px;opacity:.7">${escapeHtml(formatMoment(at, view.now))}</div><b>${count ?? '—'}</b> ${count === 1 ? 'workload' : 'workloads'} drifting`;
      },
    },
    dataZoom: zoomControls(theme, [0], view.zoom ?? null, false),
    series: [
      {
        id: DRIFT_COUNT_SERIES_ID,
        name: 'Drifting workloads',
        type: 'line',
        step: 'end',
        showSymbol: false,
        data: breakAtGaps(points, view.gaps),
        connectNulls: false,
        color: theme.warning,
        lineStyle: { color: theme.warning, width: 1.5 },
        areaStyle: { color: theme.warning, opacity: theme.dark ? 0.22 : 0.16 },
        markLine: { silent: true, symbol: ['none', 'none'], animation: false, data: lines },
        // Silent, so a click in a gap still moves the cursor; the label and the axis tooltip say why.
        markArea: { silent: true, data: gapAreas(view.gaps, theme, view.now) },
      },
      ...(rollouts.length > 0 ? [inferredSeries(rollouts, theme, view.now, { y: 0 })] : []),
    ],
  } as ChartOption;
}
