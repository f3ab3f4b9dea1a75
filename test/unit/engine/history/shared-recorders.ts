/**
 * Recorders of one context into a shared PostgreSQL store, each from a data folder of its own (or
 * a given one: the same recorder started again), on a manual clock, with their status changes and
 * log lines kept; every store is closed and every folder removed after each test. Used by the
 * writer-claim and takeover suites, which differ only in what they do with them.
 */
import path from 'node:path';
import { afterEach } from 'vitest';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { openHistoryStore } from '../../../../electron/engine/history/open-store.ts';
import type { HistoryStore } from '../../../../electron/engine/history/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import type { HistoryStatus } from '../../../../shared/contracts/history.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { manualClock } from './fixtures.ts';
import { MANUAL_TIMING } from './harness.ts';

/** One recorder and what it was told. */
export interface SharedRecorder {
  store: HistoryStore;
  cache: ObjectCache;
  clock: ReturnType<typeof manualClock>;
  logs: string[];
  statuses: HistoryStatus[];
  /** Its data folder (a second store on it is the same recorder started again). */
  dir: string;
  /** Its history file. */
  file: string;
}

/** How one recorder is opened. */
export interface SharedRecorderOptions {
  /** The data folder; a new one when absent. */
  dir?: string;
  /** The clock's start, ms since the epoch; now when absent. */
  start?: number;
  /** false: a store that reads but does not record. */
  record?: boolean;
}

/** `recorder(url, label, options)` for `context`, registering the closing and clean-up after each test. */
export function sharedRecorders(context: string): (url: string, label: string, options?: SharedRecorderOptions) => Promise<SharedRecorder> {
  const cleanups: Array<() => Promise<void>> = [];
  const stores: HistoryStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) store.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return async (url, label, options = {}) => {
    let dir = options.dir;
    if (!dir) {
      const temp = await withTempDir();
      cleanups.push(temp.cleanup);
      dir = temp.dir;
    }
    const cache = new ObjectCache();
    const clock = manualClock(options.start ?? Date.now());
    const logs: string[] = [];
    const statuses: HistoryStatus[] = [];
    const file = historyFile(path.join(dir, 'data'), context);
    const store = openHistoryStore({
      store: url,
      syncIntervalMs: 2 ** 30,
      writerLabel: label,
      file,
      context,
      cache,
      record: options.record ?? true,
      now: clock.now,
      log: (line) => logs.push(line),
      limits: () => ({ maxAgeMs: 3_650 * 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: (status) => statuses.push(status),
      timing: MANUAL_TIMING,
    });
    stores.push(store);
    return { store, cache, clock, logs, statuses, dir, file };
  };
}
