import { describe, expect, it } from 'vitest';
import { LIGHT_CHART_THEME } from '../../../../renderer/components/charts/chart-theme.ts';
import { buildDriftCountOption, DRIFT_COUNT_SERIES_ID } from '../../../../renderer/components/charts/drift-count-option.ts';
import { buildSeriesOption, episodeAt, HELD_VALUE_MAX_MS, holdToNow, WARNINGS_SERIES_ID } from '../../../../renderer/components/charts/workload-option.ts';
import { episode, MINUTE, stuckRollout, T0, workloadRef } from './fixtures.ts';

type AnySeries = { id: string; type: string; data: unknown[]; xAxisIndex?: number; step?: string; markArea?: { data: unknown[][] }; markLine?: { data: Array<{ xAxis: number }> }; tooltip?: { formatter: (p: { dataIndex: number }) => string } };
const seriesOf = (option: unknown): AnySeries[] => (option as { series: AnySeries[] }).series;
const NOW = T0 + 30 * MINUTE;

describe('buildSeriesOption', () => {
  it('draws every series the engine returned with exactly its points, as step lines', () => {
    const result = stuckRollout();
    const series = seriesOf(buildSeriesOption(result, LIGHT_CHART_THEME, { now: NOW }));
    for (const { name, points } of result.series) {
      const drawn = series.find((entry) => entry.id === name);
      expect(drawn, name).toBeDefined();
      expect(drawn!.data).toEqual(points);
      expect(drawn!.step).toBe('end');
    }
    // Replica counts in the top grid, generations in the bottom one.
    expect(series.find((entry) => entry.id === 'ready')!.xAxisIndex).toBe(0);
    expect(series.find((entry) => entry.id === 'observedGeneration')!.xAxisIndex).toBe(2);
  });

  it('leaves out series the engine did not send (a Job has no up-to-date count)', () => {
    const result = { ...stuckRollout(), series: stuckRollout().series.filter((entry) => entry.name !== 'updated') };
    const option = buildSeriesOption(result, LIGHT_CHART_THEME, { now: NOW }) as unknown as { legend: { data: string[] } };
    expect(seriesOf(option).map((entry) => entry.id)).not.toContain('updated');
    expect(option.legend.data).not.toContain('Up-to-date');
  });

  it('shades each rollout from its generation bump to its end, ongoing ones up to now', () => {
    const result = { ...stuckRollout(), rollouts: [...stuckRollout().rollouts, { generation: 6, start: T0 + 18 * MINUTE, end: null }] };
    const desired = seriesOf(buildSeriesOption(result, LIGHT_CHART_THEME, { now: NOW })).find((entry) => entry.id === 'desired')!;
    const bands = desired.markArea!.data.map(([start, end]) => [(start as { xAxis: number }).xAxis, (end as { xAxis: number }).xAxis]);
    expect(bands).toEqual([[T0 + 10 * MINUTE, T0 + 15 * MINUTE], [T0 + 18 * MINUTE, NOW]]);
  });

  it('marks each Warning Event in the lane, with an escaped tooltip naming reason, count and message', () => {
    const result = stuckRollout();
    const warnings = seriesOf(buildSeriesOption(result, LIGHT_CHART_THEME, { now: NOW })).find((entry) => entry.id === WARNINGS_SERIES_ID)!;
    expect(warnings.data.map((point) => (point as number[])[0])).toEqual(result.warnings.map((event) => event.at));
    const first = warnings.tooltip!.formatter({ dataIndex: 0 });
    expect(first).toContain('Failed');
    expect(first).toContain('not found &#60;b&#62;');
    expect(first).not.toContain('<b>');
    expect(warnings.tooltip!.formatter({ dataIndex: 1 })).toContain('BackOff ×7');
    expect(warnings.markArea!.data).toHaveLength(result.episodes.length);
  });

  it('marks the moment it was opened at and shades the chosen episode over the replica grid', () => {
    const result = stuckRollout();
    const marker = T0 + 12 * MINUTE;
    const series = seriesOf(buildSeriesOption(result, LIGHT_CHART_THEME, { now: NOW, marker, selectedEpisode: 7 }));
    const desired = series.find((entry) => entry.id === 'desired')!;
    expect(desired.markLine!.data.map((line) => line.xAxis)).toEqual([marker]);
    expect(desired.markArea!.data).toHaveLength(result.rollouts.length + 1);
  });

  it('keeps the zoom window it is given', () => {
    const option = buildSeriesOption(stuckRollout(), LIGHT_CHART_THEME, { now: NOW, zoom: { from: T0 + MINUTE, to: T0 + 2 * MINUTE } }) as unknown as { dataZoom: Array<{ startValue: number; endValue: number }> };
    expect(option.dataZoom.map((zoom) => [zoom.startValue, zoom.endValue])).toEqual([[T0 + MINUTE, T0 + 2 * MINUTE], [T0 + MINUTE, T0 + 2 * MINUTE]]);
  });

  it('runs every line to now during an ongoing episode, holding its last value, and keeps up as the clock moves', () => {
    const base = stuckRollout();
    const result = { ...base, episodes: [episode(8, base.workload, T0 + 18 * MINUTE, null, { reasons: ['ready'] })] };
    const drawAt = (clock: number) => seriesOf(buildSeriesOption(result, LIGHT_CHART_THEME, { now: clock, liveUntil: clock }));
    const lineEnd = (series: AnySeries[], id: string) => (series.find((entry) => entry.id === id)!.data.at(-1) as [number, number]);
    const first = drawAt(T0 + 21 * MINUTE);
    // The last sample was at minute 20; every line now reaches minute 21 at the value it held.
    expect(lineEnd(first, 'ready')).toEqual([T0 + 21 * MINUTE, 3]);
    expect(lineEnd(first, 'desired')).toEqual([T0 + 21 * MINUTE, 3]);
    expect(lineEnd(first, 'observedGeneration')).toEqual([T0 + 21 * MINUTE, 5]);
    expect(first.find((entry) => entry.id === 'ready')!.data.slice(0, -1)).toEqual(base.series.find((entry) => entry.name === 'ready')!.points);
    const band = first.find((entry) => entry.id === WARNINGS_SERIES_ID)!.markArea!.data[0] as Array<{ xAxis: number }>;
    expect(band.map((edge) => edge.xAxis)).toEqual([T0 + 18 * MINUTE, T0 + 21 * MINUTE]);
    const later = drawAt(T0 + 21.5 * MINUTE);
    expect(lineEnd(later, 'ready')).toEqual([T0 + 21.5 * MINUTE, 3]);
    const axis = (buildSeriesOption(result, LIGHT_CHART_THEME, { now: T0 + 21.5 * MINUTE, liveUntil: T0 + 21.5 * MINUTE }) as unknown as { xAxis: Array<{ max: number }> }).xAxis;
    expect(axis.map((entry) => entry.max)).toEqual([T0 + 21.5 * MINUTE, T0 + 21.5 * MINUTE, T0 + 21.5 * MINUTE]);
  });

  it('ends the lines at the last sample when recording stopped, the workload was deleted, or the window is in the past', () => {
    expect(holdToNow([[T0, 3]], T0 + HELD_VALUE_MAX_MS + 1)).toEqual([[T0, 3]]);
    expect(holdToNow([[T0, 3], [T0 + MINUTE, null]], T0 + 2 * MINUTE)).toEqual([[T0, 3], [T0 + MINUTE, null]]);
    expect(holdToNow([[T0, 3]], null)).toEqual([[T0, 3]]);
    expect(holdToNow([], T0)).toEqual([]);
    const past = seriesOf(buildSeriesOption(stuckRollout(), LIGHT_CHART_THEME, { now: NOW }));
    expect(past.find((entry) => entry.id === 'ready')!.data.at(-1)).toEqual([T0 + 20 * MINUTE, 3]);
  });

  it('finds the episode under a time, the latest when they overlap', () => {
    const ref = workloadRef('api');
    const list = [episode(1, ref, T0, T0 + 10 * MINUTE), episode(2, ref, T0 + 5 * MINUTE, null)];
    expect(episodeAt(list, T0 + 7 * MINUTE, NOW)?.id).toBe(2);
    expect(episodeAt(list, T0 + 2 * MINUTE, NOW)?.id).toBe(1);
    expect(episodeAt(list, T0 - 1, NOW)).toBeNull();
  });
});

describe('buildDriftCountOption', () => {
  it('draws the drift count as a filled step line with the cursor and the pinned moment', () => {
    const points: Array<[number, number | null]> = [[T0, 0], [T0 + MINUTE, 2], [T0 + 2 * MINUTE, 1]];
    const option = buildDriftCountOption(points, LIGHT_CHART_THEME, { range: { from: T0, to: NOW }, now: NOW, cursor: T0 + MINUTE, pinned: T0, plot: { left: 300, right: 20 } });
    const [series] = seriesOf(option);
    expect(series!.id).toBe(DRIFT_COUNT_SERIES_ID);
    expect(series!.data).toEqual(points);
    expect(series!.markLine!.data.map((line) => line.xAxis)).toEqual([T0, T0 + MINUTE]);
    expect((option as unknown as { grid: { left: number; right: number } }).grid).toMatchObject({ left: 300, right: 20 });
    // The tooltip says what it counts, as the timeline's figures do.
    const tooltip = (option as unknown as { tooltip: { formatter: (params: unknown) => string } }).tooltip.formatter;
    expect(tooltip([{ value: [T0 + MINUTE, 2] }])).toContain('<b>2</b> workloads drifting');
    expect(tooltip([{ value: [T0 + 2 * MINUTE, 1] }])).toContain('<b>1</b> workload drifting');
  });
});
