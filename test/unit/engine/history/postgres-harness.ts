/**
 * The PostgreSQL side of the history test harness: when KUBEDRIFT_TEST_HISTORY_STORE is
 * `postgres`, each test file starts its own server (test/helpers/postgres.ts) and each test gets
 * a database of its own, so the history tests run unchanged against the shared store.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect } from 'vitest';
import { openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { createPool } from '../../../../electron/engine/history/postgres/connection.ts';
import { migrateShared, q, readLayout } from '../../../../electron/engine/history/postgres/layout.ts';
import { SCHEMA_VERSION } from '../../../../electron/engine/history/schema.ts';
import { pullOnce } from '../../../../electron/engine/history/postgres/pull.ts';
import { pushOnce } from '../../../../electron/engine/history/postgres/push.ts';
import type { TestPostgres } from '../../../helpers/postgres.ts';
import { postgresForFile } from '../../../helpers/postgres-per-file.ts';

/** Which store the history tests run against (the `history-postgres` project sets it). */
export const TEST_HISTORY_STORE = process.env['KUBEDRIFT_TEST_HISTORY_STORE'] === 'postgres' ? 'postgres' : 'sqlite';

export interface PostgresPerFile {
  /** A new, empty database on the file's server; its connection string. */
  freshDatabase(): Promise<string>;
  server(): TestPostgres;
  /**
   * After a test (its store closed): sends what the journal still queues, then has another
   * app's replica read the context from PostgreSQL alone, and expects every history table to
   * hold exactly the journal's rows: what the test wrote went through the shared database whole.
   */
  verifyCopied(journalFile: string, context: string, url: string, dir: string): Promise<void>;
}

const rowsOf = (db: DatabaseSync, table: ReturnType<typeof readLayout>[number]): unknown[] =>
  db.prepare(`SELECT ${table.columns.map((c) => q(c.name)).join(', ')} FROM ${q(table.name)} ORDER BY ${table.key.map(q).join(', ')}`).all();

/** Registers a server for the calling test file when the history tests run against PostgreSQL. */
export function postgresPerFile(): PostgresPerFile | undefined {
  if (TEST_HISTORY_STORE !== 'postgres') return undefined;
  const file = postgresForFile('history');
  return {
    server: file.server,
    freshDatabase: file.freshDatabase,
    async verifyCopied(journalFile, context, url, dir) {
      const pool = createPool(url, () => undefined);
      const journal = new DatabaseSync(journalFile);
      const replica = openHistoryDb(path.join(dir, 'other-app', 'replica.sqlite')).db;
      try {
        const layout = readLayout(journal);
        // A test that closed its store at once may have ended before the store reached the database.
        await migrateShared(pool, layout, SCHEMA_VERSION);
        for (;;) {
          const pushed = await pushOnce(journal, pool, context, layout);
          if (pushed.upserted + pushed.deleted === 0) break;
        }
        await pullOnce(replica, pool, context);
        for (const table of layout) expect(rowsOf(replica, table), `the shared copy of ${table.name}`).toEqual(rowsOf(journal, table));
      } finally {
        journal.close();
        replica.close();
        await pool.end();
      }
    },
  };
}
