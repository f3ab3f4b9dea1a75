/**
 * Copies one context's history from the shared database into a local replica: an ordinary
 * history SQLite file that the same queries read (series, episodes, state at a time, compare,
 * coverage), so a chart never waits on the network and the two stores cannot answer differently.
 *
 * Each table is read from where the replica stopped (`rev` > its mark in `shared_pull`), in
 * pages, newest tombstones included, and each page is written in one SQLite transaction with the
 * new mark, so an interrupted pull resumes without loss or duplicates. Columns the replica does
 * not know (a newer recorder) are left out. The rows this app's own push just wrote (`own`: their
 * `rev`s by table) are not read back (the replica took them from the journal, echo.ts): a page's
 * revs are read first, then only the other rows.
 *
 * Tombstones are pruned by age (tombstones.ts). A replica whose tombstones mark is below the
 * context's pruning mark may have missed a deletion, and cannot tell which: it empties itself
 * and reads the context again whole (`reread`), as an informer relists after 410 Gone.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type pg from 'pg';
import { q, readLayout, sharedTable, type TableLayout } from './layout.ts';
import { prunedUpTo } from './tombstones.ts';

/** Rows per page read from PostgreSQL. */
export const PULL_PAGE_ROWS = 5_000;

export interface PullResult {
  rows: number;
  deleted: number;
  /** The replica was emptied and read again whole (it had not read tombstones since pruned). */
  reread?: boolean;
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

/**
 * Reads `source` (a shared table, `WHERE context = $1`) page by page from the replica's mark for
 * `tbl`, which `apply` writes in the transaction that moves the mark. With rows of this app's own
 * to leave out, first the page's revs alone (the index), then the rows of the others. Returns how
 * many rows it applied.
 */
async function pullPages(pool: pg.Pool, db: DatabaseSync, context: string, tbl: string, source: string, select: string, own: ReadonlySet<number>, apply: (row: Record<string, unknown>) => void): Promise<number> {
  let total = 0;
  for (;;) {
    const mark = markOf(db, tbl);
    // Nothing to leave out (an app's first read, or a sync that pushed nothing): one query a page.
    const page = await pool.query<Record<string, unknown> & { rev: number }>(`SELECT ${own.size === 0 ? `${select}, ` : ''}rev FROM ${source} WHERE context = $1 AND rev > $2 ORDER BY rev LIMIT ${PULL_PAGE_ROWS}`, [context, mark]);
    if (page.rows.length === 0) return total;
    const others = own.size === 0 ? [] : page.rows.map((row) => Number(row.rev)).filter((rev) => !own.has(rev));
    const rows = own.size === 0 ? page.rows : others.length === 0 ? [] : (await pool.query<Record<string, unknown>>(`SELECT ${select} FROM ${source} WHERE context = $1 AND rev = ANY($2::bigint[]) ORDER BY rev`, [context, others])).rows;
    inTransaction(db, () => {
      for (const row of rows) apply(row);
      setMark(db, tbl, Number(page.rows.at(-1)?.rev));
    });
    total += rows.length;
    if (page.rows.length < PULL_PAGE_ROWS) return total;
  }
}

function pullTable(pool: pg.Pool, db: DatabaseSync, context: string, table: TableLayout, own: ReadonlySet<number>): Promise<number> {
  const columns = table.columns.map((c) => c.name);
  const insert = db.prepare(`INSERT OR REPLACE INTO ${q(table.name)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
  return pullPages(pool, db, context, table.name, sharedTable(table.name), columns.map(q).join(', '), own, (row) => insert.run(...columns.map((c) => toSqlite(row[c]))));
}

function pullTombstones(pool: pg.Pool, db: DatabaseSync, context: string, layout: readonly TableLayout[], own: ReadonlySet<number>): Promise<number> {
  const removers = new Map(layout.map((t) => [t.name, db.prepare(`DELETE FROM ${q(t.name)} WHERE ${t.key.map((k) => `${q(k)} = ?`).join(' AND ')}`)]));
  return pullPages(pool, db, context, 'kd_deleted', 'kd_deleted', 'tbl, key', own, (row) => removers.get(String(row.tbl))?.run(...(JSON.parse(String(row.key)) as SQLInputValue[])));
}

/** The tables (and `kd_deleted`) holding rows of `context` past the replica's marks: one round trip. */
async function changedTables(pool: pg.Pool, db: DatabaseSync, context: string, layout: readonly TableLayout[]): Promise<Set<string>> {
  const names = [...layout.map((t) => t.name), 'kd_deleted'];
  const params: unknown[] = [context];
  const parts = names.map((name) => {
    params.push(markOf(db, name));
    const source = name === 'kd_deleted' ? 'kd_deleted' : sharedTable(name);
    return `SELECT '${name}' AS tbl WHERE EXISTS (SELECT 1 FROM ${source} WHERE context = $1 AND rev > $${params.length})`;
  });
  const { rows } = await pool.query<{ tbl: string }>(parts.join(' UNION ALL '), params);
  return new Set(rows.map((row) => row.tbl));
}

async function pullChanges(db: DatabaseSync, pool: pg.Pool, context: string, layout: readonly TableLayout[], own: ReadonlyMap<string, readonly number[]>): Promise<PullResult> {
  let rows = 0;
  const changed = await changedTables(pool, db, context, layout);
  for (const table of layout) if (changed.has(table.name)) rows += await pullTable(pool, db, context, table, new Set(own.get(table.name)));
  const deleted = changed.has('kd_deleted') ? await pullTombstones(pool, db, context, layout, new Set(own.get('kd_deleted'))) : 0;
  return { rows, deleted };
}

/** Empties the replica's history tables and marks: the next pull reads everything. */
function forget(db: DatabaseSync, layout: readonly TableLayout[]): void {
  inTransaction(db, () => {
    for (const table of layout) db.exec(`DELETE FROM ${q(table.name)}`);
    db.exec('DELETE FROM shared_pull');
  });
}

/** Empties a replica so the next pull reads the context whole (it took rows PostgreSQL does not hold). */
export function forgetReplica(db: DatabaseSync): void {
  ensureMarks(db);
  forget(db, readLayout(db));
}

/**
 * Brings the replica up to what the shared database holds for `context`, leaving out the rows
 * whose `rev`s `own` lists by table (this app wrote them, and its replica has them).
 */
export async function pullOnce(db: DatabaseSync, pool: pg.Pool, context: string, own: ReadonlyMap<string, readonly number[]> = new Map()): Promise<PullResult> {
  ensureMarks(db);
  const layout = readLayout(db);
  const tombstonesRead = markOf(db, 'kd_deleted');
  const readBefore = db.prepare('SELECT 1 FROM shared_pull WHERE rev > 0 LIMIT 1').get() !== undefined;
  let result = await pullChanges(db, pool, context, layout, own);
  // Asked after the pages: a prune that took a tombstone they did not see had committed before
  // they were read, so its mark is seen here.
  const pruned = await prunedUpTo(pool, context);
  if (pruned <= tombstonesRead) return result;
  // A replica that read nothing before holds no row a pruned tombstone was about.
  if (readBefore) {
    forget(db, layout);
    result = { ...(await pullChanges(db, pool, context, layout, new Map())), reread: true };
  }
  // Every tombstone left was just read; those pruned are of rows read whole without them.
  if (markOf(db, 'kd_deleted') < pruned) inTransaction(db, () => setMark(db, 'kd_deleted', pruned));
  return result;
}

/** The contexts the shared database holds history of (any recorder's), sorted. */
export async function sharedContexts(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ context: string }>('SELECT DISTINCT context FROM kd_meta ORDER BY context');
  return rows.map((row) => row.context);
}
