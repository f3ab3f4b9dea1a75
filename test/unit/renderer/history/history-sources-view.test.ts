// @vitest-environment happy-dom
/**
 * A recorder's history on the timeline and the workload screen (history sources): its episodes
 * say "recorded by" it, the timeline names the sources it merged and each failing one with its
 * reason, and with no source but unobserved time it points to where one is added.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { ok } from '../../../../shared/result.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import WorkloadEpisodeList from '../../../../renderer/views/workload/WorkloadEpisodeList.vue';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, episodeList, MINUTE, STATUS, T0, workloadRef } from './fixtures.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });
const web = workloadRef('web', { namespace: 'shop' });
const OWN = episode(1, web, T0 + 30 * MINUTE, T0 + 32 * MINUTE);
const REMOTE = episode(-1, web, T0 + 10 * MINUTE, T0 + 12 * MINUTE, { recordedBy: 'rack recorder' });

describe('history sources on the timeline', () => {
  it('marks the recorder\'s episodes, names the merged sources and the failing one', async () => {
    installApi({
      'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
      'history:episodes': (query) =>
        ok({
          ...episodeList([REMOTE, OWN], { from: query.from, to: query.to }, [[T0, 0]]),
          sources: [
            { name: 'rack recorder', state: 'merged' },
            { name: 'old recorder', state: 'error', message: 'This recorder refused the token.' },
          ],
        }),
    });
    const view = test.mount(TimelineView, { attachTo: document.body });
    await flushPromises();
    const bars = view.findAll('[data-testid="lane-episode"]');
    const remote = bars.find((bar) => bar.attributes('data-episode') === '-1');
    expect(remote?.attributes('data-recorded-by')).toBe('rack recorder');
    expect(remote?.attributes('title')).toMatch(/; recorded by rack recorder$/);
    expect(bars.find((bar) => bar.attributes('data-episode') === '1')?.attributes('data-recorded-by')).toBeUndefined();
    expect(view.get('[data-testid="timeline-sources"]').text()).toBe('Includes history recorded by rack recorder.');
    expect(view.get('[data-testid="timeline-source-error"]').text()).toContain('History source old recorder: This recorder refused the token. The timeline shows the rest.');
  });

  it('points to Settings → History sources when time went unobserved and no source is set', async () => {
    installApi({
      'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
      'history:episodes': (query) => ok({ ...episodeList([OWN], { from: query.from, to: query.to }, [[T0, 0]]), gaps: [{ start: T0, end: T0 + 20 * MINUTE, reason: 'app-closed' as const }] }),
    });
    const view = test.mount(TimelineView, { attachTo: document.body });
    await flushPromises();
    expect(view.find('[data-testid="timeline-sources"]').exists()).toBe(false);
    expect(view.get('[data-testid="timeline-sources-hint"]').text()).toContain('add a history source');
  });
});

describe('history sources in the workload episode list', () => {
  it('says which recorder saw an episode, and nothing for the app\'s own', () => {
    const list = test.mount(WorkloadEpisodeList, {
      props: { episodes: [REMOTE, OWN], selected: null, detail: null, detailLoading: false, detailError: null, now: T0 + 60 * MINUTE },
    });
    const item = (id: number) => list.findAll('[data-testid="episode"]').find((entry) => entry.attributes('data-episode') === String(id));
    expect(item(-1)?.get('[data-testid="episode-recorded-by"]').text()).toBe('recorded by rack recorder');
    expect(item(1)?.find('[data-testid="episode-recorded-by"]').exists()).toBe(false);
  });
});
