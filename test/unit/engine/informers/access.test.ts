import { afterEach, describe, expect, it } from 'vitest';
import type { KindKey } from '../../../../shared/cluster.ts';
import { HEALTH_THROTTLE_MS } from '../../../../electron/engine/cluster/informers/health.ts';
import { FORBIDDEN_RETRY_MS } from '../../../../electron/engine/cluster/informers/reflector.ts';
import { DEFAULT_BACKOFF, HEALTHY_RESET_MS } from '../../../../electron/engine/cluster/informers/timing.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { startSimCluster } from '../../../../electron/engine/simcluster/index.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { FakeClock, startQuietCluster, T, waitFor, watching, type FakeTimer, type Watching } from './helpers.ts';

const KINDS: KindKey[] = ['namespaces', 'nodes', 'pods', 'deployments.apps', 'replicasets.apps'];
const PODS_PATH = '/api/v1/pods';
const DENIED = 'pods is forbidden: User "viewer" cannot list resource "pods" in API group "" at the cluster scope';

let sim: SimCluster | undefined;
let w: Watching | undefined;
afterEach(async () => {
  await w?.watcher.stop();
  await sim?.stop();
  w = undefined;
  sim = undefined;
});

/** Waits for a timer of the given length to be scheduled on the fake clock. */
function timerOf(clock: FakeClock, ms: number): Promise<FakeTimer> {
  return waitFor(`a ${ms} ms timer`, () => clock.pending().find((t) => t.ms === ms));
}

describe('access', () => {
  it('marks a forbidden kind and keeps the others live', async () => {
    sim = await startQuietCluster();
    sim.server.faults.failRequests({ status: 403, message: DENIED, match: (_method, path) => path === PODS_PATH });
    const clock = new FakeClock();
    w = watching(sim.kubeconfigObject(), { kinds: KINDS, clock });
    await w.watcher.start();
    await waitFor('pods forbidden, the rest live', () => w?.health.latest('pods')?.state === 'forbidden' && w.health.all(['namespaces', 'nodes', 'deployments.apps', 'replicasets.apps'], 'live'));
    expect(w.health.latest('pods')).toMatchObject({ state: 'forbidden', message: DENIED, count: 0 });
    // The others keep working: a new namespace arrives while pods stay forbidden.
    const created = sim.store.create(T('namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'late' } });
    await waitFor('the new namespace', () => w?.cache.get('namespaces', created.metadata.uid as string));
    // Retried slowly; once access is granted the kind goes live.
    const retry = await timerOf(clock, FORBIDDEN_RETRY_MS);
    sim.server.faults.clear();
    clock.fire(retry);
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live');
    expect(w.cache.size('pods')).toBe(12);
  });

  it('takes Events from events.k8s.io when core Events are forbidden, in the core shape', async () => {
    sim = await startSimCluster({ scenario: 'minimal', bookmarkIntervalMs: 50 });
    const running = sim;
    await waitFor('some events', () => running.store.all(T('events')).length >= 3);
    sim.server.faults.failRequests({ status: 403, match: (_method, path) => path === '/api/v1/events' });
    w = watching(sim.kubeconfigObject(), { kinds: ['events'] });
    await w.watcher.start();
    await waitFor('events live', () => w?.health.latest('events')?.state === 'live');
    expect(w.logs.some((m) => m.includes('trying /apis/events.k8s.io/v1/events'))).toBe(true);
    // Each cached Event equals what the core API shows for the same stored object and version.
    let compared = 0;
    for (const stored of running.store.all(T('events'))) {
      const cached = w.cache.get('events', stored.metadata.uid as string);
      if (!cached || cached.metadata.resourceVersion !== String(stored.metadata.resourceVersion)) continue;
      expect(cached).toEqual(slimObject(stored, { kind: 'events', objectKind: 'Event', apiVersion: 'v1' }));
      expect(cached).toMatchObject({ kind: 'Event', apiVersion: 'v1', involvedObject: expect.any(Object), message: expect.any(String) });
      compared += 1;
    }
    expect(compared).toBeGreaterThanOrEqual(3);
  });

  it('reports 401 as reconnecting with a clear message and recovers with the credentials', async () => {
    sim = await startQuietCluster();
    sim.server.faults.failRequests({ status: 401, count: 1, match: (_method, path) => path === PODS_PATH });
    w = watching(sim.kubeconfigObject(), { kinds: ['pods'] });
    await w.watcher.start();
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live');
    const reconnecting = w.health.reports.flat().find((h) => h.kind === 'pods' && h.state === 'reconnecting');
    expect(reconnecting?.message).toMatch(/rejected the credentials \(401 Unauthorized\).*Log in again/);
  });

  it('honours Retry-After on 429', async () => {
    sim = await startQuietCluster();
    sim.server.faults.failRequests({ status: 429, retryAfterSeconds: 7, count: 1, match: (_method, path) => path === PODS_PATH });
    const clock = new FakeClock();
    w = watching(sim.kubeconfigObject(), { kinds: ['pods'], clock, random: () => 0.5 });
    await w.watcher.start();
    const retry = await timerOf(clock, 7_000);
    expect(w.health.latest('pods')).toMatchObject({ state: 'reconnecting', message: expect.stringContaining('429 Too Many Requests); retrying in 7 s') });
    clock.fire(retry);
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live');
  });
});

describe('backoff', () => {
  it('grows the retry delay exponentially up to the cap and resets after a healthy period', async () => {
    sim = await startQuietCluster();
    sim.server.faults.failRequests({ status: 500, match: (_method, path) => path === PODS_PATH });
    const clock = new FakeClock();
    const watchdogMs = 123_456;
    w = watching(sim.kubeconfigObject(), { kinds: ['pods'], clock, random: () => 1, backoff: { initialMs: 500, maxMs: 30_000 }, watchdogMs });
    await w.watcher.start();
    const delays: number[] = [];
    let seen = new Set<number>();
    const nextRetry = () => waitFor('the next retry', () => clock.pending().find((t) => !seen.has(t.id) && t.ms !== watchdogMs && t.ms !== HEALTH_THROTTLE_MS));
    for (let i = 0; i < 9; i += 1) {
      const timer = await nextRetry();
      delays.push(timer.ms);
      seen = new Set([...seen, timer.id]);
      if (i < 8) clock.fire(timer);
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(w.health.latest('pods')).toMatchObject({ state: 'unavailable', message: expect.stringContaining('500 InternalError') });
    // Healthy for the healthy period, then cut: the next delay starts from the beginning again.
    sim.server.faults.clear();
    const last = clock.pending().find((t) => t.ms === 30_000) as FakeTimer;
    clock.fire(last);
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live');
    clock.time += HEALTHY_RESET_MS;
    sim.server.faults.cutWatches();
    expect((await nextRetry()).ms).toBe(500);
  });

  /** Cuts the pod watch `times` times, `upMs` after each reconnect; returns each retry delay. */
  async function blips(times: number, upMs: number): Promise<number[]> {
    sim = await startQuietCluster();
    const running = sim;
    const clock = new FakeClock();
    w = watching(sim.kubeconfigObject(), { kinds: ['pods'], clock, random: () => 1, backoff: DEFAULT_BACKOFF, watchdogMs: 123_456 });
    await w.watcher.start();
    await waitFor('pods live', () => w?.health.latest('pods')?.state === 'live');
    const seen = new Set(clock.pending().map((t) => t.id));
    const delays: number[] = [];
    for (let i = 0; i < times; i += 1) {
      clock.time += upMs;
      expect(running.server.faults.cutWatches()).toBe(1);
      const retry = await waitFor('the retry', () => clock.pending().find((t) => !seen.has(t.id) && t.ms !== 123_456 && t.ms !== HEALTH_THROTTLE_MS));
      seen.add(retry.id);
      delays.push(retry.ms);
      clock.fire(retry);
      await waitFor('pods live again', () => w?.health.latest('pods')?.state === 'live' && running.server.faults.openWatches() === 1);
    }
    return delays;
  }

  it('retries at once after every short blip, however many came within the last minute', async () => {
    expect(await blips(6, 15_000)).toEqual([500, 500, 500, 500, 500, 500]);
  });

  it('slows down, up to a 10 s cap, for a server that drops every watch within seconds', async () => {
    expect(await blips(7, 2_000)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });
});

describe('stop', () => {
  it('leaves no open watch, request or timer behind', async () => {
    sim = await startQuietCluster();
    const running = sim;
    const clock = new FakeClock();
    w = watching(sim.kubeconfigObject(), { kinds: KINDS, clock });
    await w.watcher.start();
    await waitFor('every kind live', () => w?.health.all(KINDS, 'live'));
    expect(sim.server.faults.openWatches()).toBe(KINDS.length);
    expect(clock.pending().length).toBeGreaterThan(0);
    await w.watcher.stop();
    expect(clock.pending()).toEqual([]);
    await waitFor('the server to see every watch closed', () => running.server.faults.openWatches() === 0);
    // Nothing comes back: no reflector reconnects after stop.
    const reports = w.health.reports.length;
    const pod = running.store.all(T('pods'))[0] as KubeObject;
    running.store.update(T('pods'), { ...pod, metadata: { ...pod.metadata, labels: { after: 'stop' } } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(running.server.faults.openWatches()).toBe(0);
    expect(w.health.reports.length).toBe(reports);
  });
});
