/**
 * Taking over a context that another history file wrote to the shared database, once its
 * recorder stopped (writer-claim.ts): the in-cluster recorder's volume was lost, or the laptop
 * that recorded the cluster died and another machine records it now.
 *
 * Each history file numbers its rows itself, so the new recorder cannot simply push its own
 * file: its sessions, workloads, sample blocks and episodes would land on the old rows' keys.
 * Instead it continues the database's history as the old recorder would have after a restart:
 * its journal is replaced by a copy of what the database holds for the context (read as a
 * replica reads it, pull.ts), with nothing queued to push and the lineage its claim names, and
 * the recording restarts on it. Its new rows then take the ids after the database's; the time
 * between the old recorder's last heartbeat and the new session shows as a gap nobody observed.
 *
 * The copy is built beside the journal and put in place only when complete, so a crash or a
 * database that goes away mid-copy leaves the journal as it was. The file it replaces (what this
 * computer recorded while it was refused, numbered by itself) is kept beside it, renamed, not
 * deleted.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { openHistoryDb } from '../db.ts';
import { installOutbox } from './outbox.ts';
import { pullOnce } from './pull.ts';
import { writeLineage } from './writer-claim.ts';

export interface SeedOptions {
  /** The journal file the seed will replace. */
  file: string;
  context: string;
  /** The shared database's name in the outbox (its `shared_target`): a seeded journal feeds it with nothing queued. */
  target: string;
  /** The lineage the takeover's claim names. */
  lineage: string;
  now(): number;
  /** Renews the takeover's claim every `everyMs` while the copy is read: a long history is not taken over meanwhile. */
  keepClaim?: { renew(): Promise<unknown>; everyMs: number };
}

export interface Seeded {
  /** The complete copy, closed, to put in place with `swapInSeed`. */
  file: string;
  /** How many rows it holds (what the database held for the context). */
  rows: number;
}

/** The file a seed is built in, beside the journal. */
export const seedFileOf = (file: string): string => `${file}.takeover`;

const SQLITE_SIDE_FILES = ['-wal', '-shm'];

function remove(file: string): void {
  for (const suffix of ['', ...SQLITE_SIDE_FILES]) rmSync(`${file}${suffix}`, { force: true });
}

/** Removes a seed that will not be used (the store closed while it was built). */
export function discardSeed(file: string): void {
  remove(file);
}

/** Builds the journal a takeover continues: what `pool` holds for the context, nothing queued. */
export async function seedJournal(pool: pg.Pool, options: SeedOptions): Promise<Seeded> {
  const file = seedFileOf(options.file);
  // A seed left by an attempt that failed midway is begun again: the database may have moved on.
  remove(file);
  const { db } = openHistoryDb(file, options.now);
  const { keepClaim } = options;
  const keepAlive = keepClaim && setInterval(() => void keepClaim.renew().catch(() => undefined), keepClaim.everyMs);
  keepAlive?.unref();
  try {
    const pulled = await pullOnce(db, pool, options.context);
    // The replica's read marks mean nothing to a journal.
    db.exec('DROP TABLE IF EXISTS shared_pull');
    // The outbox queues every row for a database it did not feed yet: these rows came from it.
    installOutbox(db, options.target);
    db.exec('DELETE FROM shared_outbox');
    writeLineage(db, options.lineage);
    db.close();
    return { file, rows: pulled.rows };
  } catch (error) {
    if (db.isOpen) db.close();
    remove(file);
    throw error;
  } finally {
    clearInterval(keepAlive);
  }
}

/**
 * Puts the seed in place of the journal (which the caller closed first) and keeps the journal
 * beside it as `<file>.before-takeover-<ms>`; returns that name. Synchronous: nothing writes the
 * journal in between. Only the latest such copy is kept: retention never looks at them, so each
 * takeover on the same volume (an in-cluster recorder's PVC) would otherwise add a whole file.
 */
export function swapInSeed(file: string, seed: string, now: number): string {
  const aside = `${file}.before-takeover-${now}`;
  const prefix = `${path.basename(file)}.before-takeover-`;
  for (const name of readdirSync(path.dirname(file))) {
    if (name.startsWith(prefix) && !SQLITE_SIDE_FILES.some((suffix) => name.endsWith(suffix))) remove(path.join(path.dirname(file), name));
  }
  if (existsSync(file)) renameSync(file, aside);
  for (const suffix of SQLITE_SIDE_FILES) if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${aside}${suffix}`);
  renameSync(seed, file);
  return aside;
}
