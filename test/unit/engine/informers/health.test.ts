import { describe, expect, it } from 'vitest';
import type { KindHealth } from '../../../../shared/cluster.ts';
import { HEALTH_THROTTLE_MS, HealthBoard } from '../../../../electron/engine/cluster/informers/health.ts';
import { Backoff, DEFAULT_BACKOFF, Watchdog } from '../../../../electron/engine/cluster/informers/timing.ts';
import { FakeClock, type FakeTimer } from './helpers.ts';

function board() {
  const clock = new FakeClock();
  const reports: KindHealth[][] = [];
  const health = new HealthBoard({ kinds: ['pods', 'nodes'], clock, onHealth: (kinds) => reports.push(kinds) });
  return { clock, reports, health };
}

describe('HealthBoard', () => {
  it('reports a state change at once', () => {
    const { reports, health } = board();
    health.set('pods', 'live', { count: 3 });
    expect(reports).toHaveLength(1);
    expect(reports[0]?.find((h) => h.kind === 'pods')).toMatchObject({ state: 'live', count: 3 });
  });

  it('throttles sync progress to one trailing report per interval', () => {
    const { clock, reports, health } = board();
    for (let count = 1; count <= 50; count += 1) health.set('pods', 'syncing', { count: count * 500 });
    expect(reports).toHaveLength(0);
    const [timer] = clock.pending() as [FakeTimer];
    expect(timer.ms).toBe(HEALTH_THROTTLE_MS);
    clock.fire(timer);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.find((h) => h.kind === 'pods')).toMatchObject({ state: 'syncing', count: 25_000 });
    expect(clock.pending()).toEqual([]);
  });

  it('keeps since while the state holds and follows the latest message', () => {
    const { clock, reports, health } = board();
    health.set('nodes', 'reconnecting', { count: 1, message: 'first failure' });
    const since = reports.at(-1)?.find((h) => h.kind === 'nodes')?.since;
    clock.time += 5_000;
    health.set('nodes', 'reconnecting', { count: 1, message: 'second failure' });
    expect(reports).toHaveLength(2);
    expect(reports[1]?.find((h) => h.kind === 'nodes')).toMatchObject({ state: 'reconnecting', since, message: 'second failure' });
    clock.time += 5_000;
    health.set('nodes', 'live', { count: 1 });
    const live = reports.at(-1)?.find((h) => h.kind === 'nodes');
    expect(live).toMatchObject({ state: 'live', since: clock.time });
    expect(live?.message).toBeUndefined();
  });

  it('folds a pending count report into a state change and reports nothing after dispose', () => {
    const { clock, reports, health } = board();
    health.count('pods', 10);
    health.set('nodes', 'live', { count: 2 });
    expect(reports).toHaveLength(1);
    expect(reports[0]?.find((h) => h.kind === 'pods')?.count).toBe(10);
    expect(clock.pending()).toEqual([]);
    health.count('pods', 11);
    health.dispose();
    expect(clock.pending()).toEqual([]);
    health.set('pods', 'live', { count: 11 });
    expect(reports).toHaveLength(1);
  });
});

describe('Backoff', () => {
  it('doubles from the initial delay, never exceeds the cap, and jitters within [base/2, base]', () => {
    const values = [0, 0.5, 1];
    let i = 0;
    const backoff = new Backoff({ initialMs: 500, maxMs: 30_000 }, () => values[i++ % 3] ?? 0);
    const delays = Array.from({ length: 12 }, () => backoff.next());
    const bases = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000];
    expect(delays).toEqual(bases.map((base, n) => base / 2 + ((values[n % 3] ?? 0) * base) / 2));
    backoff.reset();
    expect(backoff.next()).toBe(250);
  });

  it('by default retries within half a second and never waits more than 10 s', () => {
    const backoff = new Backoff(DEFAULT_BACKOFF, () => 1);
    expect(Array.from({ length: 8 }, () => backoff.next())).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('forgives earlier failures once a connection has stayed up for the healthy period', () => {
    const backoff = new Backoff({ initialMs: 500, maxMs: 10_000, healthyResetMs: 10_000 }, () => 1);
    for (let i = 0; i < 4; i += 1) backoff.next();
    backoff.connected(1_000);
    backoff.disconnected(11_000);
    expect(backoff.next()).toBe(500);
  });

  it('keeps counting failures when each connection drops sooner than the healthy period', () => {
    const backoff = new Backoff({ initialMs: 500, maxMs: 10_000, healthyResetMs: 10_000 }, () => 1);
    const delays: number[] = [];
    for (let at = 0; at < 5 * 9_000; at += 9_000) {
      backoff.connected(at);
      backoff.disconnected(at + 8_999);
      delays.push(backoff.next());
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000]);
  });
});

describe('Watchdog', () => {
  it('fires after a silence and is postponed by every sign of life', () => {
    const clock = new FakeClock();
    const silences: number[] = [];
    const watchdog = new Watchdog(clock, 1_000, (ms) => silences.push(ms));
    watchdog.arm();
    clock.time += 600;
    watchdog.alive();
    clock.fire(clock.pending()[0] as FakeTimer);
    // 400 ms after the last sign of life: not yet; it waits the remaining 600 ms.
    expect(silences).toEqual([]);
    const [rescheduled] = clock.pending() as [FakeTimer];
    expect(rescheduled.ms).toBe(600);
    clock.fire(rescheduled);
    expect(silences).toEqual([1_000]);
    expect(clock.pending()).toEqual([]);
  });

  it('leaves no timer once disarmed', () => {
    const clock = new FakeClock();
    const watchdog = new Watchdog(clock, 1_000, () => undefined);
    watchdog.arm();
    watchdog.arm();
    expect(clock.pending()).toHaveLength(1);
    watchdog.disarm();
    expect(clock.pending()).toEqual([]);
  });
});
