/**
 * Where list pages are decoded: in a worker thread when one can start, so the engine's own
 * thread (which also carries the frame stream, the transports and every feature) spends a first
 * sync reading sockets and filling the cache instead of parsing 200 MB of JSON. Pages are
 * decoded by one worker per cluster watcher (two on 4 cores or more, see MAX_LIST_WORKERS), each
 * page answering its own promise. Small pages (most kinds' whole lists) are decoded inline: a round trip through the worker would cost more than
 * the parse, and they would queue behind the large pages of another kind. With `eager` the
 * worker starts at once, while the cluster is probed and discovered, instead of at the first
 * large page (starting it takes ~150 ms, more on a busy machine); a second one when pages wait
 * for the first. Without a worker
 * script beside this module (list-worker.ts when run from source, list-worker.cjs beside a
 * bundle that ships one) pages are decoded inline: slower, the same result. If the worker fails
 * to start or dies, the pages every worker held fail (their reflectors list again, as after any failed
 * request) and later pages are decoded inline.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { decodeInline, fromPageText, type DecodedPage, type PageText } from './list-decode.ts';
import { pageBodyText } from './list-managed-fields.ts';
import type { ObjectSource } from './slim.ts';
import { decodeEventObjects } from './watch-decode.ts';
import { workerScriptBeside } from './worker-script.ts';

/**
 * A page for the worker: the body's bytes (moved, not copied, when the buffer is its own), or
 * watch events' objects, each its own JSON text (watch-decode.ts).
 */
export type DecodeRequest = { id: number; body: ArrayBuffer; source: ObjectSource } | { id: number; objects: string[]; source: ObjectSource };

/** The worker's answer to one request. */
export type DecodeReply = { id: number; page: PageText } | { id: number; error: string };

/** Decodes list pages; `close` ends the worker. */
export interface ListDecoder {
  decode(body: Buffer, source: ObjectSource): Promise<DecodedPage>;
  /**
   * Decodes watch events' objects (each one object's JSON) as one page, in their order: no list
   * body is built for them. Optional: without it, a caller joins them into a body for `decode`.
   */
  decodeObjects?(objects: string[], source: ObjectSource): Promise<DecodedPage>;
  /** Whether pages currently go to a worker (false after a failed start or a crash). */
  usesWorker(): boolean;
  close(): void;
}

/** A decoder with workers: how many run now (tests, diagnostics). */
export interface PooledListDecoder extends ListDecoder {
  workers(): number;
}

/** The body as an ArrayBuffer that may be transferred: its own buffer, or a copy of a pooled one. */
function ownBuffer(body: Buffer): ArrayBuffer {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) return body.buffer;
  return new Uint8Array(body).buffer;
}

/** Pages smaller than this are decoded on the calling thread (~1 ms of parsing). */
export const INLINE_BELOW_BYTES = 128 * 1024;

/** Watch events' objects decoded on the calling thread. */
const decodeObjectsInline = (objects: string[], source: ObjectSource): Promise<DecodedPage> => Promise.resolve().then(() => decodeEventObjects(objects, source));

/** Decodes inline, on the calling thread. */
export function createInlineDecoder(): PooledListDecoder {
  return {
    decode: (body, source) => Promise.resolve().then(() => decodeInline(pageBodyText(body, source), source)),
    decodeObjects: decodeObjectsInline,
    usesWorker: () => false,
    workers: () => 0,
    close: () => undefined,
  };
}

/**
 * List workers a decoder runs at most. A first sync's pages come faster than one thread parses
 * them (the worker was busy ~85 % of a 50,000-pod sync while the engine's thread idled half of
 * it), so where cores are spare a second worker decodes the next page meanwhile; each page still
 * resolves its own promise, and every caller (pager, WatchList batches, watch backlog) applies
 * pages in the order it asked for them.
 */
export const MAX_LIST_WORKERS = 2;

/**
 * Cores below which one list worker decodes. On the 2-core bench VM a second worker made the
 * 50,000-pod engine sync slower (sync over one JSON.parse 3.54 and 3.78 against 3.10 and 2.69
 * with one, alternating in one run, 2026-11-28): the engine's thread and the simulator need the
 * second core, and the worker's start-up costs ~0.5 CPU-s there.
 */
export const SECOND_WORKER_MIN_CORES = 4;

/** The default number of list workers on a machine with `cores` logical cores. */
export function defaultListWorkers(cores = availableParallelism()): number {
  return cores >= SECOND_WORKER_MIN_CORES ? MAX_LIST_WORKERS : 1;
}

interface WorkerSlot {
  worker: Worker;
  /** Pages handed to it and not answered yet. */
  jobs: number;
}

/**
 * Decodes in workers started from `workerUrl` (the script beside this module by default), up to
 * `workers` of them (defaultListWorkers()): the first at once when eager, else at the first large
 * page; another when every running one is busy. Falls back to inline decoding for good once a
 * worker fails, or from the start when there is no worker script.
 */
export function createListDecoder(options: { workerUrl?: URL; log?: (message: string) => void; eager?: boolean; inlineBelowBytes?: number; workers?: number } = {}): PooledListDecoder {
  const inline = createInlineDecoder();
  const inlineBelow = options.inlineBelowBytes ?? INLINE_BELOW_BYTES;
  const workerUrl = options.workerUrl ?? workerScriptBeside(import.meta.url, ['./list-worker.ts', './list-worker.cjs']);
  const maxWorkers = Math.max(1, options.workers ?? defaultListWorkers());
  if (!workerUrl) return inline;
  const pending = new Map<number, { slot: WorkerSlot; resolve: (page: DecodedPage) => void; reject: (error: Error) => void }>();
  const slots: WorkerSlot[] = [];
  let broken = false;
  let closed = false;
  let nextId = 1;

  /** A worker is gone: what any of them still owed fails, what comes later is decoded inline. */
  const fail = (reason: string): void => {
    if (broken) return;
    broken = true;
    if (!closed) options.log?.(`list pages are decoded on the engine thread from now on: ${reason}`);
    for (const slot of slots.splice(0)) void slot.worker.terminate();
    for (const job of pending.values()) job.reject(new Error(closed ? 'the list decoder was closed' : `the list worker failed: ${reason}`));
    pending.clear();
  };

  const spawn = (): WorkerSlot | undefined => {
    if (broken) return undefined;
    try {
      const started = new Worker(workerUrl);
      started.unref();
      const slot: WorkerSlot = { worker: started, jobs: 0 };
      started.on('message', (reply: DecodeReply) => {
        const job = pending.get(reply.id);
        if (!job) return;
        pending.delete(reply.id);
        slot.jobs -= 1;
        if (slot.jobs === 0) started.unref();
        if ('error' in reply) job.reject(new Error(reply.error));
        else {
          try {
            job.resolve(fromPageText(reply.page));
          } catch (error) {
            job.reject(error instanceof Error ? error : new Error(String(error)));
          }
        }
      });
      started.on('error', (error) => fail(error.message));
      started.on('exit', (code) => fail(`the list worker exited (${code})`));
      slots.push(slot);
      return slot;
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };

  /** An idle worker, else a new one while there is room, else the least busy. */
  const pick = (): WorkerSlot | undefined => {
    if (broken) return undefined;
    const idle = slots.find((slot) => slot.jobs === 0);
    if (idle) return idle;
    if (slots.length < maxWorkers) return spawn();
    return slots.reduce((least, slot) => (slot.jobs < least.jobs ? slot : least));
  };

  if (options.eager) spawn();

  /** Hands a request to a worker; its page answers the promise. */
  const post = (slot: WorkerSlot, request: (id: number) => DecodeRequest, transfer: ArrayBuffer[]): Promise<DecodedPage> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { slot, resolve, reject });
      slot.jobs += 1;
      // A worker with pages to decode keeps the process alive; an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage(request(id), transfer);
    });

  return {
    decode(body, source) {
      if (closed) return Promise.reject(new Error('the list decoder was closed'));
      if (body.length < inlineBelow) return inline.decode(body, source);
      const slot = pick();
      if (!slot) return inline.decode(body, source);
      const bytes = ownBuffer(body);
      return post(slot, (id) => ({ id, body: bytes, source }), [bytes]);
    },
    decodeObjects(objects, source) {
      if (closed) return Promise.reject(new Error('the list decoder was closed'));
      let chars = 0;
      for (const text of objects) chars += text.length;
      const slot = chars < inlineBelow ? undefined : pick();
      // The texts are copied into the message as they are: no list body, no UTF-8 encoding here.
      return slot ? post(slot, (id) => ({ id, objects, source }), []) : decodeObjectsInline(objects, source);
    },
    usesWorker: () => !broken && !closed,
    workers: () => slots.length,
    close() {
      closed = true;
      fail('closed');
    },
  };
}
