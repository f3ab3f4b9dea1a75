import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventsFeature } from '../../../../electron/engine/events/index.ts';
import type { Result } from '../../../../shared/result.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { event, object } from './context.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

const T0 = Date.parse('2025-05-02T09:30:00Z');

function value<T>(result: Result<T> | Promise<Result<T>>): T {
  if (result instanceof Promise) throw new Error('handlers answer synchronously');
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const fake = fakeEngineContext();
  const changes = fake.collect('events:changed');
  const feature = createEventsFeature(fake.context, { throttleMs: 500 });
  return { ...fake, changes, feature, h: feature.handlers };
}

describe('events feature', () => {
  it('groups the cached Events per controller and tells views once per throttle window', () => {
    const { cache, changes, h, feature } = setup();
    const web = object('Deployment', 'web', 'd-web', { generation: 1, observedGeneration: 1 });
    const pod = object('Pod', 'web-1', 'p-1');
    upsertBuiltin(cache, event('e1', web, 'ScalingReplicaSet', 'deployment-controller', '2025-05-02T09:20:00Z'));
    upsertBuiltin(cache, event('e2', pod, 'BackOff', 'kubelet', '2025-05-02T09:21:00Z', { type: 'Warning', count: 7, last: '2025-05-02T09:27:00Z' }));
    upsertBuiltin(cache, event('e3', pod, 'Pulled', 'kubelet', '2025-05-02T09:20:30Z'));
    expect(changes).toEqual([]);
    vi.advanceTimersByTime(500);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.context).toBe('kind-dev');
    const result = value(h['events:controllers']({}));
    expect(result.to).toBe(T0 + 500);
    expect(result.from).toBe(T0 + 500 - 3_600_000);
    expect(result.controllers.map((c) => [c.name, c.events, c.occurrences, c.warningRatio])).toEqual([
      ['kubelet', 2, 8, 0.88],
      ['deployment-controller', 1, 1, 0],
    ]);
    expect(result.controllers[0]?.rate).toHaveLength(30);
    feature.dispose();
  });

  it('keeps Events the API server deleted, marked expired', () => {
    const { cache, h } = setup();
    const pod = object('Pod', 'web-1', 'p-1');
    upsertBuiltin(cache, event('e1', pod, 'Pulled', 'kubelet', '2025-05-02T09:20:00Z'));
    cache.delete('events', 'e1');
    const list = value(h['events:list']({ offset: 0, limit: 10 }));
    expect(list.events.map((e) => [e.reason, e.expired])).toEqual([['Pulled', true]]);
  });

  it('starts over on a context switch', () => {
    const { cache, h, switchTo } = setup();
    upsertBuiltin(cache, event('e1', object('Pod', 'web-1', 'p-1'), 'Pulled', 'kubelet', '2025-05-02T09:20:00Z'));
    upsertBuiltin(cache, object('Deployment', 'web', 'd-web', { generation: 2, observedGeneration: 1 }));
    expect(value(h['events:controllers']({})).controllers.map((c) => c.name).sort()).toEqual(['deployment-controller', 'kubelet']);
    switchTo('prod');
    const after = value(h['events:controllers']({}));
    expect(after.controllers).toEqual([]);
    expect(after.totalEvents).toBe(0);
  });

  it('measures reconcile lag from a generation bump to observedGeneration catching up', () => {
    const { cache, h } = setup();
    upsertBuiltin(cache, object('Deployment', 'web', 'd-web', { generation: 3, observedGeneration: 3 }));
    upsertBuiltin(cache, object('Deployment', 'web', 'd-web', { generation: 4, observedGeneration: 3 }));
    vi.advanceTimersByTime(1_200);
    upsertBuiltin(cache, object('Deployment', 'web', 'd-web', { generation: 4, observedGeneration: 4 }));
    const reconciles = value(h['events:reconciles']({ uid: 'd-web' }));
    expect(reconciles.reconciles).toEqual([expect.objectContaining({ generation: 4, start: T0, end: T0 + 1_200, lagMs: 1_200, stuck: false, startKnown: true, controller: 'deployment-controller' })]);
    const deployments = value(h['events:controllers']({})).controllers.find((c) => c.name === 'deployment-controller');
    expect(deployments?.lag).toEqual({ samples: 1, p50: 1_200, p95: 1_200, max: 1_200 });
  });

  it('calls a reconcile stuck after five minutes, and says so without any cluster change', () => {
    const { cache, h, changes } = setup();
    upsertBuiltin(cache, object('StatefulSet', 'db', 's-db', { generation: 1, observedGeneration: 1 }));
    upsertBuiltin(cache, object('StatefulSet', 'db', 's-db', { generation: 2, observedGeneration: 1 }));
    vi.advanceTimersByTime(1_000);
    const pushed = changes.length;
    expect(value(h['events:controllers']({})).controllers[0]).toMatchObject({ name: 'statefulset-controller', stuck: 0, pending: 1 });
    vi.advanceTimersByTime(5 * 60_000);
    expect(changes.length).toBeGreaterThan(pushed);
    expect(value(h['events:controllers']({})).controllers[0]).toMatchObject({ stuck: 1, pending: 0 });
    expect(value(h['events:reconciles']({ controller: 'statefulset-controller' })).reconciles[0]).toMatchObject({ end: null, stuck: true, lagMs: 301_000 });
    // Deleting the workload makes the reconcile moot, not stuck.
    cache.delete('statefulsets.apps', 's-db');
    expect(value(h['events:controllers']({})).controllers).toEqual([]);
    expect(value(h['events:reconciles']({ uid: 's-db' })).reconciles).toEqual([]);
  });

  it('does not count HPAs whose status never reports observedGeneration', () => {
    const { cache, h } = setup();
    upsertBuiltin(cache, object('HorizontalPodAutoscaler', 'web', 'h-web', { generation: 2 }));
    vi.advanceTimersByTime(10 * 60_000);
    expect(value(h['events:controllers']({})).controllers).toEqual([]);
  });

  it('answers who acted on a workload: its own Events, its descendants (even deleted ones) and its HPA, in causal order', () => {
    const { cache, h } = setup();
    const web = object('Deployment', 'web', 'd-web', { generation: 2, observedGeneration: 2 });
    const rs = object('ReplicaSet', 'web-7d4b', 'rs-1', { owner: web });
    const oldPod = object('Pod', 'web-7d4b-old', 'p-old', { owner: rs });
    const newPod = object('Pod', 'web-7d4b-new', 'p-new', { owner: rs });
    const other = object('Pod', 'cart-1', 'p-cart');
    const hpa = object('HorizontalPodAutoscaler', 'web', 'h-web', { extra: { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } } } });
    for (const o of [web, rs, oldPod, newPod, other, hpa]) upsertBuiltin(cache, o);
    upsertBuiltin(cache, event('a1', web, 'ScalingReplicaSet', 'deployment-controller', '2025-05-02T09:20:00Z'));
    upsertBuiltin(cache, event('a2', rs, 'SuccessfulCreate', 'replicaset-controller', '2025-05-02T09:20:00Z'));
    upsertBuiltin(cache, event('a3', newPod, 'Scheduled', 'default-scheduler', '2025-05-02T09:20:01Z'));
    upsertBuiltin(cache, event('a4', oldPod, 'Killing', 'kubelet', '2025-05-02T09:20:09Z'));
    upsertBuiltin(cache, event('a5', hpa, 'SuccessfulRescale', 'horizontal-pod-autoscaler', '2025-05-02T09:19:50Z'));
    upsertBuiltin(cache, event('x1', other, 'Killing', 'kubelet', '2025-05-02T09:20:05Z'));
    upsertBuiltin(cache, event('x2', web, 'ScalingReplicaSet', 'deployment-controller', '2025-05-02T08:00:00Z'));
    cache.delete('pods', 'p-old');
    const result = value(h['events:actions']({ uid: 'd-web', from: Date.parse('2025-05-02T09:19:00Z'), to: Date.parse('2025-05-02T09:25:00Z') }));
    expect(result.workload).toEqual({ kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'd-web' });
    expect(result.actions.map((a) => [a.controller, a.reason, a.object.name, a.depth])).toEqual([
      ['horizontal-pod-autoscaler', 'SuccessfulRescale', 'web', 0],
      ['deployment-controller', 'ScalingReplicaSet', 'web', 0],
      ['replicaset-controller', 'SuccessfulCreate', 'web-7d4b', 1],
      ['default-scheduler', 'Scheduled', 'web-7d4b-new', 2],
      ['kubelet', 'Killing', 'web-7d4b-old', 2],
    ]);
    expect(result.truncated).toBe(false);
  });

  it('answers bad input with a clear error', () => {
    const { h } = setup();
    const backwards = h['events:controllers']({ from: T0, to: T0 - 1 });
    expect(backwards).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringMatching(/must start before it ends/) } });
    expect(h['events:actions']({ uid: 'nope', from: T0 - 1_000, to: T0 })).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringContaining('nope') } });
  });
});
