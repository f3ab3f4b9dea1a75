/**
 * The lag shown counts the time before the socket: a change the server had long before the
 * engine read it (it waited in the server's buffer, in HTTP/2 flow control, in the kernel) makes
 * the kind say "behind by N s" even when the cache applies it at once, and the lag goes once
 * reads are fresh again. A busy watch asks for probes of the server's progress on its own path.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { KindKey } from '../../../../shared/cluster.ts';
import { ServerProgress } from '../../../../electron/engine/cluster/informers/server-progress.ts';
import { BUSY_LINES, READ_AGE_FRESH_MS, WatchIntake } from '../../../../electron/engine/cluster/informers/watch-intake.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { FakeClock } from './helpers.ts';

const PODS = 'pods' as KindKey;
const SOURCE = { kind: PODS, objectKind: 'Pod', apiVersion: 'v1' };

/** A MODIFIED line for pod `i` at `rv`, as kube-apiserver writes it (object last). */
function podLine(i: number, rv: number): string {
  const pod = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `web-${i}`, namespace: 'shop', uid: `uid-${i}`, resourceVersion: String(rv) },
    spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'registry.example/web:1' }] },
    status: { phase: 'Running' },
  };
  return JSON.stringify({ type: 'MODIFIED', object: pod });
}

function rig(probe?: (path: string) => void) {
  const clock = new FakeClock();
  const cache = new ObjectCache();
  const lags: Array<number | undefined> = [];
  const progress = new ServerProgress({ clock });
  const intake = new WatchIntake({
    kind: PODS,
    cache,
    clock,
    log: () => undefined,
    health: { count: () => undefined, setLag: (_kind, lag) => lags.push(lag?.lagMs) },
    source: () => SOURCE,
    onError: (error) => {
      throw error;
    },
    progress: { note: (rv, at, force) => progress.note(rv, at, force), reachedAt: (rv) => progress.reachedAt(rv), wanted: (path) => probe?.(path) },
    probePath: () => '/api/v1/pods',
  });
  return { clock, cache, lags, progress, intake };
}

describe('the watch lag with the server progress', () => {
  it('counts the time a line waited in the watch reader\'s worker', () => {
    const r = rig();
    // The server's progress knows nothing of this version: the read time dates it.
    r.intake.line(podLine(1, 990), 4_000);
    expect(r.cache.get(PODS, 'uid-1')?.metadata.resourceVersion).toBe('990');
    expect(r.lags).toEqual([4_000]);
  });

  it('reports a change read 6 s after the server had it, though applied at once', () => {
    const r = rig();
    // A probe answered: the server was at version 1000 at this moment.
    r.progress.note('1000', r.clock.time, true);
    r.clock.time += 6_000;
    r.intake.line(podLine(1, 990));
    expect(r.cache.get(PODS, 'uid-1')?.metadata.resourceVersion).toBe('990');
    expect(r.intake.waiting).toBe(0);
    expect(r.lags).toEqual([6_000]);
  });

  it('withdraws the lag once no old change was read for a while, without a next line', () => {
    const r = rig();
    r.progress.note('1000', r.clock.time, true);
    r.clock.time += 3_000;
    r.intake.line(podLine(1, 999));
    expect(r.lags).toEqual([3_000]);
    const recheck = r.clock.pending();
    expect(recheck).toHaveLength(1);
    expect(recheck[0]?.ms).toBe(READ_AGE_FRESH_MS);
    r.clock.fire(recheck[0] as NonNullable<(typeof recheck)[number]>);
    expect(r.lags).toEqual([3_000, undefined]);
  });

  it('says nothing for changes newer than anything the server was known to have', async () => {
    const r = rig();
    r.progress.note('1000', r.clock.time, true);
    r.clock.time += 6_000;
    for (let i = 0; i < 20; i += 1) {
      r.clock.time += 300;
      r.intake.line(podLine(i, 1001 + i));
      // One read per turn, as from the socket: each is applied before the next arrives.
      await nextTurn();
    }
    expect(r.intake.waiting).toBe(0);
    expect(r.lags).toEqual([]);
  });

  it('asks for a probe on its own path once BUSY_LINES arrive within a second', () => {
    const paths: string[] = [];
    const r = rig((path) => paths.push(path));
    for (let i = 0; i < BUSY_LINES; i += 1) r.intake.line(podLine(i, 10 + i));
    // The first window only starts the count.
    expect(paths).toEqual([]);
    r.clock.time += 500;
    for (let i = 0; i < BUSY_LINES; i += 1) r.intake.line(podLine(i, 1000 + i));
    expect(paths).toEqual(['/api/v1/pods']);
    // Slow lines (fewer than BUSY_LINES a second) ask for none.
    r.clock.time += 5_000;
    for (let i = 0; i < BUSY_LINES; i += 1) {
      r.clock.time += 10;
      r.intake.line(podLine(i, 2000 + i));
    }
    expect(paths).toEqual(['/api/v1/pods']);
  });
});
