/**
 * The backfill's worker thread (see backfill-offload.ts): it writes the inferred rows the engine
 * inferred, sorted by id, BACKFILL_WRITE_ROWS a transaction, on a database connection of its
 * own, so the upserts and commits (most of the backfill's time) run beside the engine's thread
 * instead of on it. SQLite lets one connection write at a time: when the recorder's flush wants
 * the lock, this thread commits within HANDOVER_ROWS rows and waits for it (write-turns.ts).
 *
 * Closing: the engine sets the cancel flag and waits (Atomics) until this thread has closed its
 * connection, so the file is never left with a writer the next session cannot see.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { BACKFILL_WRITE_ROWS, inferredUpserter } from './backfill-run.ts';
import type { InferredRow } from './backfill.ts';
import { othersWant, waitForOthers } from './write-turns.ts';
import { FLAG_CANCEL, FLAG_STATE, STATE_ABANDONED, STATE_CLOSED, STATE_NEW, STATE_OPEN, WORKER_BUSY_TIMEOUT_MS, type BackfillReply, type BackfillRequest, type BackfillWorkerData } from './backfill-protocol.ts';

const { file, flags: buffer } = workerData as BackfillWorkerData;
const flags = new Int32Array(buffer);
let db: DatabaseSync | undefined;
let upsert: ((chunk: readonly InferredRow[]) => void) | undefined;

const cancelled = (): boolean => Atomics.load(flags, FLAG_CANCEL) === 1;

function open(): ((chunk: readonly InferredRow[]) => void) | undefined {
  if (upsert) return upsert;
  // The engine may have given up on this thread before it started: then it never opens the file.
  if (Atomics.compareExchange(flags, FLAG_STATE, STATE_NEW, STATE_OPEN) !== STATE_NEW) return undefined;
  db = new DatabaseSync(file);
  // The recorder's flush may hold the write lock for a while on a loaded machine: wait for it.
  db.exec(`PRAGMA busy_timeout = ${WORKER_BUSY_TIMEOUT_MS}`);
  db.exec('PRAGMA synchronous = NORMAL');
  upsert = inferredUpserter(db, { wanted: () => othersWant(flags), wait: () => waitForOthers(flags) });
  return upsert;
}

function close(): void {
  try {
    db?.close();
  } catch {
    // Closing a connection with nothing pending cannot fail in a way that matters now.
  }
  db = undefined;
  upsert = undefined;
  Atomics.store(flags, FLAG_STATE, Atomics.load(flags, FLAG_STATE) === STATE_ABANDONED ? STATE_ABANDONED : STATE_CLOSED);
  Atomics.notify(flags, FLAG_STATE);
  parentPort?.close();
}

/** Writes `rows` a transaction per BACKFILL_WRITE_ROWS; stops between two when cancelled. */
function write(request: Extract<BackfillRequest, { t: 'rows' }>): BackfillReply {
  try {
    const writeChunk = cancelled() ? undefined : open();
    let written = 0;
    for (let at = 0; writeChunk && at < request.rows.length && !cancelled(); at += BACKFILL_WRITE_ROWS) {
      const chunk = request.rows.slice(at, at + BACKFILL_WRITE_ROWS);
      writeChunk(chunk);
      written += chunk.length;
    }
    return { t: 'written', id: request.id, rows: written };
  } catch (error) {
    return { t: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (request: BackfillRequest) => {
  if (request.t === 'rows') parentPort?.postMessage(write(request));
  else close();
});
