// @vitest-environment happy-dom
/**
 * A workload deleted while its namespace could not be read: its lane's hatch says it was deleted
 * while not observed, between the moment it left the view and the moment its namespace was read
 * again, and gives no deletion time of its own (nobody saw when).
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { ok } from '../../../../shared/result.ts';
import { gapLabel } from '../../../../renderer/components/charts/coverage-marks.ts';
import { formatMoment } from '../../../../renderer/components/charts/time-format.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, episodeList, MINUTE, STATUS, T0, workloadRef } from './fixtures.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });
const NOW = T0 + 60 * MINUTE;
const api = workloadRef('payments-api', { namespace: 'payments' });
const GONE = { uid: api.uid, start: T0 + 30 * MINUTE, end: T0 + 45 * MINUTE, reason: 'access-withdrawn' as const, deletedWithin: true };
const between = `deleted while not observed, between ${formatMoment(GONE.start, NOW)} and ${formatMoment(GONE.end, NOW)}`;

describe('a workload deleted while out of view', () => {
  it('is labelled as deleted between the two moments, with why nobody saw it', () => {
    expect(gapLabel(GONE, NOW)).toBe(`${between} (its namespace could no longer be read)`);
    expect(gapLabel({ ...GONE, deletedWithin: false }, NOW)).toMatch(/^not recording: its namespace could no longer be read /);
  });

  it('says so on its lane', async () => {
    installApi({
      'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
      'history:episodes': (query) => ok({ ...episodeList([episode(1, api, T0 + 5 * MINUTE, T0 + 30 * MINUTE)], { from: query.from, to: query.to }), gaps: [], workloadGaps: [GONE] }),
    });
    const view = test.mount(TimelineView, { attachTo: document.body });
    await flushPromises();
    const hatch = view.get('[data-testid="lane"][data-workload="payments-api"]').findAll('[data-testid="lane-gap"]');
    expect(hatch.map((gap) => gap.attributes('title'))).toEqual([`${between} (its namespace could no longer be read)`]);
  });
});
