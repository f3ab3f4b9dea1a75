/**
 * One writer per context in the shared database. Each recorder numbers its rows itself (the
 * SQLite keys of sessions, workloads, sample blocks, episodes... that push.ts upserts under the
 * context's name), so two recorders of the same context name would overwrite each other's rows.
 * `kd_writers` holds a claim per context: which recorder writes it (`writer`, one per opened
 * store), which history file it writes from (`lineage`, kept in the journal), a label naming it
 * for people, and a heartbeat renewed on every sync (released on close). A recorder pushes only
 * while it holds the claim; otherwise it keeps recording into its own file and says who writes.
 *
 * Who may take a claim (under the context's advisory lock, so two recorders decide in turn):
 * anyone when nobody holds it; the holder; and a recorder writing from the holder's history
 * file (the same recorder started again, after a clean stop or a crash: its numbering continues
 * that history's, so it takes over at once). A recorder of another file never takes over a
 * context another file wrote, even once that one stopped: its numbers would land on that
 * history's rows. The heartbeat tells the two cases apart for people ("is writing" / "has
 * stopped"), on PostgreSQL's clock, so recorders whose clocks differ agree. The table is created
 * with the shared schema (layout.ts WRITER_CLAIM_DDL).
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
}

export type ClaimResult = { held: true; tookOverFrom?: ClaimHolder } | { held: false; holder: ClaimHolder };

/** The journal's lineage id (a local-only table: `shared_` tables are never mirrored), made once. */
export function lineageOf(journal: DatabaseSync): string {
  journal.exec('CREATE TABLE IF NOT EXISTS shared_writer (one INTEGER PRIMARY KEY CHECK (one = 1), lineage TEXT NOT NULL)');
  const found = journal.prepare('SELECT lineage FROM shared_writer WHERE one = 1').get() as { lineage: string } | undefined;
  if (found) return found.lineage;
  const lineage = randomUUID();
  journal.prepare('INSERT INTO shared_writer (one, lineage) VALUES (1, ?)').run(lineage);
  return lineage;
}

interface ClaimRow {
  writer: string;
  lineage: string;
  label: string;
  released: boolean;
  silent_ms: number;
}

/** Takes or renews `context`'s claim for `me`, or says who holds it. */
export async function claimWriter(pool: pg.Pool, context: string, me: WriterIdentity, ttlMs: number = WRITER_TTL_MS): Promise<ClaimResult> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [contextLockKey(context)]);
    const found = await client.query<ClaimRow>(
      'SELECT writer, lineage, label, released, (extract(epoch FROM clock_timestamp() - heartbeat_at) * 1000)::bigint AS silent_ms FROM kd_writers WHERE context = $1',
      [context],
    );
    const row = found.rows[0];
    const holder: ClaimHolder | undefined = row && { label: row.label, silentMs: Math.max(0, Number(row.silent_ms)), stopped: row.released || Number(row.silent_ms) > ttlMs };
    if (row && holder && row.writer !== me.id && row.lineage !== me.lineage) return { held: false, holder };
    await client.query(
      `INSERT INTO kd_writers (context, writer, lineage, label, claimed_at, heartbeat_at, released) VALUES ($1, $2, $3, $4, clock_timestamp(), clock_timestamp(), false)
       ON CONFLICT (context) DO UPDATE SET writer = excluded.writer, lineage = excluded.lineage, label = excluded.label, heartbeat_at = excluded.heartbeat_at, released = false,
         claimed_at = CASE WHEN kd_writers.writer = excluded.writer THEN kd_writers.claimed_at ELSE excluded.claimed_at END`,
      [context, me.id, me.lineage, me.label],
    );
    return row && holder && row.writer !== me.id ? { held: true, tookOverFrom: holder } : { held: true };
  });
}

/** Lets the claim go (on close): the same recorder, started again, takes it back at once. */
export async function releaseWriter(pool: pg.Pool, context: string, me: WriterIdentity): Promise<void> {
  await pool.query('UPDATE kd_writers SET released = true, heartbeat_at = clock_timestamp() WHERE context = $1 AND writer = $2', [context, me.id]);
}

/** What the history status says while another recorder holds the claim (steady: published when it changes). */
export function refusalMessage(context: string, target: string, holder: ClaimHolder): string {
  const who = holder.stopped ? `${holder.label} wrote it from another history file and has stopped; this recorder's rows would overwrite that history's` : `${holder.label} is writing it`;
  return `The shared history store ${target} already has a recorder for ${context}: ${who}. Only one recorder may write a context's history, so this one records into this computer's history file only, and the timeline shows what the shared store holds.`;
}
