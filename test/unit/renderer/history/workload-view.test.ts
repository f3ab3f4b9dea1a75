// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../../shared/result.ts';
import { useNavigationStore } from '../../../../renderer/stores/navigation.ts';
import { useTimeTravelStore } from '../../../../renderer/stores/time-travel.ts';
import WorkloadView from '../../../../renderer/views/workload/WorkloadView.vue';
import type { FakeApi, Handlers } from '../fake-api.ts';
import { episode, MINUTE, STATUS, stuckRollout, T0, warning } from './fixtures.ts';
import { installApi, useRendererTest } from '../setup.ts';

const FROM = T0;
const TO = T0 + 20 * MINUTE;
const test = useRendererTest({ hash: `#/workload?uid=uid-payments-api&from=${FROM}&to=${TO}` });

async function mountWorkload(handlers: Handlers = {}): Promise<{ api: FakeApi; view: VueWrapper }> {
  const fake = installApi({
    'history:status': () => ok(STATUS),
    'history:series': () => ok(stuckRollout()),
    'history:episode': ({ id }) => {
      const found = stuckRollout().episodes.find((entry) => entry.id === id);
      if (!found) return err('not-found', `no episode ${id}`);
      return ok({ ...found, events: [warning(T0 + 11 * MINUTE, 'Failed', 'Failed to pull image'), { ...warning(T0 + 10 * MINUTE, 'ScalingReplicaSet', 'Scaled up'), type: 'Normal' }] });
    },
    ...handlers,
  });
  const view = test.mount(WorkloadView, { attachTo: document.body });
  await flushPromises();
  return { api: fake, view };
}

describe('WorkloadView', () => {
  it('asks for the window the navigation names and lists the episodes', async () => {
    const { api, view } = await mountWorkload();
    expect(api.calls.find((call) => call.channel === 'history:series')?.payload).toEqual({ uid: 'uid-payments-api', from: FROM, to: TO, maxPoints: 2_000 });
    expect(view.get('[data-testid="workload-name"]').text()).toBe('payments-api');
    expect(view.findAll('[data-testid="episode"]').map((item) => item.attributes('data-episode'))).toEqual(['7']);
    // A rollout that is still going reads calm; only a controller that gave up is "Stalled".
    expect(view.findAll('[data-testid="episode-reason"]').map((badge) => [badge.text(), badge.attributes('data-tone')])).toEqual([
      ['Not ready', 'warning'],
      ['Rolling out', 'accent'],
    ]);
    expect(view.get('[data-testid="episode"]').text()).toContain('payments-api:broken');
    expect(view.get('[data-testid="history-since"]').text()).toContain('12 MiB recorded');
  });

  it("shows a picked episode's Events, Warnings first, and opens the cluster as it was when it started", async () => {
    const { api, view } = await mountWorkload({ 'history:state-at': ({ at }) => ok({ at, total: 0, objects: [], nextOffset: null }) });
    await view.get('[data-testid="episode"] button').trigger('click');
    await flushPromises();
    expect(api.calls.find((call) => call.channel === 'history:episode')?.payload).toEqual({ id: 7 });
    expect(view.findAll('[data-testid="episode-event"]').map((event) => event.attributes('data-type'))).toEqual(['Warning', 'Normal']);
    await view.get('[data-testid="episode-travel"]').trigger('click');
    expect(useTimeTravelStore().at).toBe(T0 + 10 * MINUTE);
    expect(useNavigationStore().current).toBe('overview');
  });

  it('picks the episode the moment it was opened at falls in', async () => {
    window.history.replaceState(null, '', `#/workload?uid=uid-payments-api&from=${FROM}&to=${TO}&at=${T0 + 12 * MINUTE}`);
    const { view } = await mountWorkload();
    expect(view.get('[data-testid="episode"]').attributes('aria-current')).toBe('true');
    expect(view.text()).toContain('Opened at');
  });

  it('says when nothing was recorded for the workload, or in the window', async () => {
    const { view } = await mountWorkload({ 'history:series': () => err('not-found', 'no such workload') });
    expect(view.get('[data-testid="workload-error"]').text()).toContain('Nothing was ever recorded for this workload');
    view.unmount();
    const { view: empty } = await mountWorkload({ 'history:series': () => ok({ ...stuckRollout(), rawSamples: 0, series: [], episodes: [], rollouts: [], warnings: [] }) });
    expect(empty.get('[data-testid="workload-empty"]').text()).toBe('Nothing was recorded in this window.');
    expect(empty.get('[data-testid="episode-list"]').text()).toContain('No drift in this window');
  });

  it('asks which workload to show when none is named', async () => {
    window.history.replaceState(null, '', '#/workload');
    const { api, view } = await mountWorkload();
    expect(view.text()).toContain('No workload chosen');
    expect(api.calls.some((call) => call.channel === 'history:series')).toBe(false);
  });

  it('keeps only the answer for the latest range when the user changes it quickly', async () => {
    let answer: ((value: unknown) => void) | null = null;
    const { api, view } = await mountWorkload({
      'history:series': (request) => (request.from === FROM ? new Promise((resolve) => (answer = resolve as (value: unknown) => void)) as never : ok({ ...stuckRollout(), episodes: [episode(9, stuckRollout().workload, T0, T0 + MINUTE)] })),
    });
    await view.get('[data-option="15m"]').trigger('click');
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'history:series')).toHaveLength(2);
    (answer as unknown as (value: unknown) => void)(ok(stuckRollout()));
    await flushPromises();
    expect(view.findAll('[data-testid="episode"]').map((item) => item.attributes('data-episode'))).toEqual(['9']);
  });
});
