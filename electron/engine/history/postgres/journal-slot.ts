/**
 * A shared store's journal (shared-store.ts) with its outbox layout and its echo into the
 * replica, as one replaceable unit: a takeover (takeover.ts) closes the journal, puts the copy
 * of the database's history in its place and opens that, and the recording restarting on it is
 * told what the one before had been told (the informers listed or synced, the connection lost),
 * so it carries on as a recorder started again on that file would.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { HistoryStore } from '../store.ts';
import { createEcho, type Echo } from './echo.ts';
import type { TableLayout } from './layout.ts';
import { installOutbox } from './outbox.ts';
import { swapInSeed } from './takeover.ts';

export interface JournalSlot {
  /** The journal now: read it here each time, never keep it (a takeover replaces it). */
  readonly store: HistoryStore;
  readonly layout: TableLayout[];
  readonly echo: Echo;
  objectsListed(): void;
  synced(): ReturnType<HistoryStore['synced']>;
  connection(lost: boolean): void;
  /**
   * Closes the journal, puts the closed file `seed` in its place (the journal kept beside it,
   * renamed with `at`), opens it and tells it what the one before was told; `onBackfilled` runs
   * when a backfill this began has finished. Returns where the old journal went.
   */
  replace(seed: string, at: number, onBackfilled: () => void): string;
}

/** Opens the journal (`open`), feeding the shared database `target`, echoed into `replica`. */
export function openJournalSlot(open: () => HistoryStore, target: string, replica: DatabaseSync): JournalSlot {
  let store = open();
  let layout = installOutbox(store.db, target);
  let echo = createEcho(store.db, replica, layout);
  let listed = false;
  let synced = false;
  let lost = false;
  return {
    get store() {
      return store;
    },
    get layout() {
      return layout;
    },
    get echo() {
      return echo;
    },
    objectsListed(): void {
      listed = true;
      store.objectsListed();
    },
    synced() {
      synced = true;
      return store.synced();
    },
    connection(isLost: boolean): void {
      lost = isLost;
      store.connection(isLost);
    },
    replace(seed: string, at: number, onBackfilled: () => void): string {
      // Its session ends as a recording switched off would; that file no longer feeds the shared store.
      store.close('recording-off');
      const aside = swapInSeed(store.file, seed, at);
      store = open();
      layout = installOutbox(store.db, target);
      echo = createEcho(store.db, replica, layout);
      if (lost) store.connection(true);
      if (listed) store.objectsListed();
      if (synced) void store.synced()?.then(onBackfilled);
      return aside;
    },
  };
}
