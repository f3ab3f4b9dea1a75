// @vitest-environment happy-dom
/**
 * Events the cluster still held on connect, inferred by backfill: drawn on their workload's lane
 * in the timeline like the inferred rollouts (hollow, dashed; round), the tooltip giving the
 * reason, the message and, for a repeated Event, from when to when; the drift-count axis keeps
 * only the rollouts (an hour of Events would bury it).
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { InferredFact } from '../../../../shared/contracts/history.ts';
import { ok } from '../../../../shared/result.ts';
import { LIGHT_CHART_THEME } from '../../../../renderer/components/charts/chart-theme.ts';
import { INFERRED_SERIES_ID } from '../../../../renderer/components/charts/coverage-marks.ts';
import { buildDriftCountOption } from '../../../../renderer/components/charts/drift-count-option.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import { inferredMarks } from '../../../../renderer/views/timeline/coverage-lanes.ts';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, episodeList, MINUTE, STATUS, T0, workloadRef } from './fixtures.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });

const NOW = T0 + 60 * MINUTE;
const web = workloadRef('web', { namespace: 'shop' });
const rollout: InferredFact = { id: 'r-1', fact: 'rollout', at: T0 + 10 * MINUTE, end: null, object: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d9f8', uid: 'rs-4' }, workloadUid: web.uid, detail: 'revision 4 (ReplicaSet web-7d9f8)' };
const backOff: InferredFact = {
  id: 'e-1',
  fact: 'event',
  at: T0 + 30 * MINUTE,
  end: T0 + 42 * MINUTE,
  object: { kind: 'Pod', namespace: 'shop', name: 'web-7d9f8-x2x9z', uid: 'p-1' },
  workloadUid: web.uid,
  detail: 'Warning BackOff: Back-off restarting failed container web (12 times over 12 min)',
};

describe('inferred Events in the timeline', () => {
  it('keeps the drift-count axis to the inferred rollouts', () => {
    const option = buildDriftCountOption([], LIGHT_CHART_THEME, { range: { from: T0, to: NOW }, now: NOW, plot: { left: 10, right: 10 }, inferred: [rollout, backOff] });
    const series = (option as { series: Array<{ id: string; data: unknown[] }> }).series.find((s) => s.id === INFERRED_SERIES_ID);
    expect(series?.data).toEqual([[rollout.at, 0]]);
  });

  it('marks an Event on its workload’s lane, its reason, message and span in the tooltip', async () => {
    installApi({
      'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
      'history:episodes': (query) => ok({ ...episodeList([episode(1, web, T0 + 5 * MINUTE, T0 + 9 * MINUTE)], { from: query.from, to: query.to }, [[T0, 0]]), gaps: [], inferred: [rollout, backOff] }),
    });
    const view = test.mount(TimelineView, { attachTo: document.body });
    await flushPromises();
    const marks = view.findAll('[data-testid="lane-inferred"]');
    expect(marks.map((mark) => mark.attributes('data-fact'))).toEqual(['rollout', 'event']);
    const title = marks[1]?.attributes('title') ?? '';
    expect(title).toContain('Warning BackOff: Back-off restarting failed container web');
    // From its first to its last time (the moments as the view words them).
    expect(title).toMatch(/, \S.* → \S.*: from an Event/);
    expect(marks[0]?.attributes('title')).not.toContain('→');
    expect(title).toContain('from an Event the cluster still held when the app connected, not seen live');
    expect(Number(/left: ([\d.]+)%/.exec(marks[1]?.attributes('style') ?? '')?.[1])).toBeCloseTo(50, 1);
  });

  it('marks a repeated Event that began before the view at the view’s start, and leaves out one that ended before it', () => {
    const view = { from: T0 + 35 * MINUTE, to: NOW };
    const marks = inferredMarks([backOff, { ...backOff, id: 'e-2', end: T0 + 34 * MINUTE }], view, NOW).get(web.uid) ?? [];
    expect(marks.map((mark) => [mark.id, mark.left])).toEqual([['e-1', 0]]);
  });
});
