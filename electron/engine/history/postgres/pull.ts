/**
 * Copies one context's history from the shared database into a local replica: an ordinary
 * history SQLite file that the same queries read (series, episodes, state at a time, compare,
 * coverage), so a chart never waits on the network and the two stores cannot answer differently.
 *
 * Each table is read from where the replica stopped (`rev` > its mark in `shared_pull`), in
 * pages, newest tombstones included, and each page is written in one SQLite transaction with the
 * new mark, so an interrupted pull resumes without loss or duplicates. Columns the replica does
 * not know (a newer recorder) are left out.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type pg from 'pg';
import { q, readLayout, sharedTable, type TableLayout } from './layout.ts';

/** Rows per page read from PostgreSQL. */
export const PULL_PAGE_ROWS = 5_000;

export interface PullResult {
  rows: number;
  deleted: number;
}

function ensureMarks(db: DatabaseSync): void {
  db.exec('CREATE TABLE IF NOT EXISTS shared_pull (tbl TEXT PRIMARY KEY, rev INTEGER NOT NULL) WITHOUT ROWID');
}

function markOf(db: DatabaseSync, tbl: string): number {
  return Number((db.prepare('SELECT rev FROM shared_pull WHERE tbl = ?').get(tbl) as { rev: number } | undefined)?.rev ?? 0);
}

function inTransaction(db: DatabaseSync, work: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    work();
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

const setMark = (db: DatabaseSync, tbl: string, rev: number): void => {
  db.prepare('INSERT INTO shared_pull (tbl, rev) VALUES (?, ?) ON CONFLICT (tbl) DO UPDATE SET rev = excluded.rev').run(tbl, rev);
};

/** A PostgreSQL value as SQLite takes it (BYTEA arrives as a Buffer, which SQLite stores as a BLOB). */
function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  return value as SQLInputValue;
}

async function pullTable(pool: pg.Pool, db: DatabaseSync, context: string, table: TableLayout): Promise<number> {
  const columns = table.columns.map((c) => c.name);
  const insert = db.prepare(`INSERT OR REPLACE INTO ${q(table.name)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  let total = 0;
  for (;;) {
    const mark = markOf(db, table.name);
    const { rows } = await pool.query<Record<string, unknown>>(`SELECT ${columns.map(q).join(', ')}, rev FROM ${sharedTable(table.name)} WHERE context = $1 AND rev > $2 ORDER BY rev LIMIT ${PULL_PAGE_ROWS}`, [context, mark]);
    if (rows.length === 0) return total;
    inTransaction(db, () => {
      for (const row of rows) insert.run(...columns.map((c) => toSqlite(row[c])));
      setMark(db, table.name, Number(rows.at(-1)?.rev));
    });
    total += rows.length;
    if (rows.length < PULL_PAGE_ROWS) return total;
  }
}

async function pullTombstones(pool: pg.Pool, db: DatabaseSync, context: string, layout: readonly TableLayout[]): Promise<number> {
  const byName = new Map(layout.map((t) => [t.name, t]));
  const removers = new Map(layout.map((t) => [t.name, db.prepare(`DELETE FROM ${q(t.name)} WHERE ${t.key.map((k) => `${q(k)} = ?`).join(' AND ')}`)]));
  let total = 0;
  for (;;) {
    const mark = markOf(db, 'kd_deleted');
    const { rows } = await pool.query<{ tbl: string; key: string; rev: number }>(`SELECT tbl, key, rev FROM kd_deleted WHERE context = $1 AND rev > $2 ORDER BY rev LIMIT ${PULL_PAGE_ROWS}`, [context, mark]);
    if (rows.length === 0) return total;
    inTransaction(db, () => {
      for (const row of rows) {
        if (byName.has(row.tbl)) removers.get(row.tbl)?.run(...(JSON.parse(row.key) as SQLInputValue[]));
      }
      setMark(db, 'kd_deleted', Number(rows.at(-1)?.rev));
    });
    total += rows.length;
    if (rows.length < PULL_PAGE_ROWS) return total;
  }
}

/** Brings the replica up to what the shared database holds for `context`. */
export async function pullOnce(db: DatabaseSync, pool: pg.Pool, context: string): Promise<PullResult> {
  ensureMarks(db);
  const layout = readLayout(db);
  let rows = 0;
  for (const table of layout) rows += await pullTable(pool, db, context, table);
  const deleted = await pullTombstones(pool, db, context, layout);
  return { rows, deleted };
}

/** The contexts the shared database holds history of (any recorder's), sorted. */
export async function sharedContexts(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ context: string }>('SELECT DISTINCT context FROM kd_meta ORDER BY context');
  return rows.map((row) => row.context);
}
