/**
 * A workload deleted while its namespace could not be read: when the namespace is listed again
 * (the access returned) and it is not there, its stretch out of view closes where the list came,
 * marked as a deletion at an unknown moment within it (never a made-up time), and it no longer
 * grows to "now". Retention removes such a stretch once it is older than the age limit.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { openStore, type HistoryStore } from '../../../../electron/engine/history/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment, manualClock } from './fixtures.ts';

const MIN = 60_000;
const DAY = 86_400_000;
const DEPLOYMENTS = 'deployments.apps';

let dir: string;
let cleanup: () => Promise<void>;
let cache: ObjectCache;
let clock: ReturnType<typeof manualClock>;
let store: HistoryStore;
let maxAgeMs = 14 * DAY;

beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir());
  cache = new ObjectCache();
  clock = manualClock();
  maxAgeMs = 14 * DAY;
  store = open();
});
afterEach(async () => {
  store.close();
  await cleanup();
});

function open(): HistoryStore {
  return openStore({
    file: historyFile(path.join(dir, 'data'), 'test'),
    context: 'test',
    cache,
    record: true,
    now: clock.now,
    log: () => undefined,
    limits: () => ({ maxAgeMs, maxBytes: 1024 ** 3 }),
    onStatus: () => undefined,
    timing: { flushIntervalMs: 2 ** 30, heartbeatCheckMs: 2 ** 30, retryMs: 2 ** 30 },
  });
}

/** `payments/api`, one of two replicas ready: drifting. */
const api = () => deployment('api', 'u-api', { replicas: 2, ready: 1 }, 'payments');
const web = () => deployment('web', 'u-web', {}, 'shop');
const revokePayments = () => cache.leave(DEPLOYMENTS, (object) => object.metadata.namespace !== 'payments');

const row = () => store.db.prepare("SELECT deleted_at FROM workloads WHERE uid = 'u-api'").get() as { deleted_at: number | null };
const stretches = () => store.db.prepare('SELECT start_at AS start, end_at AS "end", gone FROM unobserved').all() as Array<{ start: number; end: number | null; gone: number | null }>;
const episodes = () => store.db.prepare('SELECT start_at AS start, end_at AS "end" FROM episodes ORDER BY id').all() as Array<{ start: number; end: number | null }>;

/** api is in view, then payments is no longer readable; returns when it left. */
async function leaveAt(): Promise<number> {
  upsertBuiltin(cache, api());
  upsertBuiltin(cache, web());
  clock.advance(MIN);
  const leftAt = clock.now();
  expect(revokePayments()).toBe(1);
  await store.flush();
  return leftAt;
}

describe('a workload deleted while out of view', () => {
  it('closes its stretch where payments is listed again without it, as a deletion within the stretch', async () => {
    const start = clock.now();
    const leftAt = await leaveAt();
    clock.advance(20 * MIN);
    const backAt = clock.now();
    // The access returned: payments' list holds no api any more.
    cache.replaceNamespace(DEPLOYMENTS, 'payments', []);
    await store.flush();

    expect(stretches()).toEqual([{ start: leftAt, end: backAt, gone: 1 }]);
    // Gone as of the list (the row needs a time for retention), the episode ended where it left.
    expect(row().deleted_at).toBe(backAt);
    expect(episodes()).toEqual([{ start, end: leftAt }]);
    clock.advance(3 * 60 * MIN);
    const gap = { start: leftAt, end: backAt, reason: 'access-withdrawn', deletedWithin: true };
    // It stays closed: hours later it still ends where the access returned, not at "now".
    expect(store.series({ uid: 'u-api', from: start, to: clock.now() })?.gaps).toEqual([gap]);
    expect(store.episodes.episodes({ from: start, to: clock.now() }).workloadGaps).toEqual([{ ...gap, uid: 'u-api' }]);
    // Its lines end (a tombstone), as after a delete seen live.
    expect(store.compare(start, clock.now())).toEqual([expect.objectContaining({ workload: expect.objectContaining({ uid: 'u-api' }), changed: ['deleted'] })]);
  });

  it('is closed by a list of that namespace only, and not when the list brings it back', async () => {
    const leftAt = await leaveAt();
    clock.advance(10 * MIN);
    cache.replaceNamespace(DEPLOYMENTS, 'shop', [web()]);
    cache.replaceNamespace('statefulsets.apps', 'payments', []);
    await store.flush();
    expect(stretches()).toEqual([{ start: leftAt, end: null, gone: null }]);
    const backAt = clock.now();
    cache.replaceNamespace(DEPLOYMENTS, 'payments', [api()]);
    await store.flush();
    expect(stretches()).toEqual([{ start: leftAt, end: backAt, gone: null }]);
    expect(row().deleted_at).toBeNull();
  });

  it('closes a stretch an earlier session left open, once the cluster-wide list of the kind lacks it', async () => {
    const leftAt = await leaveAt();
    store.close();
    clock.advance(30 * MIN);
    store = open();
    clock.advance(MIN);
    const backAt = clock.now();
    cache.replaceKind(DEPLOYMENTS, [web()]);
    await store.flush();
    expect(stretches()).toEqual([{ start: leftAt, end: backAt, gone: 1 }]);
    expect(row().deleted_at).toBe(backAt);
  });

  it('lets retention remove the closed stretch once it is older than the age limit', async () => {
    await leaveAt();
    clock.advance(10 * MIN);
    cache.replaceNamespace(DEPLOYMENTS, 'payments', []);
    await store.flush();
    expect(stretches()).toHaveLength(1);
    maxAgeMs = DAY;
    clock.advance(DAY + MIN);
    store.applyRetention();
    expect(stretches()).toEqual([]);
  });
});
