/**
 * The workload detail chart as a pure function of the engine's `history:series` answer, so what
 * it draws is testable: desired vs current / ready / available / updated replicas as step lines
 * (a sample holds until the next one), rollouts as bands, a "drift & events" lane with the
 * episodes as bands and each Warning Event as a marker, and generation vs observedGeneration as a
 * step pair underneath. Series data are the engine's points as they came; while the window
 * ends now and recording goes on, each line's last value is held up to now (a sample holds
 * until the next one, and none has come), so an ongoing episode's lines do not stop short.
 * Time nobody observed is a hatched, labelled band over the replica grid and the lane; facts
 * inferred from the cluster on connect are hollow dashed markers in the lane (coverage-marks.ts).
 */
import type { Episode, HistoryEvent, Point, Rollout, SeriesName, SeriesResult } from '../../../shared/contracts/history.ts';
import { episodeSeverity } from '../../../shared/drift-reasons.ts';
import { earliestFact, gapAreas, inferredSeries, timedFacts } from './coverage-marks.ts';
import { countAxis, cursorLine, escapeHtml, timeAxis, tooltipStyle, zoomControls } from './chart-style.ts';
import type { ChartTheme } from './chart-theme.ts';
import type { ChartOption } from './echarts.ts';
import { formatDuration, formatMoment } from './time-format.ts';
import { fitToHistory } from './time-range.ts';

/** What the view adds to the data: where "now" is, a marked moment, the chosen episode, the zoom. */
export interface WorkloadChartView {
  now: number;
  /** A moment to mark (the `at` the view was opened with). */
  marker?: number | null;
  /** The episode picked in the list, drawn stronger. */
  selectedEpisode?: number | null;
  /** The x window to keep (what the user zoomed to). */
  zoom?: { from: number; to: number } | null;
  /**
   * Where the lines run to: the view's clock while the window ends now and recording goes on.
   * Each series' last value is held up to it and the time axis reaches it. Unset (a past window,
   * a paused recording): the lines end at the last sample.
   */
  liveUntil?: number | null;
  /** Reconcile surprises on this workload, drawn as labelled lines at their moments. */
  annotations?: ReadonlyArray<{ at: number; label: string }>;
}

/**
 * Samples further apart than this mean recording was interrupted (the recorder's GAP_MS): a last
 * sample older than this is not held to now, since nobody watched the time in between.
 */
export const HELD_VALUE_MAX_MS = 150_000;

/**
 * `points` with their last value held to `until` (a step to now). Not when the last point is a
 * gap or a deleted workload's end (null), nor when it is older than HELD_VALUE_MAX_MS.
 */
export function holdToNow(points: readonly Point[], until: number | null | undefined): readonly Point[] {
  const last = points.at(-1);
  if (until === null || until === undefined || !last || last[1] === null || last[0] >= until || until - last[0] > HELD_VALUE_MAX_MS) return points;
  return [...points, [until, last[1]]];
}

/** The replica series of the top grid, in legend order; `hidden` ones start switched off. */
export const REPLICA_SERIES: ReadonlyArray<{ name: SeriesName; label: string; hidden?: boolean }> = [
  { name: 'desired', label: 'Desired' },
  { name: 'ready', label: 'Ready' },
  { name: 'available', label: 'Available' },
  { name: 'updated', label: 'Up-to-date' },
  { name: 'current', label: 'Current', hidden: true },
  { name: 'unavailable', label: 'Unavailable', hidden: true },
];

export const GENERATION_SERIES: ReadonlyArray<{ name: SeriesName; label: string }> = [
  { name: 'generation', label: 'Generation' },
  { name: 'observedGeneration', label: 'Observed' },
];

const LINE_WIDTH: Partial<Record<SeriesName, number>> = { desired: 2, ready: 2.2, available: 1.4 };

/** Id of the Warning marker series (its data index is the warning's index). */
export const WARNINGS_SERIES_ID = 'warnings';

function seriesColor(name: SeriesName, theme: ChartTheme): string {
  const colors: Record<SeriesName, string> = {
    desired: theme.text,
    ready: theme.success,
    available: theme.accent,
    updated: theme.violet,
    current: theme.muted,
    unavailable: theme.danger,
    generation: theme.text,
    observedGeneration: theme.accent,
  };
  return colors[name];
}

function pointsOf(result: SeriesResult, name: SeriesName): Point[] | null {
  return result.series.find((series) => series.name === name)?.points ?? null;
}

function rolloutBand(rollout: Rollout, theme: ChartTheme, now: number): unknown[] {
  const label = `gen ${rollout.generation}${rollout.image ? ` · ${rollout.image.split('/').pop() ?? rollout.image}` : ''}${rollout.end === null ? ' · rolling out' : ''}`;
  return [
    { xAxis: rollout.start, name: label, itemStyle: { color: theme.accentSoft, borderColor: theme.accent, borderWidth: 0 }, label: { color: theme.accent, fontSize: 10, position: 'insideTopLeft', overflow: 'truncate' } },
    { xAxis: rollout.end ?? now },
  ];
}

function episodeBand(episode: Episode, theme: ChartTheme, now: number, selected: boolean): unknown[] {
  const severity = episodeSeverity(episode.reasons);
  const color = severity === 'danger' ? theme.danger : severity === 'warning' ? theme.warning : theme.accent;
  return [
    { xAxis: episode.start, label: { show: false }, itemStyle: { color, opacity: selected ? 0.85 : 0.45, borderColor: color, borderWidth: selected ? 1 : 0 } },
    { xAxis: episode.end ?? now },
  ];
}

function replicaSeries(result: SeriesResult, theme: ChartTheme, view: WorkloadChartView): unknown[] {
  const selected = view.selectedEpisode === null || view.selectedEpisode === undefined ? null : result.episodes.find((episode) => episode.id === view.selectedEpisode);
  const list: unknown[] = [];
  for (const entry of REPLICA_SERIES) {
    const recorded = pointsOf(result, entry.name);
    if (!recorded) continue;
    const points = holdToNow(recorded, view.liveUntil);
    const color = seriesColor(entry.name, theme);
    const series: Record<string, unknown> = {
      id: entry.name,
      name: entry.label,
      type: 'line',
      xAxisIndex: 0,
      yAxisIndex: 0,
      step: 'end',
      showSymbol: false,
      symbolSize: 5,
      connectNulls: false,
      data: points,
      color,
      // Ready and available are often equal: available is drawn thin and dotted on top of ready.
      lineStyle: { color, width: LINE_WIDTH[entry.name] ?? 1.6, type: entry.name === 'desired' ? 'dashed' : entry.name === 'available' ? 'dotted' : 'solid' },
      emphasis: { focus: 'none', lineStyle: { width: 2.2 } },
      z: entry.name === 'desired' ? 4 : 3,
    };
    if (entry.name === 'desired') {
      const bands = result.rollouts.map((rollout) => rolloutBand(rollout, theme, view.now));
      // The chosen episode also shades the replica grid, so its lines read against it.
      if (selected) bands.push([{ xAxis: selected.start, itemStyle: { color: theme.dangerSoft } }, { xAxis: selected.end ?? view.now }]);
      bands.push(...(gapAreas(result.gaps, theme, view.now) as unknown[][]));
      series['markArea'] = { silent: true, data: bands };
      const lines = [];
      // Unlabelled: the screen says "Opened at …" beside the chart, and a label here would cover the axis name.
      if (view.marker !== null && view.marker !== undefined) lines.push(cursorLine(view.marker, theme.accent, ''));
      for (const note of view.annotations ?? []) lines.push(cursorLine(note.at, theme.warning, note.label, true));
      if (lines.length > 0) series['markLine'] = { silent: true, symbol: ['none', 'none'], animation: false, data: lines };
    }
    if (entry.name === 'ready') series['areaStyle'] = { color, opacity: 0.06 };
    list.push(series);
  }
  return list;
}

function warningTooltip(event: HistoryEvent, now: number): string {
  const count = event.count > 1 ? ` ×${event.count}` : '';
  const object = `${event.object.kind} ${event.object.namespace ? `${event.object.namespace}/` : ''}${event.object.name}`;
  return `<div style="font-weight:600">${escapeHtml(event.reason)}${count}</div><div style="opacity:.7;font-size:11px">${escapeHtml(formatMoment(event.at, now))} · ${escapeHtml(object)}</div><div style="margin-top:4px">${escapeHtml(event.message)}</div>`;
}

function laneSeries(result: SeriesResult, theme: ChartTheme, view: WorkloadChartView): unknown {
  return {
    id: WARNINGS_SERIES_ID,
    name: 'Warnings',
    type: 'scatter',
    xAxisIndex: 1,
    yAxisIndex: 1,
    symbol: 'triangle',
    symbolSize: 10,
    color: theme.warning,
    itemStyle: { color: theme.warning, borderColor: theme.surface, borderWidth: 1 },
    data: result.warnings.map((event) => [event.at, 0.5]),
    tooltip: { trigger: 'item', formatter: (params: { dataIndex: number }) => {
      const event = result.warnings[params.dataIndex];
      return event ? warningTooltip(event, view.now) : '';
    } },
    markArea: {
      silent: true,
      data: [...result.episodes.map((episode) => episodeBand(episode, theme, view.now, episode.id === view.selectedEpisode)), ...gapAreas(result.gaps, theme, view.now, false)],
    },
    z: 5,
  };
}

function generationSeries(result: SeriesResult, theme: ChartTheme, view: WorkloadChartView): unknown[] {
  return GENERATION_SERIES.flatMap((entry) => {
    const recorded = pointsOf(result, entry.name);
    if (!recorded) return [];
    const points = holdToNow(recorded, view.liveUntil);
    const color = seriesColor(entry.name, theme);
    return [{
      id: entry.name,
      name: entry.label,
      type: 'line',
      xAxisIndex: 2,
      yAxisIndex: 2,
      step: 'end',
      showSymbol: false,
      data: points,
      color,
      lineStyle: { color, width: entry.name === 'generation' ? 2 : 1.5, type: entry.name === 'generation' ? 'dotted' : 'solid' },
    }];
  });
}

/** Axis tooltip: the time, then each visible series' value there. */
function axisTooltip(now: number): (params: unknown) => string {
  return (params) => {
    const items = (Array.isArray(params) ? params : [params]) as Array<{ seriesName?: string; color?: string; value?: unknown; axisValue?: number }>;
    const first = items[0];
    if (!first) return '';
    const at = typeof first.axisValue === 'number' ? first.axisValue : Number((first.value as unknown[] | undefined)?.[0]);
    const rows = items
      .filter((item) => Array.isArray(item.value))
      .map((item) => {
        const value = (item.value as Array<number | null>)[1];
        return `<div style="display:flex;gap:12px;justify-content:space-between"><span><span style="display:inline-block;width:8px;height:8px;border-radius:2px;margin-right:6px;background:${item.color ?? ''}"></span>${escapeHtml(item.seriesName ?? '')}</span><b>${value ?? '—'}</b></div>`;
      });
    return `<div style="font-size:11px;opacity:.7;margin-bottom:3px">${escapeHtml(formatMoment(at, now))}</div>${rows.join('')}`;
  };
}

/** The complete chart option for one workload's history (see the file comment). */
export function buildSeriesOption(result: SeriesResult, theme: ChartTheme, view: WorkloadChartView): ChartOption {
  // Before history starts there is nothing to draw: the axis begins where recording did.
  // Facts inferred from the cluster may be older than the recording: the axis reaches them too.
  const inferredSince = earliestFact(result.inferred);
  const since = result.since === null || inferredSince === null ? (result.since ?? inferredSince) : Math.min(result.since, inferredSince);
  const range = fitToHistory({ from: result.from, to: Math.max(result.to, view.liveUntil ?? result.to) }, since);
  const inferred = timedFacts(result.inferred);
  const legend = REPLICA_SERIES.filter((entry) => pointsOf(result, entry.name)).map((entry) => entry.label);
  const hidden = Object.fromEntries(REPLICA_SERIES.filter((entry) => entry.hidden).map((entry) => [entry.label, false]));
  return {
    animation: false,
    textStyle: { fontFamily: theme.font },
    legend: {
      top: 4,
      left: 44,
      itemWidth: 14,
      itemHeight: 8,
      icon: 'roundRect',
      data: [...legend, ...GENERATION_SERIES.filter((entry) => pointsOf(result, entry.name)).map((entry) => entry.label)],
      selected: hidden,
      textStyle: { color: theme.muted, fontSize: 11 },
      inactiveColor: theme.faint,
    },
    grid: [
      { left: 44, right: 18, top: 40, bottom: '38%', tooltip: { trigger: 'axis' } },
      { left: 44, right: 18, top: '64%', height: 20, tooltip: { trigger: 'item' } },
      { left: 44, right: 18, top: '73%', bottom: 58, tooltip: { trigger: 'axis' } },
    ],
    xAxis: [0, 1, 2].map((gridIndex) => timeAxis(theme, { gridIndex, ...range, labels: gridIndex === 2 })),
    yAxis: [
      countAxis(theme, { gridIndex: 0, name: 'replicas' }),
      { type: 'value', gridIndex: 1, min: 0, max: 1, show: false, name: 'drift & events' },
      countAxis(theme, { gridIndex: 2, name: 'generation', min: (extent) => Math.max(0, extent.min - 1) }),
    ],
    axisPointer: { link: [{ xAxisIndex: 'all' }], lineStyle: { color: theme.faint }, label: { show: false } },
    tooltip: { ...tooltipStyle(theme), trigger: 'axis', formatter: axisTooltip(view.now) },
    dataZoom: zoomControls(theme, [0, 1, 2], view.zoom ?? null, true),
    series: [
      ...replicaSeries(result, theme, view),
      laneSeries(result, theme, view),
      ...(inferred.length > 0 ? [inferredSeries(inferred, theme, view.now, { xAxisIndex: 1, yAxisIndex: 1, y: 0.5 })] : []),
      ...generationSeries(result, theme, view),
    ],
  } as ChartOption;
}

/** The episode a click on the chart's lane points at, if any (the latest one covering `at`). */
export function episodeAt(episodes: readonly Episode[], at: number, now: number): Episode | null {
  let found: Episode | null = null;
  for (const episode of episodes) if (episode.start <= at && at <= (episode.end ?? now) && (!found || episode.start > found.start)) found = episode;
  return found;
}

/** "2m 30s, peak gap 2" — an episode in a few words. */
export function episodeSummary(episode: Episode, now: number): string {
  return `${formatDuration((episode.end ?? now) - episode.start)}${episode.end === null ? ' so far' : ''}, peak gap ${episode.peakGap}`;
}
