/**
 * One writer per context in the shared database. Each recorder numbers its rows itself (the
 * SQLite keys of sessions, workloads, sample blocks, episodes... that push.ts upserts under the
 * context's name), so two recorders of the same context name would overwrite each other's rows.
 * `kd_writers` holds a claim per context: which recorder writes it (`writer`, one per opened
 * store), which history file it writes from (`lineage`, kept in the journal), a label naming it
 * for people, and a heartbeat renewed on every sync and every push (released on close). A
 * recorder pushes only while it holds the claim (push.ts checks it in the push's transaction);
 * otherwise it keeps recording into its own file and says who writes.
 *
 * Who may take a claim (under the context's advisory lock, so two recorders decide in turn):
 * anyone when nobody holds it; the holder; a recorder writing from the holder's history file
 * (the same recorder started again, after a clean stop or a crash: its numbering continues that
 * history's, so it takes over at once); and, once the holder has been silent longer than the
 * time-to-live (released or not, so the same file's recorder restarting has that long to come
 * back), a recorder of another file. That one takes the claim for a NEW lineage (`takeOverAs`)
 * and must first replace its journal with a copy of what the database holds for the context
 * (takeover.ts), so its numbering continues after that history's instead of landing on it. The
 * lineage replaced goes to `superseded`: that file's recorder coming back is refused, told it
 * was taken over. The heartbeat is read on PostgreSQL's clock, so recorders whose clocks differ
 * agree. The table is created with the shared schema (layout.ts WRITER_CLAIM_DDL).
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { inTransaction } from './connection.ts';
import { contextLockKey } from './push.ts';

/** A holder silent this long is said to have stopped (the sync renews every second, retries every ten). */
export const WRITER_TTL_MS = 30_000;

/** This recorder, as its claim names it. */
export interface WriterIdentity {
  /** Unique to this opened store. */
  id: string;
  /** The history file it writes from (lineageOf). */
  lineage: string;
  /** For people: where it runs (`kubedrift record on host-a, pid 4242`). */
  label: string;
}

/** The recorder holding a claim, as another one is told of it. */
export interface ClaimHolder {
  label: string;
  /** How long since its last heartbeat. */
  silentMs: number;
  /** It let the claim go (closed) or fell silent past the time-to-live. */
  stopped: boolean;
  /** Silent past the time-to-live: a recorder of another history file may take over. */
  expired: boolean;
  /** It took the context over from the asking recorder's history file (or from a later one's). */
  supersededAsker: boolean;
}

/**
 * Held (`takeOver`: the claim was just taken from another history file's stopped recorder, for
 * the new lineage asked; the journal must be seeded before anything is pushed), or refused.
 */
export type ClaimResult = { held: true; tookOverFrom?: ClaimHolder; takeOver?: { lineage: string } } | { held: false; holder: ClaimHolder };

/** The journal's lineage id (a local-only table: `shared_` tables are never mirrored), made once. */
export function lineageOf(journal: DatabaseSync): string {
  journal.exec('CREATE TABLE IF NOT EXISTS shared_writer (one INTEGER PRIMARY KEY CHECK (one = 1), lineage TEXT NOT NULL)');
  const found = journal.prepare('SELECT lineage FROM shared_writer WHERE one = 1').get() as { lineage: string } | undefined;
  if (found) return found.lineage;
  return writeLineage(journal, randomUUID());
}

/** Gives the journal `lineage` (a journal seeded by a takeover gets the one its claim names). */
export function writeLineage(journal: DatabaseSync, lineage: string): string {
  journal.exec('CREATE TABLE IF NOT EXISTS shared_writer (one INTEGER PRIMARY KEY CHECK (one = 1), lineage TEXT NOT NULL)');
  journal.prepare('INSERT INTO shared_writer (one, lineage) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET lineage = excluded.lineage').run(lineage);
  return lineage;
}

interface ClaimRow {
  writer: string;
  lineage: string;
  label: string;
  released: boolean;
  silent_ms: number;
  superseded: string[];
}

/**
 * Takes or renews `context`'s claim for `me`, or says who holds it. With `takeOverAs`, the
 * claim of another history file's recorder silent past `ttlMs` is taken for that new lineage.
 */
export async function claimWriter(pool: pg.Pool, context: string, me: WriterIdentity, ttlMs: number = WRITER_TTL_MS, takeOverAs?: string): Promise<ClaimResult> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [contextLockKey(context)]);
    // FOR UPDATE: the decision is made on the row the upsert below writes over. Without it, a
    // claim handed to another writer meanwhile by a statement that takes no advisory lock (an
    // administrator's UPDATE) was judged as it had been, and then overwritten.
    const found = await client.query<ClaimRow>(
      'SELECT writer, lineage, label, released, superseded, (extract(epoch FROM clock_timestamp() - heartbeat_at) * 1000)::bigint AS silent_ms FROM kd_writers WHERE context = $1 FOR UPDATE',
      [context],
    );
    const row = found.rows[0];
    const silentMs = Math.max(0, Number(row?.silent_ms ?? 0));
    const holder: ClaimHolder | undefined = row && {
      label: row.label,
      silentMs,
      stopped: row.released || silentMs > ttlMs,
      expired: silentMs > ttlMs,
      supersededAsker: row.superseded.includes(me.lineage),
    };
    const other = row !== undefined && row.writer !== me.id && row.lineage !== me.lineage;
    if (other && holder && !(holder.expired && takeOverAs)) return { held: false, holder };
    const lineage = other && takeOverAs ? takeOverAs : me.lineage;
    await client.query(
      `INSERT INTO kd_writers (context, writer, lineage, label, claimed_at, heartbeat_at, released) VALUES ($1, $2, $3, $4, clock_timestamp(), clock_timestamp(), false)
       ON CONFLICT (context) DO UPDATE SET writer = excluded.writer, lineage = excluded.lineage, label = excluded.label, heartbeat_at = excluded.heartbeat_at, released = false,
         claimed_at = CASE WHEN kd_writers.writer = excluded.writer THEN kd_writers.claimed_at ELSE excluded.claimed_at END,
         superseded = CASE WHEN kd_writers.lineage = excluded.lineage THEN kd_writers.superseded ELSE array_append(kd_writers.superseded, kd_writers.lineage) END`,
      [context, me.id, lineage, me.label],
    );
    if (other && holder) return { held: true, tookOverFrom: holder, takeOver: { lineage } };
    return row && holder && row.writer !== me.id ? { held: true, tookOverFrom: holder } : { held: true };
  });
}

/** Renews the heartbeat of `me`'s claim if it still holds it (while a takeover copies the history); false when it does not. */
export async function renewWriter(pool: pg.Pool, context: string, me: Pick<WriterIdentity, 'id'>): Promise<boolean> {
  const renewed = await pool.query('UPDATE kd_writers SET heartbeat_at = clock_timestamp() WHERE context = $1 AND writer = $2', [context, me.id]);
  return (renewed.rowCount ?? 0) > 0;
}

/** Lets the claim go (on close): the same recorder, started again, takes it back at once. */
export async function releaseWriter(pool: pg.Pool, context: string, me: WriterIdentity): Promise<void> {
  await pool.query('UPDATE kd_writers SET released = true, heartbeat_at = clock_timestamp() WHERE context = $1 AND writer = $2', [context, me.id]);
}

/** How a refusal is worded: whether this store would take over a stopped writer, and after how long. */
export interface RefusalWording {
  ttlMs: number;
  /** A recording store takes over once the holder is silent past the time-to-live. */
  canTakeOver: boolean;
}

function whoWrites(holder: ClaimHolder, wording: RefusalWording): string {
  if (holder.supersededAsker && !holder.stopped) {
    return `${holder.label} took it over after this history file's recorder stopped, and writes it now (this file's rows up to then stay in the shared store)`;
  }
  const seconds = Math.round(wording.ttlMs / 1000);
  if (!holder.stopped) return `${holder.label} is writing it`;
  const next = wording.canTakeOver
    ? `this recorder takes over and continues that history once it has been silent ${seconds} s`
    : `a recorder of this context takes over once it has been silent ${seconds} s`;
  return `${holder.label} wrote it from another history file and has stopped; ${next}`;
}

/** What the history status says while another recorder holds the claim (steady: published when it changes). */
export function refusalMessage(context: string, target: string, holder: ClaimHolder, wording: RefusalWording = { ttlMs: WRITER_TTL_MS, canTakeOver: true }): string {
  return `The shared history store ${target} already has a recorder for ${context}: ${whoWrites(holder, wording)}. Only one recorder may write a context's history, so this one records into this computer's history file only, and the timeline shows what the shared store holds.`;
}
