// @vitest-environment happy-dom
/**
 * The swimlane hatches the time one workload was out of view (its namespace's access withdrawn)
 * on that workload's lane only, labelled with why; the other lanes and the "not recorded" total
 * (time nobody observed at all) are untouched.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { ok } from '../../../../shared/result.ts';
import { gapLabel } from '../../../../renderer/components/charts/coverage-marks.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import { workloadGapSpans } from '../../../../renderer/views/timeline/workload-gaps.ts';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, episodeList, MINUTE, STATUS, T0, workloadRef } from './fixtures.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });
const NOW = T0 + 60 * MINUTE;
const api = workloadRef('payments-api', { namespace: 'payments' });
const web = workloadRef('web', { namespace: 'shop' });
const OUT = { uid: api.uid, start: T0 + 30 * MINUTE, end: T0 + 45 * MINUTE, reason: 'access-withdrawn' as const };

describe('a workload out of view on the timeline', () => {
  it('says why in words', () => {
    expect(gapLabel(OUT, NOW)).toMatch(/^not recording: its namespace could no longer be read /);
  });

  it('places each workload gap on its own lane, in percent of the view', () => {
    const spans = workloadGapSpans([OUT, { ...OUT, uid: web.uid, start: T0 - 10 * MINUTE, end: T0 - 5 * MINUTE }], { from: T0, to: NOW }, NOW);
    expect([...spans.keys()]).toEqual([api.uid]);
    expect(spans.get(api.uid)?.map(({ left, width }) => [Math.round(left), Math.round(width)])).toEqual([[50, 25]]);
  });

  it('hatches only that lane, and does not count it as time nobody recorded', async () => {
    installApi({
      'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
      'history:episodes': (query) => ok({ ...episodeList([episode(1, api, T0 + 5 * MINUTE, T0 + 30 * MINUTE), episode(2, web, T0 + 5 * MINUTE, T0 + 9 * MINUTE)], { from: query.from, to: query.to }), gaps: [], workloadGaps: [OUT] }),
    });
    const view = test.mount(TimelineView, { attachTo: document.body });
    await flushPromises();
    const lane = (name: string) => view.get(`[data-testid="lane"][data-workload="${name}"]`);
    const hatch = lane('payments-api').findAll('[data-testid="lane-gap"]');
    expect(hatch.map((gap) => gap.attributes('data-reason'))).toEqual(['access-withdrawn']);
    expect(hatch[0]?.attributes('title')).toContain('its namespace could no longer be read');
    expect(lane('web').findAll('[data-testid="lane-gap"]')).toHaveLength(0);
    expect(view.find('[data-testid="timeline-not-recorded"]').exists()).toBe(false);
  });
});
