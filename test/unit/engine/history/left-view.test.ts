/**
 * A workload that left the view (its namespace no longer readable: the cache drops it with
 * `left`) is not deleted in the history: its row keeps no deletion time, an unobserved stretch is
 * recorded and shown as an `access-withdrawn` gap on its chart and its lane, its episode never
 * spans the stretch, and when it comes back (same uid) it goes on. A real delete still is one.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { GAP_MS } from '../../../../electron/engine/history/recorder.ts';
import { openStore, type HistoryStore } from '../../../../electron/engine/history/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment, manualClock } from './fixtures.ts';

const MIN = 60_000;
const DEPLOYMENTS = 'deployments.apps';

let dir: string;
let cleanup: () => Promise<void>;
let cache: ObjectCache;
let clock: ReturnType<typeof manualClock>;
let store: HistoryStore;

beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir());
  cache = new ObjectCache();
  clock = manualClock();
  store = openStore({ ...storeOptions(), cache });
});
afterEach(async () => {
  store.close();
  await cleanup();
});

/** `payments/api`, one of two replicas ready: drifting. */
const api = () => deployment('api', 'u-api', { replicas: 2, ready: 1 }, 'payments');
/** The payments namespace is no longer readable: its objects leave the view. */
const revokePayments = () => cache.leave(DEPLOYMENTS, (object) => object.metadata.namespace !== 'payments');

const row = () => store.db.prepare("SELECT deleted_at FROM workloads WHERE uid = 'u-api'").get() as { deleted_at: number | null };
const stretches = () => store.db.prepare('SELECT start_at AS start, end_at AS "end" FROM unobserved').all() as Array<{ start: number; end: number | null }>;
const episodes = () => store.db.prepare('SELECT start_at AS start, end_at AS "end" FROM episodes ORDER BY id').all() as Array<{ start: number; end: number | null }>;

describe('a workload whose namespace left the view', () => {
  it('is not marked deleted; its stretch out of view is a gap on its chart and lane; its episode ends where it left and a new one starts when it is back', async () => {
    const start = clock.now();
    upsertBuiltin(cache, api());
    clock.advance(MIN);
    const leftAt = clock.now();
    expect(revokePayments()).toBe(1);
    await store.flush();
    expect(row().deleted_at).toBeNull();
    expect(stretches()).toEqual([{ start: leftAt, end: null }]);
    // Within GAP_MS it may still come back and go on: the episode is not closed yet.
    expect(episodes()).toEqual([{ start, end: null }]);

    clock.advance(10 * MIN);
    store.heartbeat();
    await store.flush();
    expect(episodes()).toEqual([{ start, end: leftAt }]);
    expect(store.series({ uid: 'u-api', from: start, to: clock.now() })?.gaps).toEqual([{ start: leftAt, end: clock.now(), reason: 'access-withdrawn' }]);

    const backAt = clock.now();
    upsertBuiltin(cache, api());
    clock.advance(MIN);
    await store.flush();
    expect(row().deleted_at).toBeNull();
    expect(stretches()).toEqual([{ start: leftAt, end: backAt }]);
    expect(episodes()).toEqual([
      { start, end: leftAt },
      { start: backAt, end: null },
    ]);
    const series = store.series({ uid: 'u-api', from: start, to: clock.now() });
    expect(series?.gaps).toEqual([{ start: leftAt, end: backAt, reason: 'access-withdrawn' }]);
    // The chart's ready line has values on both sides of the gap and none inside it.
    const ready = series?.series.find((s) => s.name === 'ready')?.points ?? [];
    expect(ready.some(([at, value]) => at < leftAt && value === 1)).toBe(true);
    expect(ready.some(([at, value]) => at >= backAt && value === 1)).toBe(true);
    expect(ready.filter(([at, value]) => at > leftAt && at < backAt && value !== null)).toEqual([]);
    expect(store.episodes.episodes({ from: start, to: clock.now() }).workloadGaps).toEqual([{ uid: 'u-api', start: leftAt, end: backAt, reason: 'access-withdrawn' }]);
    expect(store.episodes.episodes({ from: start, to: clock.now(), namespace: 'shop' }).workloadGaps).toEqual([]);
  });

  it('goes on as if nothing happened when it is back within GAP_MS: one episode, no gap', async () => {
    const start = clock.now();
    upsertBuiltin(cache, api());
    clock.advance(MIN);
    revokePayments();
    clock.advance(GAP_MS / 3);
    store.heartbeat();
    upsertBuiltin(cache, api());
    clock.advance(MIN);
    await store.flush();
    expect(row().deleted_at).toBeNull();
    expect(episodes()).toEqual([{ start, end: null }]);
    expect(store.series({ uid: 'u-api', from: start, to: clock.now() })?.gaps).toEqual([]);
    expect(store.episodes.episodes({ from: start, to: clock.now() }).workloadGaps).toEqual([]);
  });

  it('stays out of view across a restart, and its stretch ends when a later session sees it again', async () => {
    upsertBuiltin(cache, api());
    clock.advance(MIN);
    const leftAt = clock.now();
    revokePayments();
    await store.flush();
    store.close();
    clock.advance(30 * MIN);
    store = openStore({ ...storeOptions(), cache });
    clock.advance(MIN);
    const backAt = clock.now();
    upsertBuiltin(cache, api());
    await store.flush();
    expect(stretches()).toEqual([{ start: leftAt, end: backAt }]);
    expect(row().deleted_at).toBeNull();
  });

  it('is still marked deleted when the cluster deletes it', async () => {
    upsertBuiltin(cache, api());
    clock.advance(MIN);
    cache.delete(DEPLOYMENTS, 'u-api');
    await store.flush();
    expect(row().deleted_at).toBe(clock.now());
    expect(stretches()).toEqual([]);
  });
});

function storeOptions() {
  return {
    file: historyFile(path.join(dir, 'data'), 'test'),
    context: 'test',
    record: true,
    now: clock.now,
    log: () => undefined,
    limits: () => ({ maxAgeMs: 14 * 86_400_000, maxBytes: 1024 ** 3 }),
    onStatus: () => undefined,
    timing: { flushIntervalMs: 2 ** 30, heartbeatCheckMs: 2 ** 30, retryMs: 2 ** 30 },
  };
}
