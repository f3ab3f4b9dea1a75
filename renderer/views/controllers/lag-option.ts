/**
 * One controller's reconcile lag over time as a pure function: every completed reconcile a dot
 * at the moment it caught up, as high as its lag; ongoing ones at "now" (warning colour, danger
 * once stuck), and the stuck threshold as a dashed line. The y axis is logarithmic: lags run
 * from milliseconds (a controller keeping up) to minutes (one that is down).
 */
import type { Reconcile } from '../../../shared/contracts/events.ts';
import { escapeHtml, timeAxis, tooltipStyle } from '../../components/charts/chart-style.ts';
import type { ChartTheme } from '../../components/charts/chart-theme.ts';
import type { ChartOption } from '../../components/charts/echarts.ts';
import { formatMoment } from '../../components/charts/time-format.ts';
import { formatLag } from '../../components/events/event-format.ts';

/** The floor of the log axis: a lag of 0 (caught up in the same watch batch) is drawn here. */
export const LAG_FLOOR_MS = 10;

export interface LagPoint {
  value: [number, number];
  reconcile: Reconcile;
}

export function lagPoints(reconciles: readonly Reconcile[], now: number): { done: LagPoint[]; ongoing: LagPoint[]; stuck: LagPoint[] } {
  const out = { done: [] as LagPoint[], ongoing: [] as LagPoint[], stuck: [] as LagPoint[] };
  for (const reconcile of reconciles) {
    const point: LagPoint = { value: [reconcile.end ?? now, Math.max(LAG_FLOOR_MS, reconcile.lagMs)], reconcile };
    if (reconcile.end !== null) out.done.push(point);
    else (reconcile.stuck ? out.stuck : out.ongoing).push(point);
  }
  return out;
}

export function buildLagOption(reconciles: readonly Reconcile[], theme: ChartTheme, view: { from: number; to: number; now: number; stuckAfterMs: number }): ChartOption {
  const points = lagPoints(reconciles, view.now);
  const scatter = (id: string, name: string, data: LagPoint[], color: string, size: number) => ({ id, name, type: 'scatter', data, symbolSize: size, itemStyle: { color, opacity: 0.85 } });
  return {
    animation: false,
    textStyle: { fontFamily: theme.font },
    grid: { left: 56, right: 14, top: 14, bottom: 24 },
    xAxis: timeAxis(theme, { gridIndex: 0, from: view.from, to: Math.max(view.to, view.now), labels: true }),
    yAxis: {
      type: 'log',
      min: LAG_FLOOR_MS,
      logBase: 10,
      axisLabel: { color: theme.faint, fontSize: 11, formatter: (value: number) => formatLag(value) },
      splitLine: { lineStyle: { color: theme.border, opacity: 0.6 } },
    },
    tooltip: {
      ...tooltipStyle(theme),
      trigger: 'item',
      formatter: (params: unknown) => {
        const data = (params as { data?: LagPoint }).data;
        if (!data) return '';
        const r = data.reconcile;
        const state = r.end === null ? (r.stuck ? '<b style="color:' + theme.danger + '">stuck</b>, not caught up' : 'not caught up yet') : `caught up ${escapeHtml(formatMoment(r.end, view.now))}`;
        return `<b>${escapeHtml(r.workload.kind)}/${escapeHtml(r.workload.name)}</b> generation ${r.generation}<br>lag <b>${escapeHtml(formatLag(r.lagMs))}</b> · ${state}`;
      },
    },
    series: [
      {
        ...scatter('done', 'Caught up', points.done, theme.accent, 7),
        markLine: {
          silent: true,
          symbol: ['none', 'none'],
          animation: false,
          data: [{ yAxis: view.stuckAfterMs, lineStyle: { color: theme.danger, type: 'dashed', width: 1 }, label: { formatter: 'stuck', color: theme.danger, fontSize: 10, position: 'insideEndTop' } }],
        },
      },
      scatter('ongoing', 'In progress', points.ongoing, theme.warning, 9),
      scatter('stuck', 'Stuck', points.stuck, theme.danger, 10),
    ],
  } as ChartOption;
}
