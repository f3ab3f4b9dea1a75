/**
 * What the engine and the backfill's worker thread (backfill-worker.ts, backfill-offload.ts)
 * say to each other, and the shared flags they close by.
 */
import type { InferredRow } from './backfill.ts';

/** Index in the shared flags: 1 once the engine wants the worker to stop. */
export const FLAG_CANCEL = 0;
/** Index in the shared flags: the worker's connection (STATE_*). */
export const FLAG_STATE = 1;
/** Flags in the shared buffer (the third is write-turns.ts's FLAG_WANT). */
export const FLAG_COUNT = 3;
/** Not opened yet. */
export const STATE_NEW = 0;
/** The worker's connection is open: closing waits for STATE_CLOSED. */
export const STATE_OPEN = 1;
export const STATE_CLOSED = 2;
/** The engine closed before the worker opened anything: it never will. */
export const STATE_ABANDONED = 3;

/** How long the worker's connection waits for the recorder's transaction to end (a loaded machine). */
export const WORKER_BUSY_TIMEOUT_MS = 30_000;

export interface BackfillWorkerData {
  file: string;
  /** An Int32Array's buffer of FLAG_COUNT flags (FLAG_CANCEL, FLAG_STATE, write-turns.ts FLAG_WANT). */
  flags: SharedArrayBuffer;
}

export type BackfillRequest =
  /** Rows to upsert, sorted by id. */
  | { t: 'rows'; id: number; rows: InferredRow[] }
  | { t: 'close' };

export type BackfillReply = { t: 'written'; id: number; rows: number } | { t: 'error'; id: number; message: string };
