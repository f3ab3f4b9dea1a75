/**
 * Where a store's backfill runs. On a connect the engine's thread is the bottleneck: it parses
 * every list page and records every object's first state (issue #20, docs/benchmarks.md), and the
 * backfill's parts (parsing nothing, but inferring, hashing ids and writing ~20,000 rows at an
 * aged 5,000-pod cluster) used to share it. Once the cache holds BACKFILL_WORKER_MIN_OBJECTS,
 * a worker thread (backfill-worker.ts) gets a copy of the cached objects (their JSON, which the
 * informers made anyway) and every change after it, and runs the parts on its own connection
 * to the same file. Below that, and when the worker cannot start or fails, the parts run on the
 * calling thread as before (runBackfill over the cache); a part the worker had not finished
 * is run there again (its rows are upserts: nothing is written twice).
 *
 * `close()` is synchronous, as the store's is: it stops the worker between two transactions and
 * waits until its connection is closed (WORKER_CLOSE_WAIT_MS at most).
 */
import { existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { CacheChange, ObjectCache } from '../stream/cache.ts';
import { runBackfill, type BackfillResult } from './backfill-run.ts';
import { shareWrites } from './write-turns.ts';
import { FLAG_CANCEL, FLAG_COUNT, FLAG_STATE, STATE_ABANDONED, STATE_NEW, STATE_OPEN, type BackfillPart, type BackfillReply, type BackfillRequest, type BackfillWorkerData } from './backfill-protocol.ts';

/**
 * Cached objects from which the backfill runs in a worker. Starting one costs ~150 ms of CPU
 * and a copy of the objects; a small cluster's backfill takes less than that on the thread.
 */
export const BACKFILL_WORKER_MIN_OBJECTS = 5_000;
/** Changes sent to the worker per message (three strings each). */
export const BACKFILL_CHANGES_PER_MESSAGE = 2_000;
/** How long `close()` waits for the worker's connection to close (one transaction, normally ms). */
export const WORKER_CLOSE_WAIT_MS = 5_000;

export interface BackfillRunnerOptions {
  db: DatabaseSync;
  /** The database file the worker opens (the store's). */
  file: string;
  cache: ObjectCache;
  log(message: string): void;
  /** The store closed: parts on the calling thread stop between slices. */
  cancelled(): boolean;
  /** Overrides BACKFILL_WORKER_MIN_OBJECTS (Infinity: never a worker). */
  minObjects?: number;
  /** The worker's script (tests); the one beside this module by default. */
  workerUrl?: URL;
}

export interface BackfillRunner {
  /** Runs one part over the cache as it is now; `keepAfter` as in BackfillOptions. */
  run(part: BackfillPart, keepAfter: number): Promise<BackfillResult>;
  /** Whether a worker runs the parts (tests, diagnostics). */
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
  keepAfter: number;
  resolve(result: BackfillResult): void;
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
  let ops: string[] = [];
  const waiting = new Map<BackfillPart, Waiting>();
  /** Parts on the calling thread run one after the other (after a failed worker's, in order). */
  let inlineChain: Promise<unknown> = Promise.resolve();

  const inline = (part: BackfillPart, keepAfter: number): Promise<BackfillResult> => {
    const next = inlineChain.then(() => {
      if (closed) return NOTHING;
      const { objects, kinds } = cache.listWithKinds();
      return runBackfill({ db, objects, kinds, now: Date.now, keepAfter, cancelled: options.cancelled, include: (kind) => (kind === BUILTIN_KEYS.Event) === (part === 'events') });
    });
    inlineChain = next.catch(() => undefined);
    return next;
  };

  const send = (request: BackfillRequest): void => worker?.postMessage(request);
  const post = (): void => {
    if (ops.length === 0) return;
    send({ t: 'changes', ops });
    ops = [];
  };

  function onChange(change: CacheChange): void {
    if (failed || closed) return;
    if (!worker) {
      if (cache.size() >= minObjects) start();
      return;
    }
    if (change.type === 'upsert') ops.push('u', change.kind, change.json ?? JSON.stringify(change.object));
    else ops.push('d', change.kind, change.object.metadata.uid);
    if (ops.length >= 3 * BACKFILL_CHANGES_PER_MESSAGE) post();
  }
  let unsubscribe: (() => void) | undefined = cache.onChange(onChange);

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
    worker.on('message', (reply: BackfillReply) => answer(reply));
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => {
      if (!closed && waiting.size > 0) fail(`the backfill worker exited (${code})`);
    });
    // What is cached so far (the change that reached the threshold included); its changes follow.
    const { objects, kinds } = cache.listWithKinds();
    for (let i = 0; i < objects.length; i += 1) {
      ops.push('u', kinds[i] as string, JSON.stringify(objects[i]));
      if (ops.length >= 3 * BACKFILL_CHANGES_PER_MESSAGE) post();
    }
    post();
  }

  function answer(reply: BackfillReply): void {
    const job = waiting.get(reply.part);
    if (!job) return;
    waiting.delete(reply.part);
    if (waiting.size === 0) worker?.unref();
    if (reply.t === 'done') job.resolve(reply.result);
    else job.reject(new Error(reply.message));
    // Both parts written: the worker closes its connection and ends; its copy of the cluster goes with it.
    if (reply.part === 'events') {
      shareWrites(db, undefined);
      send({ t: 'close' });
    }
  }

  /** The worker cannot go on: the parts it owed run here, in order; later ones too. */
  function fail(reason: string): void {
    if (failed) return;
    failed = true;
    if (!closed) log(`[kubedrift] history: the backfill runs on the engine thread: ${reason}`);
    // The thread is gone (or never ran): there is nothing to wait for.
    stopWorker(false);
    for (const part of ['objects', 'events'] as const) {
      const job = waiting.get(part);
      if (!job) continue;
      waiting.delete(part);
      inline(part, job.keepAfter).then(job.resolve, job.reject);
    }
  }

  /** Stops the worker between two of its transactions and (`wait`) until its connection is closed. */
  function stopWorker(wait: boolean): void {
    const current = worker;
    worker = undefined;
    shareWrites(db, undefined);
    unsubscribe?.();
    unsubscribe = undefined;
    if (!current || !flags) return;
    Atomics.store(flags, FLAG_CANCEL, 1);
    current.postMessage({ t: 'close' } satisfies BackfillRequest);
    if (Atomics.compareExchange(flags, FLAG_STATE, STATE_NEW, STATE_ABANDONED) === STATE_OPEN && wait) {
      const until = performance.now() + WORKER_CLOSE_WAIT_MS;
      while (Atomics.load(flags, FLAG_STATE) === STATE_OPEN && performance.now() < until) Atomics.wait(flags, FLAG_STATE, STATE_OPEN, until - performance.now());
      if (Atomics.load(flags, FLAG_STATE) === STATE_OPEN) log(`[kubedrift] history: the backfill worker did not close its connection within ${WORKER_CLOSE_WAIT_MS} ms`);
    }
    void current.terminate();
  }

  return {
    run(part, keepAfter) {
      if (closed) return Promise.resolve(NOTHING);
      if (!worker || failed) {
        // Not worth a worker (or none can run): no copy of the cache is kept from here on.
        unsubscribe?.();
        unsubscribe = undefined;
        return inline(part, keepAfter);
      }
      post();
      // The Events' part reads the copy as it is now: later changes are not needed.
      if (part === 'events') {
        unsubscribe?.();
        unsubscribe = undefined;
      }
      worker.ref();
      send({ t: 'part', part, keepAfter });
      return new Promise<BackfillResult>((resolve, reject) => waiting.set(part, { keepAfter, resolve, reject }));
    },
    usesWorker: () => worker !== undefined && !failed,
    close() {
      if (closed) return;
      closed = true;
      stopWorker(true);
      for (const job of waiting.values()) job.resolve(NOTHING);
      waiting.clear();
    },
  };
}
