/**
 * A connect's first state and backfill are a bulk load: while they are written, SQLite's
 * automatic checkpoints wait for BULK_CHECKPOINT_PAGES instead of its default 1,000, and once
 * the backfill is written they are back to the default, the WAL folded into the file and cut
 * back to WAL_LIMIT_BYTES. A store that only reads keeps SQLite's default throughout.
 */
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BULK_CHECKPOINT_PAGES, CHECKPOINT_PAGES, WAL_LIMIT_BYTES } from '../../../../electron/engine/history/db.ts';
import type { HistoryStore } from '../../../../electron/engine/history/store.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

const autocheckpoint = (store: HistoryStore): number => (store.db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
const walBytes = (file: string): number => statSync(`${file}-wal`).size;

/** Writes `mb` megabytes in 1 MB transactions, as many commits as a bulk of rows makes. */
function writeMegabytes(store: HistoryStore, mb: number): void {
  store.db.exec('CREATE TABLE IF NOT EXISTS scratch (data BLOB)');
  const insert = store.db.prepare('INSERT INTO scratch (data) VALUES (?)');
  for (let i = 0; i < mb; i += 1) {
    store.db.exec('BEGIN');
    for (let j = 0; j < 16; j += 1) insert.run(new Uint8Array(64 * 1024).fill(i + j));
    store.db.exec('COMMIT');
  }
}

describe('checkpoints during a connect', () => {
  let h: StoreHarness;
  harnessPerTest((harness) => (h = harness));

  it("lets the WAL grow past SQLite's default until the backfill is written, then folds it and cuts the file back", async () => {
    expect(autocheckpoint(h.store)).toBe(BULK_CHECKPOINT_PAGES);
    writeMegabytes(h.store, 12);
    // Nothing was checkpointed on the way: at the default every commit past ~4 MB would have been.
    expect(walBytes(h.file)).toBeGreaterThan(11 * 1024 * 1024);

    await h.store.synced();
    expect(autocheckpoint(h.store)).toBe(CHECKPOINT_PAGES);
    // The next commit checkpoints the whole WAL; the one after restarts it, cut back to the limit.
    writeMegabytes(h.store, 1);
    writeMegabytes(h.store, 1);
    expect(walBytes(h.file)).toBeLessThanOrEqual(WAL_LIMIT_BYTES);
    expect(h.store.db.prepare('SELECT count(*) AS n FROM scratch').get()).toEqual({ n: 14 * 16 });
  });

  it("keeps SQLite's default in a store that only reads", () => {
    const store = h.reopen({ record: false });
    expect(autocheckpoint(store)).toBe(CHECKPOINT_PAGES);
  });
});
