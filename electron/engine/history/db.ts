/**
 * Opening a context's history database: `<dataDir>/history/<safe context name>.sqlite`, WAL
 * journal with synchronous=NORMAL (a crash of the app loses nothing committed; a power loss at
 * most the last transactions, never the file), incremental auto-vacuum so pruning gives space
 * back, and the schema brought up to date. A file that is not a database (or is damaged beyond
 * opening) is moved aside and a fresh one started, with a message saying so: history is
 * valuable, but never worth a dashboard that cannot start.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from './schema.ts';

/** SQLite result codes the recorder tells apart (the primary code, `errcode & 0xff`). */
export const SQLITE_FULL = 13;
export const SQLITE_IOERR = 10;
export const SQLITE_CORRUPT = 11;
export const SQLITE_NOTADB = 26;

/** Memory-mapped I/O for reads, and the page cache (KiB), per connection. */
const MMAP_BYTES = 256 * 1024 * 1024;
const CACHE_KIB = 16 * 1024;
/** How long a write waits for another connection (a second app window) before failing. */
const BUSY_TIMEOUT_MS = 2_000;

/** SQLite's automatic checkpoint threshold (its default): a commit past this many WAL pages copies them into the file. */
export const CHECKPOINT_PAGES = 1_000;
/**
 * The threshold while a connect writes its first state and its backfill: tens of thousands of
 * rows in a few seconds, keyed by hashes and uids. At 1,000 pages each checkpoint copied the
 * same index pages into the file again, with an fsync each; one checkpoint after the bulk copies
 * each page once (an aged 5,000-pod cluster: ~17 MB of WAL, the connect ~12 % shorter,
 * docs/benchmarks.md). 64 MB bounds the WAL however large the cluster.
 */
export const BULK_CHECKPOINT_PAGES = 16_384;
/**
 * A WAL file larger than this is cut back to it when the log restarts (SQLite otherwise keeps
 * the file at its largest, here the bulk's); above the ~4 MB that CHECKPOINT_PAGES lets it reach.
 */
export const WAL_LIMIT_BYTES = 8 * 1024 * 1024;

/** Bulk writes on (checkpoints wait for BULK_CHECKPOINT_PAGES) or off (SQLite's default again). */
export function bulkCheckpoints(db: DatabaseSync, on: boolean): void {
  db.exec(`PRAGMA wal_autocheckpoint = ${on ? BULK_CHECKPOINT_PAGES : CHECKPOINT_PAGES}`);
}

/** The database file of a context: readable, filesystem-safe, and distinct for distinct names. */
export function historyFile(dataDir: string, context: string): string {
  const safe = context.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  const hash = createHash('sha256').update(context).digest('hex').slice(0, 8);
  return path.join(dataDir, 'history', `${safe}-${hash}.sqlite`);
}

/** The SQLite primary result code of an error thrown by node:sqlite, if it is one. */
export function sqliteCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

/** A full disk, however it surfaced (SQLite's own code, or the OS error inside an I/O error). */
export function isDiskFull(error: unknown): boolean {
  const code = sqliteCode(error);
  if (code === SQLITE_FULL) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /disk is full|ENOSPC|no space left/i.test(message);
}

function migrate(db: DatabaseSync): void {
  const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (version > SCHEMA_VERSION) throw new Error(`the history database has schema version ${version}, newer than this build understands (${SCHEMA_VERSION})`);
  for (let next = version; next < SCHEMA_VERSION; next += 1) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const migration = MIGRATIONS[next] as Migration;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.exec(`PRAGMA user_version = ${next + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

function openAndPrepare(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // auto_vacuum only takes effect before the first table exists: set it for new files.
    const fresh = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n === 0;
    if (fresh) db.exec('PRAGMA auto_vacuum = INCREMENTAL');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(`PRAGMA journal_size_limit = ${WAL_LIMIT_BYTES}`);
    // Range queries read thousands of rows scattered through a file of hundreds of megabytes:
    // memory-mapped reads skip a system call and a copy per page, and a larger page cache keeps
    // the indexes of a busy database in memory.
    db.exec(`PRAGMA mmap_size = ${MMAP_BYTES}`);
    db.exec(`PRAGMA cache_size = -${CACHE_KIB}`);
    db.exec('PRAGMA foreign_keys = OFF');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export interface OpenedDb {
  db: DatabaseSync;
  file: string;
  /** Set when the old file could not be used and was moved aside. */
  recovered?: string;
}

/** Opens (creating if needed) the history database at `file`. Throws only when even a fresh file cannot be made. */
export function openHistoryDb(file: string, now: () => number = Date.now): OpenedDb {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    return { db: openAndPrepare(file), file };
  } catch (error) {
    const code = sqliteCode(error);
    if (code !== SQLITE_CORRUPT && code !== SQLITE_NOTADB) throw error;
    const aside = `${file}.damaged-${now()}`;
    renameSync(file, aside);
    for (const suffix of ['-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    return { db: openAndPrepare(file), file, recovered: `The history database was damaged (${(error as Error).message}); it was moved to ${aside} and recording started afresh.` };
  }
}
