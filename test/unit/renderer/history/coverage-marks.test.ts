// @vitest-environment happy-dom
/**
 * Gaps and inferred rows in the history views: unobserved time shaded and labelled with why,
 * never counted as "no drift", and rows inferred from the cluster drawn apart (hollow, dashed,
 * "inferred from the cluster" in their tooltip).
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { CoverageGap, InferredFact } from '../../../../shared/contracts/history.ts';
import { ok } from '../../../../shared/result.ts';
import { LIGHT_CHART_THEME } from '../../../../renderer/components/charts/chart-theme.ts';
import { breakAtGaps, gapLabel, INFERRED_SERIES_ID } from '../../../../renderer/components/charts/coverage-marks.ts';
import { buildDriftCountOption, DRIFT_COUNT_SERIES_ID } from '../../../../renderer/components/charts/drift-count-option.ts';
import { formatMoment } from '../../../../renderer/components/charts/time-format.ts';
import { buildSeriesOption } from '../../../../renderer/components/charts/workload-option.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, episodeList, MINUTE, STATUS, stuckRollout, T0, workloadRef } from './fixtures.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });

const NOW = T0 + 60 * MINUTE;
const GAP: CoverageGap = { start: T0 + 20 * MINUTE, end: T0 + 40 * MINUTE, reason: 'app-closed' };
const web = workloadRef('web', { namespace: 'shop' });
const fact = (at: number | null, detail = 'revision 4 (ReplicaSet web-7d9f8)'): InferredFact => ({
  id: `f-${at}`,
  fact: 'rollout',
  at,
  end: null,
  object: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d9f8', uid: 'rs-4' },
  workloadUid: web.uid,
  detail,
});

type AnySeries = { id: string; data: unknown[]; xAxisIndex?: number; itemStyle?: { borderType?: string; color?: string }; markArea?: { data: unknown[][] }; tooltip?: { formatter: (p: unknown) => string } };
const seriesOf = (option: unknown): AnySeries[] => (option as { series: AnySeries[] }).series;

describe('drift count across a gap', () => {
  it('breaks the line in the gap instead of drawing 0, and picks up where recording did', () => {
    const points: Array<[number, number]> = [[T0, 2], [T0 + 20 * MINUTE, 0], [T0 + 45 * MINUTE, 1]];
    expect(breakAtGaps(points, [GAP])).toEqual([[T0, 2], [T0 + 20 * MINUTE, null], [T0 + 40 * MINUTE, 0], [T0 + 45 * MINUTE, 1]]);
    expect(breakAtGaps(points, [])).toEqual(points);
  });

  it('shades the gap with its reason and says "not recorded" in the tooltip there', () => {
    const option = buildDriftCountOption([[T0, 1], [T0 + 20 * MINUTE, 0]], LIGHT_CHART_THEME, { range: { from: T0, to: NOW }, now: NOW, plot: { left: 10, right: 10 }, gaps: [GAP] });
    const count = seriesOf(option).find((s) => s.id === DRIFT_COUNT_SERIES_ID)!;
    const [area] = count.markArea!.data as Array<[{ xAxis: number; name: string; itemStyle: { borderType: string } }, { xAxis: number }]>;
    expect([area![0].xAxis, area![1].xAxis]).toEqual([GAP.start, GAP.end]);
    expect(area![0].name).toBe(`not recording: app closed ${formatMoment(GAP.start, NOW)} → ${formatMoment(GAP.end, NOW)}`);
    const formatter = (option as unknown as { tooltip: { formatter: (p: unknown) => string } }).tooltip.formatter;
    const inGap = formatter([{ seriesId: DRIFT_COUNT_SERIES_ID, axisValue: T0 + 30 * MINUTE, value: [T0 + 20 * MINUTE, null] }]);
    expect(inGap).toContain('not recorded');
    expect(inGap).not.toMatch(/\b0\b.*drifting/);
    expect(formatter([{ seriesId: DRIFT_COUNT_SERIES_ID, axisValue: T0 + 5 * MINUTE, value: [T0, 1] }])).toContain('<b>1</b> workload drifting');
  });

  it('labels each reason in words', () => {
    expect(gapLabel({ ...GAP, reason: 'stopped' }, NOW)).toMatch(/^not recording: the app stopped unexpectedly /);
    expect(gapLabel({ ...GAP, reason: 'context-switched' }, NOW)).toMatch(/^not recording: another context was selected /);
    expect(gapLabel({ ...GAP, reason: 'connection-lost' }, NOW)).toMatch(/^not recording: connection to the cluster lost /);
  });
});

describe('inferred rows in the charts', () => {
  it('draws inferred rollouts as hollow dashed markers whose tooltip says they were inferred', () => {
    const option = buildDriftCountOption([], LIGHT_CHART_THEME, { range: { from: T0, to: NOW }, now: NOW, plot: { left: 10, right: 10 }, inferred: [fact(T0 + 10 * MINUTE), fact(null)] });
    const inferred = seriesOf(option).find((s) => s.id === INFERRED_SERIES_ID)!;
    // The fact of unknown time is not placed anywhere.
    expect(inferred.data).toEqual([[T0 + 10 * MINUTE, 0]]);
    expect(inferred.itemStyle).toMatchObject({ borderType: 'dashed', color: 'transparent' });
    expect(inferred.tooltip!.formatter({ dataIndex: 0 })).toContain('inferred from the cluster');
  });

  it("shades gaps over the workload chart and reaches back to facts older than the recording", () => {
    // Recording began at T0; the window reaches 3 h back, where the cluster still told of a rollout.
    const result = { ...stuckRollout(), from: T0 - 3 * 60 * MINUTE, gaps: [GAP], inferred: [fact(T0 - 2 * 60 * MINUTE)], since: T0 };
    const option = buildSeriesOption(result, LIGHT_CHART_THEME, { now: NOW });
    const desired = seriesOf(option).find((s) => s.id === 'desired')!;
    expect(desired.markArea!.data.some(([start]) => (start as { name?: string }).name?.startsWith('not recording: app closed'))).toBe(true);
    const inferred = seriesOf(option).find((s) => s.id === INFERRED_SERIES_ID)!;
    expect(inferred.xAxisIndex).toBe(1);
    expect(inferred.itemStyle?.borderType).toBe('dashed');
    const axis = (option as unknown as { xAxis: Array<{ min: number }> }).xAxis[0]!;
    expect(axis.min).toBeLessThanOrEqual(T0 - 2 * 60 * MINUTE);
  });
});

async function mountTimeline(gaps: CoverageGap[], inferred: InferredFact[] = [], episodes = [episode(1, web, T0 + 5 * MINUTE, T0 + 9 * MINUTE)]): Promise<VueWrapper> {
  installApi({
    'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
    'history:episodes': (query) => ok({ ...episodeList(episodes, { from: query.from, to: query.to }, [[T0, 0], [T0 + 5 * MINUTE, 1], [T0 + 9 * MINUTE, 0]]), gaps, inferred }),
  });
  const view = test.mount(TimelineView, { attachTo: document.body });
  await flushPromises();
  return view;
}

describe('TimelineView over unobserved time', () => {
  it('hatches the gap across lanes, marks inferred rollouts, and says how much was not recorded', async () => {
    const view = await mountTimeline([GAP], [fact(T0 + 45 * MINUTE)]);
    const gap = view.get('[data-testid="lane-gap"]');
    expect(gap.attributes('title')).toContain('not recording: app closed');
    expect(Number(/left: ([\d.]+)%/.exec(gap.attributes('style') ?? '')?.[1])).toBeCloseTo(100 / 3, 1);
    expect(view.get('[data-testid="lane-inferred"]').attributes('title')).toContain('inferred from the cluster');
    expect(view.get('[data-testid="timeline-not-recorded"]').text()).toBe('· 20m not recorded');
  });

  it('says "not recorded", not 0 drifting, when the window ends in a gap', async () => {
    const view = await mountTimeline([{ start: T0 + 50 * MINUTE, end: NOW, reason: 'stopped' }]);
    expect(view.get('[data-testid="drift-now"]').text()).toBe('—');
    expect(view.get('[data-testid="drift-not-recorded"]').text()).toContain('not recorded at');
  });

  it('never says "no workload drifted" for a window nobody observed', async () => {
    const view = await mountTimeline([{ start: T0 - MINUTE, end: NOW, reason: 'app-closed' }], [], []);
    const text = view.get('[data-testid="timeline"]').text();
    expect(text).toContain('Not recorded between');
    expect(text).toContain('whether anything drifted is unknown');
    expect(text).not.toContain('No workload drifted');
  });

  it('says a partly observed window had no drift only in its recorded part', async () => {
    const view = await mountTimeline([GAP], [], []);
    expect(view.get('[data-testid="timeline"]').text()).toContain('No workload drifted in the recorded part of this window; 20m of it was not recorded');
  });
});
