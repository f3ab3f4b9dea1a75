// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ControllerSummary } from '../../../../shared/contracts/events.ts';
import { ok } from '../../../../shared/result.ts';
import { REFRESH_MIN_MS, useControllersStore } from '../../../../renderer/stores/controllers.ts';
import { installApi, useRendererTest } from '../setup.ts';
import { controllers, eventRow, listOf, reconcile, reconcileList, summary } from './fixtures.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2025-05-02T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});
// After the timers' hooks, so the store is disposed while the timers are still fake.
useRendererTest();

function start(list: ControllerSummary[] = [summary('kubelet', { occurrences: 40 }), summary('deployment-controller')]) {
  let current = list;
  const events = [eventRow('1'), eventRow('2', { type: 'Warning', reason: 'BackOff' }), eventRow('3', { controller: 'deployment-controller', reason: 'ScalingReplicaSet', object: { kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-web' } })];
  const api = installApi({
    'events:controllers': () => ok(controllers(current)),
    'events:list': (query) => ok(listOf(events, query)),
    'events:reconciles': () => ok(reconcileList([reconcile('web')])),
  });
  return { api, store: useControllersStore(), setControllers: (next: ControllerSummary[]) => (current = next) };
}

const asked = (api: ReturnType<typeof start>['api'], channel: string) => api.calls.filter((c) => c.channel === channel);

describe('controllers store', () => {
  it('loads the summaries when the screen opens and selects the busiest controller', async () => {
    const { api, store } = start();
    const stop = store.activate();
    await flushPromises();
    expect(store.summaries.data?.controllers.map((c) => c.name)).toEqual(['kubelet', 'deployment-controller']);
    expect(store.selected).toBe('kubelet');
    expect(asked(api, 'events:controllers')[0]?.payload).toMatchObject({ buckets: 30, from: Date.now() - 3_600_000, to: Date.now() });
    expect(asked(api, 'events:list').at(-1)?.payload).toMatchObject({ controller: 'kubelet', offset: 0 });
    expect(store.events.total).toBe(2);
    stop();
  });

  it('asks again when the engine says something changed, at most once per interval, only while open', async () => {
    const { api, store } = start();
    const stop = store.activate();
    await flushPromises();
    const before = asked(api, 'events:controllers').length;
    api.emit('events:changed', { revision: 1, context: 'kind-dev' });
    api.emit('events:changed', { revision: 2, context: 'kind-dev' });
    api.emit('events:changed', { revision: 3, context: 'kind-dev' });
    await vi.advanceTimersByTimeAsync(REFRESH_MIN_MS);
    expect(asked(api, 'events:controllers').length).toBe(before + 1);
    stop();
    api.emit('events:changed', { revision: 4, context: 'kind-dev' });
    await vi.advanceTimersByTimeAsync(REFRESH_MIN_MS * 2);
    expect(asked(api, 'events:controllers').length).toBe(before + 1);
  });

  it('filters the selected controller\'s Events and starts the filters over for another controller', async () => {
    const { api, store } = start();
    const stop = store.activate();
    await flushPromises();
    store.setFilters({ type: 'Warning', object: ' pod/web ' });
    await flushPromises();
    expect(asked(api, 'events:list').at(-1)?.payload).toMatchObject({ controller: 'kubelet', type: 'Warning', object: 'pod/web' });
    expect(store.events.total).toBe(1);
    store.select('deployment-controller');
    await flushPromises();
    expect(store.filters).toEqual({ reason: '', type: '', namespace: '', object: '' });
    expect(asked(api, 'events:reconciles').at(-1)?.payload).toMatchObject({ controller: 'deployment-controller' });
    expect(store.reconciles.data?.reconciles[0]?.workload.name).toBe('web');
    stop();
  });

  it('keeps the selection while the controller still reports, and forgets it on another context', async () => {
    const { api, store, setControllers } = start();
    const stop = store.activate();
    await flushPromises();
    store.select('deployment-controller');
    api.emit('events:changed', { revision: 1, context: 'kind-dev' });
    await vi.advanceTimersByTimeAsync(REFRESH_MIN_MS);
    expect(store.selected).toBe('deployment-controller');
    setControllers([summary('kube-scheduler')]);
    api.emit('events:changed', { revision: 1, context: 'prod' });
    await flushPromises();
    expect(store.selected).toBe('kube-scheduler');
    stop();
  });

  it('a custom range is asked as is; a preset follows now', async () => {
    const { api, store } = start();
    const stop = store.activate();
    await flushPromises();
    store.setSelection({ choice: 'custom', custom: { from: 1_000, to: 5_000 } });
    await flushPromises();
    expect(asked(api, 'events:controllers').at(-1)?.payload).toMatchObject({ from: 1_000, to: 5_000 });
    expect(asked(api, 'events:list').at(-1)?.payload).toMatchObject({ from: 1_000, to: 5_000 });
    stop();
  });
});
