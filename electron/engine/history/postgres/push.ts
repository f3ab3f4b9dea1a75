/**
 * Copies the journal's queued changes (outbox.ts) to the shared database: for each queued key,
 * the row as it is now in SQLite is upserted (or, when it is gone, deleted and tombstoned), one
 * PostgreSQL transaction per batch, holding the context's advisory lock so two writers of one
 * context take turns and its `rev`s follow commit order. Only what the transaction committed is
 * taken off the outbox; a failure leaves everything queued for the next attempt. Given the
 * writer's id, a push commits only while that writer holds the context's claim (writer-claim.ts),
 * checked and renewed under the same lock a takeover takes: a recorder that lost the claim
 * mid-sync (silent too long, taken over) cannot write over its successor's rows.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type pg from 'pg';
import { inTransaction } from './connection.ts';
import { q, sharedTable, type TableLayout } from './layout.ts';
import { ackOutbox, readOutbox, type OutboxEntry } from './outbox.ts';

/** A push by a recorder that no longer holds its context's writer claim: nothing was written. */
export class ClaimLostError extends Error {
  constructor(context: string) {
    super(`this recorder no longer holds the writer claim of ${context} in the shared store`);
    this.name = 'ClaimLostError';
  }
}

/** Keys per PostgreSQL transaction. */
export const PUSH_BATCH_ROWS = 2_000;
/** PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_PARAMS = 30_000;

/** The advisory lock key of a context (64 bits of its hash, as a signed BIGINT). */
export function contextLockKey(context: string): string {
  return BigInt.asIntN(64, BigInt(`0x${createHash('sha256').update(`kubedrift:${context}`).digest('hex').slice(0, 16)}`)).toString();
}

export interface PushResult {
  upserted: number;
  deleted: number;
  /** The `rev`s this push gave, by table (`kd_deleted` for tombstones): rows its replica already holds. */
  revs: Map<string, number[]>;
}

type Row = Record<string, SQLInputValue>;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function upsert(client: pg.PoolClient, context: string, table: TableLayout, rows: readonly Row[], revs: number[]): Promise<void> {
  const columns = table.columns.map((c) => c.name);
  const perRow = columns.length + 1;
  const others = columns.filter((c) => !table.key.includes(c));
  const update = [...others.map((c) => `${q(c)} = excluded.${q(c)}`), 'rev = excluded.rev'].join(', ');
  for (const part of chunks(rows, Math.max(1, Math.floor(MAX_PARAMS / perRow)))) {
    const params: unknown[] = [];
    const tuples = part.map((row) => {
      const start = params.length;
      params.push(context, ...columns.map((c) => row[c] ?? null));
      return `(${Array.from({ length: perRow }, (_, i) => `$${start + i + 1}`).join(', ')}, nextval('kd_rev'))`;
    });
    const written = await client.query<{ rev: number }>(
      `INSERT INTO ${sharedTable(table.name)} (context, ${columns.map(q).join(', ')}, rev) VALUES ${tuples.join(', ')} ON CONFLICT (context, ${table.key.map(q).join(', ')}) DO UPDATE SET ${update} RETURNING rev`,
      params,
    );
    for (const row of written.rows) revs.push(Number(row.rev));
  }
}

/** A row written again after it was deleted is no longer deleted: its tombstones go, in one statement. */
async function untomb(client: pg.PoolClient, context: string, written: ReadonlyArray<{ table: TableLayout; rows: readonly Row[] }>): Promise<void> {
  const tables: string[] = [];
  const keys: string[] = [];
  for (const { table, rows } of written) {
    for (const row of rows) {
      tables.push(table.name);
      keys.push(JSON.stringify(table.key.map((k) => row[k])));
    }
  }
  if (keys.length > 0) await client.query('DELETE FROM kd_deleted d USING unnest($2::text[], $3::text[]) AS w(tbl, key) WHERE d.context = $1 AND d.tbl = w.tbl AND d.key = w.key', [context, tables, keys]);
}

async function remove(client: pg.PoolClient, context: string, table: TableLayout, keys: readonly string[], revs: number[], deletedAt: number): Promise<void> {
  for (const part of chunks(keys, 1_000)) {
    // Keys are JSON arrays of the key's values, the same text on both sides (json_array in SQLite).
    const values = part.map((key) => JSON.parse(key) as unknown[]);
    const params: unknown[] = [context];
    const tuples = values.map((value) => `(${value.map((v) => `$${params.push(v)}`).join(', ')})`);
    const keyColumns = table.key.map(q).join(', ');
    await client.query(`DELETE FROM ${sharedTable(table.name)} WHERE context = $1 AND (${keyColumns}) IN (${tuples.join(', ')})`, params);
    const written = await client.query<{ rev: number }>(
      "INSERT INTO kd_deleted (context, tbl, key, rev, deleted_at) SELECT $1, $2, k, nextval('kd_rev'), $4 FROM unnest($3::text[]) AS k ON CONFLICT (context, tbl, key) DO UPDATE SET rev = excluded.rev, deleted_at = excluded.deleted_at RETURNING rev",
      [context, table.name, part, deletedAt],
    );
    for (const row of written.rows) revs.push(Number(row.rev));
  }
}

/** The rows as they are now, by key; the keys whose rows are gone. */
function current(db: DatabaseSync, table: TableLayout, entries: readonly OutboxEntry[]): { rows: Row[]; gone: string[] } {
  const select = db.prepare(`SELECT ${table.columns.map((c) => q(c.name)).join(', ')} FROM ${q(table.name)} WHERE ${table.key.map((k) => `${q(k)} = ?`).join(' AND ')}`);
  const rows: Row[] = [];
  const gone: string[] = [];
  for (const entry of entries) {
    const row = select.get(...(JSON.parse(entry.key) as SQLInputValue[])) as Row | undefined;
    if (row) rows.push(row);
    else gone.push(entry.key);
  }
  return { rows, gone };
}

/**
 * Sends one batch of queued changes; returns what it copied (nothing when the outbox is empty).
 * Tables the journal has but this layout does not (a migration since it was read) wait queued.
 * `now` dates the tombstones it writes (tombstones.ts prunes them by age). With `writer`, throws
 * ClaimLostError (writing nothing) unless that writer holds the context's claim, renewing it.
 */
export async function pushOnce(db: DatabaseSync, pool: pg.Pool, context: string, layout: readonly TableLayout[], now: () => number = Date.now, writer?: string): Promise<PushResult> {
  const entries = readOutbox(db, PUSH_BATCH_ROWS);
  if (entries.length === 0) return { upserted: 0, deleted: 0, revs: new Map() };
  const byTable = new Map<string, OutboxEntry[]>();
  for (const entry of entries) {
    const list = byTable.get(entry.tbl);
    if (list) list.push(entry);
    else byTable.set(entry.tbl, [entry]);
  }
  // Read from SQLite before the first await: the recorder cannot write in between.
  const work = [...byTable].flatMap(([name, list]) => {
    const table = layout.find((t) => t.name === name);
    return table ? [{ table, list, ...current(db, table, list) }] : [];
  });
  const result: PushResult = { upserted: 0, deleted: 0, revs: new Map() };
  const revsOf = (tbl: string): number[] => {
    const list = result.revs.get(tbl) ?? [];
    result.revs.set(tbl, list);
    return list;
  };
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [contextLockKey(context)]);
    if (writer !== undefined) {
      const renewed = await client.query('UPDATE kd_writers SET heartbeat_at = clock_timestamp() WHERE context = $1 AND writer = $2', [context, writer]);
      if (renewed.rowCount === 0) throw new ClaimLostError(context);
    }
    await untomb(client, context, work);
    for (const { table, rows, gone } of work) {
      if (rows.length > 0) await upsert(client, context, table, rows, revsOf(table.name));
      if (gone.length > 0) await remove(client, context, table, gone, revsOf('kd_deleted'), now());
      result.upserted += rows.length;
      result.deleted += gone.length;
    }
  });
  ackOutbox(db, work.flatMap((w) => w.list));
  return result;
}
