/**
 * A history store on a temporary directory, fed through a real ObjectCache, on a manual clock,
 * flushed by hand: what the store tests drive.
 *
 * With KUBEDRIFT_TEST_HISTORY_STORE=postgres (the `history-postgres` test project) the same
 * tests run against the shared PostgreSQL store (postgres-harness.ts): a server per test file,
 * a fresh database per test.
 */
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { openHistoryStore } from '../../../../electron/engine/history/open-store.ts';
import type { HistoryStore } from '../../../../electron/engine/history/store.ts';
import type { SessionTiming } from '../../../../electron/engine/history/session.ts';
import type { RetentionLimits } from '../../../../electron/engine/history/retention.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import type { HistoryStatus } from '../../../../shared/contracts/history.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { manualClock } from './fixtures.ts';
import { postgresPerFile } from './postgres-harness.ts';

/** Timers that never fire on their own: the test flushes and beats. */
export const MANUAL_TIMING: SessionTiming = { flushIntervalMs: 2 ** 30, heartbeatCheckMs: 2 ** 30, retryMs: 2 ** 30 };

export interface StoreHarness {
  dir: string;
  file: string;
  cache: ObjectCache;
  clock: ReturnType<typeof manualClock>;
  statuses: HistoryStatus[];
  logs: string[];
  store: HistoryStore;
  limits: RetentionLimits;
  /** Closes the store and opens the file again (an app restart), keeping cache and clock. */
  reopen(options?: { record?: boolean; timing?: SessionTiming }): HistoryStore;
  /** Flushes, closes, lets `ms` pass with the app closed, and starts again on an empty cache. */
  restartAfter(ms: number): Promise<HistoryStore>;
}

export function storeHarness(dir: string, options: { timing?: SessionTiming; limits?: RetentionLimits; context?: string; store?: string } = {}): StoreHarness {
  const cache = new ObjectCache();
  const clock = manualClock();
  const statuses: HistoryStatus[] = [];
  const logs: string[] = [];
  const file = historyFile(path.join(dir, 'data'), options.context ?? 'test');
  const harness: StoreHarness = {
    dir,
    file,
    cache,
    clock,
    statuses,
    logs,
    limits: options.limits ?? { maxAgeMs: 14 * 86_400_000, maxBytes: 1024 ** 3 },
    store: undefined as unknown as HistoryStore,
    reopen(next = {}) {
      harness.store?.close();
      harness.store = openHistoryStore({
        ...(options.store ? { store: options.store, syncIntervalMs: 2 ** 30 } : {}),
        file,
        context: options.context ?? 'test',
        cache,
        record: next.record ?? true,
        now: clock.now,
        log: (m) => logs.push(m),
        limits: () => harness.limits,
        onStatus: (s) => statuses.push(s),
        timing: next.timing ?? options.timing ?? MANUAL_TIMING,
      });
      return harness.store;
    },
    async restartAfter(ms) {
      await harness.store.flush();
      harness.store.close();
      clock.advance(ms);
      // As on a context switch: the cache is emptied before the history hears of it.
      cache.clear();
      return harness.reopen();
    },
  };
  harness.reopen();
  return harness;
}

/** A fresh harness in a fresh temporary directory for every test of the file, handed to `set`. */
export function harnessPerTest(set: (harness: StoreHarness) => void, options: Parameters<typeof storeHarness>[1] = {}): void {
  let current: StoreHarness | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  const postgres = postgresPerFile();
  let store: string | undefined;
  beforeEach(async () => {
    const temp = await withTempDir();
    cleanup = temp.cleanup;
    store = postgres ? await postgres.freshDatabase() : undefined;
    current = storeHarness(temp.dir, { ...options, ...(store ? { store } : {}) });
    set(current);
  });
  afterEach(async () => {
    current?.store.close();
    if (postgres && current && store) await postgres.verifyCopied(current.file, options.context ?? 'test', store, current.dir);
    await cleanup?.();
  }, 180_000);
}
