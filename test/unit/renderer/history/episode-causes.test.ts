// @vitest-environment happy-dom
/**
 * "caused by …" wherever an episode is shown: the Timeline's bar tooltip and the workload
 * screen's episode list read the causes history kept, so a closed episode still says why after
 * its pods and Events are gone.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { Episode } from '../../../../shared/contracts/history.ts';
import { ok } from '../../../../shared/result.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import WorkloadEpisodeList from '../../../../renderer/views/workload/WorkloadEpisodeList.vue';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, episodeList, MINUTE, STATUS, T0, workloadRef } from './fixtures.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });

const IMAGE = 'registry.example.com/payments/payments-api:2.4.1-broken';
const api = workloadRef('payments-api', { namespace: 'payments' });
const web = workloadRef('web', { namespace: 'shop' });
const PULL = `1 pod can't pull ${IMAGE}: not found`;
const DEADLINE = 'Deployment payments-api exceeded its progress deadline (ProgressDeadlineExceeded)';
const CAUSES: NonNullable<Episode['causes']> = [
  { at: T0 + 11 * MINUTE, code: 'image-pull', sentence: PULL, evidence: { kind: 'Pod', name: 'payments-api-7d9f-x2' } },
  { at: T0 + 21 * MINUTE, code: 'progress-deadline', sentence: DEADLINE },
];
// Closed long ago: nothing live is left of it but what history kept.
const STALL = episode(4, api, T0 + 10 * MINUTE, T0 + 25 * MINUTE, { reasons: ['ready', 'stalled'], causes: CAUSES });
const PLAIN = episode(5, web, T0 + 30 * MINUTE, T0 + 32 * MINUTE);

describe('caused by … on the timeline', () => {
  it("says the kept causes in the episode bar's tooltip, and nothing for an episode without one", async () => {
    installApi({
      'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
      'history:episodes': (query) => ok(episodeList([STALL, PLAIN], { from: query.from, to: query.to }, [[T0, 0]])),
    });
    const view = test.mount(TimelineView, { attachTo: document.body });
    await flushPromises();
    const bar = (name: string) => view.get(`[data-testid="lane"][data-workload="${name}"] [data-testid="lane-episode"]`);
    expect(bar('payments-api').attributes('title')).toContain(`; caused by ${PULL} · then ${DEADLINE}`);
    expect(bar('payments-api').attributes('aria-label')).toContain(`caused by ${PULL}`);
    expect(bar('web').attributes('title')).not.toContain('caused by');
  });
});

describe('caused by … in the workload episode list', () => {
  it('shows each episode its causes under its reasons, and no line for one without', () => {
    const list = test.mount(WorkloadEpisodeList, {
      props: { episodes: [STALL, { ...PLAIN, workload: api }], selected: null, detail: null, detailLoading: false, detailError: null, now: T0 + 60 * MINUTE },
    });
    const items = list.findAll('[data-testid="episode"]');
    const causeOf = (id: number) => items.find((item) => item.attributes('data-episode') === String(id))?.find('[data-testid="episode-cause"]');
    expect(causeOf(4)?.text()).toBe(`caused by ${PULL} · then ${DEADLINE}`);
    expect(causeOf(5)?.exists()).toBe(false);
  });
});
