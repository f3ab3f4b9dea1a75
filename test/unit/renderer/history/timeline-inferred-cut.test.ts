// @vitest-environment happy-dom
/**
 * The timeline's inferred rows come at most 1,000 to an answer: when the engine says the range
 * holds more (`inferredTotal`), the Timeline says it shows only the newest of them and how many
 * there are, instead of passing the cut off as everything; when nothing was cut it says nothing.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { InferredFact } from '../../../../shared/contracts/history.ts';
import { ok } from '../../../../shared/result.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, episodeList, MINUTE, STATUS, T0, workloadRef } from './fixtures.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });
const web = workloadRef('web', { namespace: 'shop' });

/** `count` repeated BackOff Events of web's pods, one a second from minute 10 on. */
function events(count: number): InferredFact[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `event-${i}`,
    fact: 'event' as const,
    at: T0 + 10 * MINUTE + i * 1_000,
    end: null,
    object: { kind: 'Pod', namespace: 'shop', name: `web-7d9f8-${i}`, uid: `pod-${i}` },
    workloadUid: web.uid,
    detail: 'BackOff: Back-off restarting failed container',
  }));
}

async function mountWith(inferred: InferredFact[], inferredTotal?: number) {
  installApi({
    'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
    'history:episodes': (query) => ok({ ...episodeList([episode(1, web, T0 + 5 * MINUTE, T0 + 30 * MINUTE)], { from: query.from, to: query.to }), gaps: [], inferred, ...(inferredTotal !== undefined ? { inferredTotal } : {}) }),
  });
  const view = test.mount(TimelineView, { attachTo: document.body });
  await flushPromises();
  return view;
}

describe('the Timeline\'s inferred rows', () => {
  it('says it shows only the newest 1,000 of them, and how many the range holds', async () => {
    const view = await mountWith(events(1_000), 4_321);
    expect(view.get('[data-testid="timeline-inferred-cut"]').text()).toBe('Showing the newest 1,000 inferred rows of 4,321 (rollouts first) — narrow the range to see the others.');
  });

  it('says nothing when the answer holds all of them', async () => {
    const view = await mountWith(events(12));
    expect(view.find('[data-testid="timeline-inferred-cut"]').exists()).toBe(false);
  });
});
