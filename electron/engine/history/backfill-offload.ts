/**
 * Where a store's backfill writes its rows. On a connect the engine's thread is the bottleneck:
 * it parses every list page and records every object's first state (issue #20,
 * docs/benchmarks.md), and the backfill's upserts and commits, most of its time (~20,000 rows
 * at an aged 5,000-pod cluster), used to share it. When a part runs over at least
 * BACKFILL_WORKER_MIN_OBJECTS cached objects, the engine still infers the rows (reading the
 * cache it holds costs nothing to share), and a worker thread (backfill-worker.ts) writes them
 * on its own connection to the same file, beside the engine's thread. Below that, and when the
 * worker cannot start or fails, the rows are written on the calling thread as before; rows the
 * worker had written are upserts, so writing them again adds nothing.
 *
 * `close()` is synchronous, as the store's is: it stops the worker between two transactions and
 * waits until its connection is closed (WORKER_CLOSE_WAIT_MS at most).
 */
import { existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { ObjectCache } from '../stream/cache.ts';
import type { InferredRow } from './backfill.ts';
import { runBackfill, type BackfillResult } from './backfill-run.ts';
import { shareWrites } from './write-turns.ts';
import { FLAG_CANCEL, FLAG_COUNT, FLAG_STATE, STATE_ABANDONED, STATE_NEW, STATE_OPEN, type BackfillReply, type BackfillRequest, type BackfillWorkerData } from './backfill-protocol.ts';

/**
 * Cached objects from which a part's rows are written by a worker. Starting one costs ~150 ms
 * of CPU; a small cluster's rows take less than that to write on the thread.
 */
export const BACKFILL_WORKER_MIN_OBJECTS = 5_000;
/** How long `close()` waits for the worker's connection to close (one transaction, normally ms). */
export const WORKER_CLOSE_WAIT_MS = 5_000;

/** The backfill's two parts (store.ts): every kind but Events, then Events. */
export type BackfillPart = 'objects' | 'events';

export interface BackfillRunnerOptions {
  db: DatabaseSync;
  /** The database file the worker opens (the store's). */
  file: string;
  cache: ObjectCache;
  log(message: string): void;
  /** The store closed: parts stop between slices. */
  cancelled(): boolean;
  /** Overrides BACKFILL_WORKER_MIN_OBJECTS (Infinity: never a worker). */
  minObjects?: number;
  /** The worker's script (tests); the one beside this module by default. */
  workerUrl?: URL;
}

export interface BackfillRunner {
  /** Runs one part over the cache as it is now; `keepAfter` as in BackfillOptions. */
  run(part: BackfillPart, keepAfter: number): Promise<BackfillResult>;
  /** Whether a worker writes the rows (tests, diagnostics). */
  usesWorker(): boolean;
  close(): void;
}

const NOTHING: BackfillResult = { objects: 0, rows: 0, added: 0, ms: 0, longestSliceMs: 0 };

/** The worker script beside this module (source or bundle), or undefined when there is none. */
function defaultWorkerUrl(): URL | undefined {
  for (const name of ['./backfill-worker.ts', './backfill-worker.cjs']) {
    const url = new URL(name, import.meta.url);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

interface Waiting {
  resolve(written: boolean): void;
  reject(error: Error): void;
}

export function createBackfillRunner(options: BackfillRunnerOptions): BackfillRunner {
  const { db, cache, log } = options;
  const minObjects = options.minObjects ?? BACKFILL_WORKER_MIN_OBJECTS;
  const url = options.workerUrl ?? defaultWorkerUrl();
  let worker: Worker | undefined;
  let flags: Int32Array | undefined;
  let failed = url === undefined;
  let closed = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  /** The parts run one after the other. */
  let chain: Promise<unknown> = Promise.resolve();

  function start(): void {
    flags = new Int32Array(new SharedArrayBuffer(FLAG_COUNT * Int32Array.BYTES_PER_ELEMENT));
    const data: BackfillWorkerData = { file: options.file, flags: flags.buffer as SharedArrayBuffer };
    try {
      worker = new Worker(url as URL, { workerData: data });
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
      return;
    }
    worker.unref();
    // The recorder's flushes tell the worker when they want the write lock.
    shareWrites(db, flags);
    worker.on('message', (reply: BackfillReply) => {
      const job = waiting.get(reply.id);
      if (!job) return;
      waiting.delete(reply.id);
      if (waiting.size === 0) worker?.unref();
      if (reply.t === 'written') job.resolve(true);
      else job.reject(new Error(reply.message));
    });
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => {
      if (!closed && waiting.size > 0) fail(`the backfill worker exited (${code})`);
    });
  }

  /** The worker cannot go on: the rows it owed, and all later ones, are written here. */
  function fail(reason: string): void {
    if (failed) return;
    failed = true;
    if (!closed) log(`[kubedrift] history: the backfill writes on the engine thread: ${reason}`);
    stopWorker('dead');
    for (const job of waiting.values()) job.resolve(false);
    waiting.clear();
  }

  /**
   * Stops the worker between two of its transactions. `close`: waits until its connection is
   * closed, then ends the thread; `retire`: it closes and ends by itself (nothing is left to
   * write); `dead`: the thread is gone already (or never ran).
   */
  function stopWorker(how: 'close' | 'retire' | 'dead'): void {
    const current = worker;
    worker = undefined;
    shareWrites(db, undefined);
    if (!flags) return;
    if (current) {
      Atomics.store(flags, FLAG_CANCEL, 1);
      current.postMessage({ t: 'close' } satisfies BackfillRequest);
    }
    // A retired worker may still be closing its connection when the store closes: waited for too.
    if (Atomics.compareExchange(flags, FLAG_STATE, STATE_NEW, STATE_ABANDONED) === STATE_OPEN && how === 'close') {
      const until = performance.now() + WORKER_CLOSE_WAIT_MS;
      while (Atomics.load(flags, FLAG_STATE) === STATE_OPEN && performance.now() < until) Atomics.wait(flags, FLAG_STATE, STATE_OPEN, until - performance.now());
      if (Atomics.load(flags, FLAG_STATE) === STATE_OPEN) log(`[kubedrift] history: the backfill worker did not close its connection within ${WORKER_CLOSE_WAIT_MS} ms`);
    }
    if (current && how !== 'retire') void current.terminate();
  }

  /** BackfillOptions.writer: the rows go to the worker; false when it cannot take them. */
  function toWorker(rows: InferredRow[]): Promise<boolean> {
    if (!worker || failed || closed) return Promise.resolve(false);
    const id = nextId++;
    worker.ref();
    worker.postMessage({ t: 'rows', id, rows } satisfies BackfillRequest);
    return new Promise<boolean>((resolve, reject) => waiting.set(id, { resolve, reject }));
  }

  return {
    run(part, keepAfter) {
      const next = chain.then(async () => {
        if (closed) return NOTHING;
        const { objects, kinds } = cache.listWithKinds();
        if (!worker && !failed && objects.length >= minObjects) start();
        const include = (kind: string) => (kind === BUILTIN_KEYS.Event) === (part === 'events');
        const result = await runBackfill({ db, objects, kinds, now: Date.now, keepAfter, cancelled: options.cancelled, include, ...(worker ? { writer: toWorker } : {}) });
        // The Events' part is the last: the worker closes its connection and ends.
        if (part === 'events' && !closed) stopWorker('retire');
        return result;
      });
      chain = next.catch(() => undefined);
      return next;
    },
    usesWorker: () => worker !== undefined && !failed,
    close() {
      if (closed) return;
      closed = true;
      stopWorker('close');
      // A part waiting on the worker stops (it is cancelled) instead of writing here.
      for (const job of waiting.values()) job.resolve(true);
      waiting.clear();
    },
  };
}
