/**
 * The shared database's tables mirror the SQLite history schema (schema.ts), table for table and
 * column for column, with two more columns: `context` (the cluster a row belongs to, so many
 * recorders share one database) and `rev` (from one sequence, set on every write, so a reader
 * copies only what changed since it last read). Rows removed by a recorder leave a tombstone in
 * `kd_deleted` for readers.
 *
 * The layout is read from a migrated SQLite database rather than written twice, so a new SQLite
 * migration reaches PostgreSQL by itself: `migrateShared` creates missing tables and adds missing
 * columns, inside one transaction holding an advisory lock, so recorders starting together
 * migrate once, in turn. `kd_schema` keeps the version; a database migrated by a newer build is
 * refused rather than written in a shape this one does not know.
 */
import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { inTransaction } from './connection.ts';

/** pg_advisory_xact_lock's key for migrations ('kdhist' in ASCII). */
export const MIGRATION_LOCK_KEY = 0x6b6468697374;
/** The journal's and the replica's own bookkeeping tables: never mirrored. */
export const LOCAL_ONLY_PREFIX = 'shared_';

export type ColumnType = 'int' | 'real' | 'text' | 'blob';

export interface TableLayout {
  name: string;
  columns: Array<{ name: string; type: ColumnType }>;
  /** The primary key's columns, in order. */
  key: string[];
}

function columnType(declared: string): ColumnType {
  const upper = declared.toUpperCase();
  if (upper.includes('INT')) return 'int';
  if (upper.includes('BLOB')) return 'blob';
  if (/REAL|FLOA|DOUB/.test(upper)) return 'real';
  return 'text';
}

/** The history tables of a migrated SQLite database, sorted by name. */
export function readLayout(db: DatabaseSync): TableLayout[] {
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>;
  return names
    .filter(({ name }) => !name.startsWith(LOCAL_ONLY_PREFIX))
    .map(({ name }) => {
      const info = db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string; type: string; pk: number }>;
      const key = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      if (key.length === 0) throw new Error(`history table ${name} has no primary key, so it cannot be shared`);
      return { name, columns: info.map((c) => ({ name: c.name, type: columnType(c.type) })), key };
    });
}

/** Quotes an identifier for either database. */
export const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** The shared table of a history table. */
export const sharedTable = (name: string): string => q(`kd_${name}`);

const PG_TYPES: Readonly<Record<ColumnType, string>> = { int: 'BIGINT', real: 'DOUBLE PRECISION', text: 'TEXT', blob: 'BYTEA' };

/** The DDL bringing the shared database to `layout` (idempotent). */
export function sharedDdl(layout: readonly TableLayout[]): string[] {
  const statements = [
    'CREATE SEQUENCE IF NOT EXISTS kd_rev',
    'CREATE TABLE IF NOT EXISTS kd_deleted (context TEXT NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL, rev BIGINT NOT NULL, PRIMARY KEY (context, tbl, key))',
    'CREATE INDEX IF NOT EXISTS kd_deleted_rev ON kd_deleted (context, rev)',
  ];
  for (const table of layout) {
    const name = sharedTable(table.name);
    // Key columns are NOT NULL through the primary key; every other column is nullable here, as
    // SQLite's constraints were already checked by the recorder that wrote the row.
    const columns = table.columns.map((c) => `${q(c.name)} ${PG_TYPES[c.type]}`);
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${name} (context TEXT NOT NULL, ${columns.join(', ')}, rev BIGINT NOT NULL, PRIMARY KEY (context, ${table.key.map(q).join(', ')}))`,
      ...table.columns.map((c) => `ALTER TABLE ${name} ADD COLUMN IF NOT EXISTS ${q(c.name)} ${PG_TYPES[c.type]}`),
      `CREATE INDEX IF NOT EXISTS ${q(`kd_${table.name}_rev`)} ON ${name} (context, rev)`,
    );
  }
  return statements;
}

/**
 * Tombstones carry when they were written (ms since the epoch; rows an earlier build wrote get
 * the time this column was added) so they can be pruned by age, and `kd_pruned` keeps, per
 * context, the newest `rev` pruned: a replica that had not read that far may have missed a
 * deletion and reads the context again whole (tombstones.ts, pull.ts).
 */
export const TOMBSTONE_DDL = [
  'ALTER TABLE kd_deleted ADD COLUMN IF NOT EXISTS deleted_at BIGINT DEFAULT ((extract(epoch FROM clock_timestamp()) * 1000)::bigint)',
  'CREATE INDEX IF NOT EXISTS kd_deleted_age ON kd_deleted (context, deleted_at)',
  'CREATE TABLE IF NOT EXISTS kd_pruned (context TEXT PRIMARY KEY, rev BIGINT NOT NULL)',
];

/** The per-context writer claims (writer-claim.ts): one recorder writes a context at a time. */
export const WRITER_CLAIM_DDL = [
  'CREATE TABLE IF NOT EXISTS kd_writers (context TEXT PRIMARY KEY, writer TEXT NOT NULL, lineage TEXT NOT NULL, label TEXT NOT NULL, claimed_at TIMESTAMPTZ NOT NULL, heartbeat_at TIMESTAMPTZ NOT NULL, released BOOLEAN NOT NULL DEFAULT false)',
  // The history files a takeover replaced, oldest first: one of them coming back is told it lost the context.
  "ALTER TABLE kd_writers ADD COLUMN IF NOT EXISTS superseded TEXT[] NOT NULL DEFAULT '{}'",
];

/** Whether the database has every addition of TOMBSTONE_DDL and WRITER_CLAIM_DDL (read from the catalog, which takes no table lock). */
async function hasAdditions(client: pg.PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ ready: boolean }>(
    `SELECT (SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema()
              AND ((table_name = 'kd_deleted' AND column_name = 'deleted_at') OR (table_name = 'kd_writers' AND column_name = 'superseded'))) = 2
        AND to_regclass('kd_deleted_age') IS NOT NULL AND to_regclass('kd_pruned') IS NOT NULL AS ready`,
  );
  return rows[0]?.ready === true;
}

/**
 * Brings the shared database to `version` / `layout` under the migration lock. Returns the
 * version found before. Throws when the database is newer than this build.
 */
export async function migrateShared(pool: pg.Pool, layout: readonly TableLayout[], version: number): Promise<number> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query('CREATE TABLE IF NOT EXISTS kd_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    const found = Number((await client.query<{ version: number }>('SELECT version FROM kd_schema WHERE id = 1')).rows[0]?.version ?? 0);
    if (found > version) throw new Error(`the shared history database has schema version ${found}, newer than this build understands (${version}); update Kubedrift`);
    if (found < version) {
      for (const statement of sharedDdl(layout)) await client.query(statement);
      await client.query('INSERT INTO kd_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version, migrated_at = now()', [version]);
    }
    // Not tied to the SQLite schema's version (it did not change): a database of this version
    // written by an earlier build gets the tombstones' age, the pruning mark and the writer claims
    // here. Only when one is missing: `ALTER TABLE ... IF NOT EXISTS` locks its table even when
    // there is nothing to add, and a recorder starting while another pushed (which holds
    // kd_writers and then writes kd_deleted) deadlocked with it.
    if (!(await hasAdditions(client))) for (const statement of [...TOMBSTONE_DDL, ...WRITER_CLAIM_DDL]) await client.query(statement);
    return found;
  });
}
