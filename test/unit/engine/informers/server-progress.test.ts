/**
 * The server's progress: when the API server is known to have reached a resourceVersion (from
 * notes and from probes of a list of one object), so a watch's lag can count the time a change
 * waited before the engine read it.
 */
import { describe, expect, it } from 'vitest';
import { ApiStatusError } from '../../../../electron/engine/cluster/informers/http.ts';
import { PROBE_FAILURE_PAUSE_MS, PROBE_INTERVAL_MS, ServerProgress } from '../../../../electron/engine/cluster/informers/server-progress.ts';
import { FakeClock } from './helpers.ts';

/** A probe the test answers by hand. */
function manualProbe() {
  const calls: Array<{ path: string; signal: AbortSignal; answer: (rv: string | undefined) => void; fail: (error: Error) => void }> = [];
  const probe = (path: string, signal: AbortSignal) =>
    new Promise<string | undefined>((resolve, reject) => {
      calls.push({ path, signal, answer: resolve, fail: reject });
    });
  return { calls, probe };
}

describe('the server progress', () => {
  it('answers the earliest time a version was known to be reached, and nothing for newer versions', () => {
    const clock = new FakeClock();
    const start = clock.time;
    const progress = new ServerProgress({ clock });
    progress.note('100', start, true);
    progress.note('250', start + 1_000, true);
    progress.note('400', start + 2_000, true);
    expect(progress.reachedAt('100')).toBe(start);
    expect(progress.reachedAt('90')).toBe(start);
    // Between two samples: reached by the later one (never earlier than the truth).
    expect(progress.reachedAt('101')).toBe(start + 1_000);
    expect(progress.reachedAt('400')).toBe(start + 2_000);
    expect(progress.reachedAt('401')).toBeUndefined();
  });

  it('ignores versions that are not decimal integers and versions that did not grow', () => {
    const clock = new FakeClock();
    const progress = new ServerProgress({ clock });
    progress.note('500', clock.time, true);
    progress.note('abc', clock.time + 1_000, true);
    progress.note('300', clock.time + 2_000, true);
    expect(progress.reachedAt('300')).toBe(clock.time);
    expect(progress.reachedAt('abc')).toBeUndefined();
    expect(progress.reachedAt(undefined)).toBeUndefined();
  });

  it('takes a watch line note at most every 50 ms, a probe answer always', () => {
    const clock = new FakeClock();
    const start = clock.time;
    const progress = new ServerProgress({ clock });
    progress.note('10', start);
    progress.note('20', start + 10);
    expect(progress.reachedAt('20')).toBeUndefined();
    progress.note('30', start + 20, true);
    expect(progress.reachedAt('20')).toBe(start + 20);
    progress.note('40', start + 80);
    expect(progress.reachedAt('40')).toBe(start + 80);
  });

  it('probes a busy watch at most once per interval and dates the answer by its arrival', async () => {
    const clock = new FakeClock();
    const { calls, probe } = manualProbe();
    const progress = new ServerProgress({ clock, probe });
    progress.wanted('/api/v1/pods');
    progress.wanted('/api/v1/pods');
    expect(calls.map((c) => c.path)).toEqual(['/api/v1/pods']);
    clock.time += 300;
    (calls[0] as (typeof calls)[number]).answer('1234');
    await Promise.resolve();
    expect(progress.probes).toBe(1);
    expect(progress.reachedAt('1234')).toBe(clock.time);
    // Within the interval: no second probe; after it, one.
    progress.wanted('/api/v1/pods');
    expect(calls).toHaveLength(1);
    clock.time += PROBE_INTERVAL_MS;
    progress.wanted('/api/v1/pods');
    expect(calls).toHaveLength(2);
  });

  it('tries again after the interval when a probe got no answer (a refused stream)', async () => {
    const clock = new FakeClock();
    const { calls, probe } = manualProbe();
    const progress = new ServerProgress({ clock, probe, log: () => undefined });
    progress.wanted('/api/v1/pods');
    (calls[0] as (typeof calls)[number]).fail(new Error('Stream closed with error code NGHTTP2_ENHANCE_YOUR_CALM'));
    await Promise.resolve();
    await Promise.resolve();
    clock.time += PROBE_INTERVAL_MS;
    progress.wanted('/api/v1/pods');
    expect(calls).toHaveLength(2);
  });

  it('pauses after the server answered a probe with an error and aborts the one under way when stopped', async () => {
    const clock = new FakeClock();
    const { calls, probe } = manualProbe();
    const logs: string[] = [];
    const progress = new ServerProgress({ clock, probe, log: (line) => logs.push(line) });
    progress.wanted('/api/v1/pods');
    (calls[0] as (typeof calls)[number]).fail(new ApiStatusError(403, 'Forbidden', 'forbidden'));
    await Promise.resolve();
    await Promise.resolve();
    expect(logs.join()).toMatch(/progress probe of \/api\/v1\/pods failed \(forbidden\)/);
    clock.time += PROBE_INTERVAL_MS;
    progress.wanted('/api/v1/pods');
    expect(calls).toHaveLength(1);
    clock.time += PROBE_FAILURE_PAUSE_MS;
    progress.wanted('/api/v1/pods');
    expect(calls).toHaveLength(2);
    progress.stop();
    expect((calls[1] as (typeof calls)[number]).signal.aborted).toBe(true);
    clock.time += PROBE_FAILURE_PAUSE_MS;
    progress.wanted('/api/v1/pods');
    expect(calls).toHaveLength(2);
  });
});
