// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import BaseChart from '../../../../renderer/components/charts/BaseChart.vue';
import { LIGHT_CHART_THEME } from '../../../../renderer/components/charts/chart-theme.ts';
import { buildDriftCountOption } from '../../../../renderer/components/charts/drift-count-option.ts';
import { buildSeriesOption } from '../../../../renderer/components/charts/workload-option.ts';
import { MINUTE, stuckRollout, T0 } from './fixtures.ts';

// DOM emulations do no layout: give every element the size of a real chart box.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
});
afterEach(() => vi.restoreAllMocks());

describe('BaseChart', () => {
  it('draws the option, exposes its series to the test hook, redraws on change and cleans up', async () => {
    const result = stuckRollout();
    const option = buildSeriesOption(result, LIGHT_CHART_THEME, { now: T0 + 30 * MINUTE });
    const chart = mount(BaseChart, { props: { option, name: 'unit-chart', label: 'A chart' }, attachTo: document.body });
    await flushPromises();
    expect(chart.find('svg').exists()).toBe(true);
    const dump = window.__kubedriftCharts?.['unit-chart']?.() ?? [];
    expect(dump.find((series) => series.id === 'ready')?.data).toEqual(result.series.find((series) => series.name === 'ready')?.points);

    const fewer = { ...result, series: result.series.filter((series) => series.name !== 'ready') };
    await chart.setProps({ option: buildSeriesOption(fewer, LIGHT_CHART_THEME, { now: T0 + 30 * MINUTE }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((window.__kubedriftCharts?.['unit-chart']?.() ?? []).map((series) => series.id)).not.toContain('ready');

    chart.unmount();
    expect(window.__kubedriftCharts?.['unit-chart']).toBeUndefined();
  });

  it('fits a band’s label to the band once drawn, and again for a new option', async () => {
    const now = T0 + 60 * MINUTE;
    const optionWith = (gapEnd: number) => buildDriftCountOption([[gapEnd, 1]], LIGHT_CHART_THEME, { range: { from: T0, to: now }, now, plot: { left: 60, right: 20 }, gaps: [{ start: T0 - 10 * MINUTE, end: gapEnd, reason: 'not-yet' }] });
    const label = (): string | undefined => [...document.querySelectorAll('svg text')].map((text) => text.textContent ?? '').find((text) => text.startsWith('not rec'));
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const chart = mount(BaseChart, { props: { option: optionWith(T0 + 12 * MINUTE), label: 'Drift' }, attachTo: document.body });
    await settle();
    // 720 px of plot: a 12-minute band is ~144 px, too narrow for the whole reason and times.
    const narrow = label();
    expect(narrow).toMatch(/^not rec.*…$/);
    await chart.setProps({ option: optionWith(T0 + 45 * MINUTE) });
    await settle();
    expect(label()).toMatch(/^not recording: history had not started .+ → .+$/);
    chart.unmount();
  });
});
