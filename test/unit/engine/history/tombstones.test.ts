/**
 * Tombstones in the shared PostgreSQL store, on a real server this file starts: a recorder's
 * deletions older than its retention age are pruned (with the context's pruning mark moved past
 * them), younger ones stay; a replica that had read before and missed a pruned deletion reads the
 * context again whole instead of keeping the deleted row; an up-to-date or new replica does not.
 * The recording store prunes its context's tombstones when it syncs.
 */
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { historyFile, openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { DAY_MS } from '../../../../electron/engine/history/retention.ts';
import { openHistoryStore } from '../../../../electron/engine/history/open-store.ts';
import { createPool } from '../../../../electron/engine/history/postgres/connection.ts';
import { migrateShared, type TableLayout } from '../../../../electron/engine/history/postgres/layout.ts';
import { installOutbox } from '../../../../electron/engine/history/postgres/outbox.ts';
import { pullOnce } from '../../../../electron/engine/history/postgres/pull.ts';
import { pushOnce } from '../../../../electron/engine/history/postgres/push.ts';
import { pruneTombstones, prunedUpTo } from '../../../../electron/engine/history/postgres/tombstones.ts';
import { SCHEMA_VERSION } from '../../../../electron/engine/history/schema.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { postgresForFile } from '../../../helpers/postgres-per-file.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { MANUAL_TIMING } from './harness.ts';

const CONTEXT = 'prod';
const T0 = Date.UTC(2026, 0, 10);

const postgres = postgresForFile('tombstones');
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const freshDatabase = postgres.freshDatabase;

/** A recorder's journal feeding `url`, a pool on it, and a way to open replicas (other apps). */
async function setUp(url: string) {
  const temp = await withTempDir();
  cleanups.push(temp.cleanup);
  const journal = openHistoryDb(path.join(temp.dir, 'journal.sqlite')).db;
  cleanups.push(() => journal.close());
  const layout: TableLayout[] = installOutbox(journal, url);
  const pool = createPool(url, () => undefined);
  cleanups.push(() => pool.end());
  await migrateShared(pool, layout, SCHEMA_VERSION);
  let replicas = 0;
  return {
    journal,
    pool,
    /** Copies every queued change, dating its tombstones `at`. */
    async push(at: number): Promise<void> {
      for (;;) {
        const pushed = await pushOnce(journal, pool, CONTEXT, layout, () => at);
        if (pushed.upserted + pushed.deleted === 0) return;
      }
    },
    replica(): DatabaseSync {
      const db = openHistoryDb(path.join(temp.dir, `replica-${(replicas += 1)}.sqlite`)).db;
      cleanups.push(() => db.close());
      return db;
    },
  };
}

const sessions = (db: DatabaseSync): number[] => (db.prepare('SELECT id FROM sessions ORDER BY id').all() as Array<{ id: number }>).map((row) => Number(row.id));
const addSession = (db: DatabaseSync, id: number): void => void db.prepare('INSERT INTO sessions (id, start_at, end_at, end_reason) VALUES (?, ?, ?, ?)').run(id, T0 + id, T0 + id + 1, 'app-closed');
const tombstones = async (pool: pg.Pool): Promise<number> => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM kd_deleted WHERE context = $1', [CONTEXT])).rows[0]?.n);

describe('pruning the shared store\'s tombstones', () => {
  it('prunes only the deletions older than the age, and moves the context\'s pruning mark past them', async () => {
    const { journal, pool, push } = await setUp(await freshDatabase());
    for (const id of [1, 2, 3]) addSession(journal, id);
    await push(T0);
    journal.prepare('DELETE FROM sessions WHERE id = 1').run();
    await push(T0);
    journal.prepare('DELETE FROM sessions WHERE id = 2').run();
    await push(T0 + 20 * DAY_MS);
    expect(await tombstones(pool)).toBe(2);
    expect(await prunedUpTo(pool, CONTEXT)).toBe(0);

    // 14 days' retention, 21 days after the first deletion: it goes, the one of day 20 stays.
    expect(await pruneTombstones(pool, CONTEXT, T0 + 21 * DAY_MS - 14 * DAY_MS)).toBe(1);
    const left = await pool.query<{ key: string; rev: string }>('SELECT key, rev FROM kd_deleted WHERE context = $1', [CONTEXT]);
    expect(left.rows.map((row) => row.key)).toEqual(['[2]']);
    const mark = await prunedUpTo(pool, CONTEXT);
    expect(mark).toBeGreaterThan(0);
    expect(mark).toBeLessThan(Number(left.rows[0]?.rev));
    // Nothing more to prune: the mark stays.
    expect(await pruneTombstones(pool, CONTEXT, T0 + 21 * DAY_MS - 14 * DAY_MS)).toBe(0);
    expect(await prunedUpTo(pool, CONTEXT)).toBe(mark);
    // Another context's tombstones and mark are its own.
    expect(await prunedUpTo(pool, 'staging')).toBe(0);
  });

  it('has a replica that missed a pruned deletion read the context again whole; one that saw it, or a new one, does not', async () => {
    const { journal, pool, push, replica } = await setUp(await freshDatabase());
    for (const id of [1, 2, 3]) addSession(journal, id);
    await push(T0);
    const away = replica();
    const present = replica();
    expect(await pullOnce(away, pool, CONTEXT)).toMatchObject({ rows: 3, deleted: 0 });
    await pullOnce(present, pool, CONTEXT);

    journal.prepare('DELETE FROM sessions WHERE id = 2').run();
    await push(T0);
    // `present` reads the deletion before it is pruned; `away` does not.
    expect(await pullOnce(present, pool, CONTEXT)).toMatchObject({ deleted: 1 });
    expect(sessions(present)).toEqual([1, 3]);
    expect(await pruneTombstones(pool, CONTEXT, T0 + 1)).toBe(1);
    expect(await tombstones(pool)).toBe(0);

    // Without the pruning mark, `away` would keep session 2 for ever: no tombstone says it went.
    const reread = await pullOnce(away, pool, CONTEXT);
    expect(reread).toMatchObject({ reread: true, rows: 2 });
    expect(sessions(away)).toEqual([1, 3]);
    // Read whole once: the next pull is an ordinary one.
    expect(await pullOnce(away, pool, CONTEXT)).toEqual({ rows: 0, deleted: 0 });

    expect(await pullOnce(present, pool, CONTEXT)).toEqual({ rows: 0, deleted: 0 });
    expect(sessions(present)).toEqual([1, 3]);

    const fresh = replica();
    const first = await pullOnce(fresh, pool, CONTEXT);
    expect(first.reread).toBeUndefined();
    expect(sessions(fresh)).toEqual([1, 3]);
    expect(await pullOnce(fresh, pool, CONTEXT)).toEqual({ rows: 0, deleted: 0 });
  });

  it('is done by the recording store when it syncs, with its retention age', async () => {
    const url = await freshDatabase();
    const { journal, pool, push } = await setUp(url);
    // Ids the store's own sessions will not take (a row written again is no longer deleted).
    addSession(journal, 101);
    addSession(journal, 102);
    await push(T0);
    journal.prepare('DELETE FROM sessions WHERE id = 101').run();
    await push(T0);
    journal.prepare('DELETE FROM sessions WHERE id = 102').run();
    await push(T0 + 10 * DAY_MS);
    expect(await tombstones(pool)).toBe(2);

    const temp = await withTempDir();
    cleanups.push(temp.cleanup);
    const logs: string[] = [];
    const store = openHistoryStore({
      store: url,
      syncIntervalMs: 2 ** 30,
      file: historyFile(path.join(temp.dir, 'data'), CONTEXT),
      context: CONTEXT,
      cache: new ObjectCache(),
      record: true,
      now: () => T0 + 15 * DAY_MS,
      log: (line) => logs.push(line),
      limits: () => ({ maxAgeMs: 14 * DAY_MS, maxBytes: 1024 ** 3 }),
      onStatus: () => undefined,
      timing: MANUAL_TIMING,
    });
    try {
      await store.flush();
      const left = await pool.query<{ key: string }>('SELECT key FROM kd_deleted WHERE context = $1', [CONTEXT]);
      expect(left.rows).toEqual([{ key: '[102]' }]);
      expect(logs).toContain('[kubedrift] history: 1 deletions older than the retention age pruned from the shared store');
    } finally {
      store.close();
    }
  });
});
