/**
 * Where list pages are decoded: in a worker thread when one can start, so the engine's own
 * thread (which also carries the frame stream, the transports and every feature) spends a first
 * sync reading sockets and filling the cache instead of parsing 200 MB of JSON. Pages are
 * decoded in the order they are handed in, one worker per cluster watcher. Small pages (most
 * kinds' whole lists) are decoded inline: a round trip through the worker would cost more than
 * the parse, and they would queue behind the large pages of another kind. With `eager` the
 * worker starts at once, while the cluster is probed and discovered, instead of at the first
 * large page (starting it takes ~150 ms, more on a busy machine). Without a worker
 * script beside this module (list-worker.ts when run from source, list-worker.cjs beside a
 * bundle that ships one) pages are decoded inline: slower, the same result. If the worker fails
 * to start or dies, the pages it held fail (their reflectors list again, as after any failed
 * request) and later pages are decoded inline.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodeInline, fromPageText, type DecodedPage, type PageText } from './list-decode.ts';
import type { ObjectSource } from './slim.ts';

/** A page for the worker: the body's bytes (moved, not copied, when the buffer is its own). */
export interface DecodeRequest {
  id: number;
  body: ArrayBuffer;
  source: ObjectSource;
}

/** The worker's answer to one request. */
export type DecodeReply = { id: number; page: PageText } | { id: number; error: string };

/** Decodes list pages; `close` ends the worker. */
export interface ListDecoder {
  decode(body: Buffer, source: ObjectSource): Promise<DecodedPage>;
  /** Whether pages currently go to a worker (false after a failed start or a crash). */
  usesWorker(): boolean;
  close(): void;
}

/** The body as an ArrayBuffer that may be transferred: its own buffer, or a copy of a pooled one. */
function ownBuffer(body: Buffer): ArrayBuffer {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) return body.buffer;
  return new Uint8Array(body).buffer;
}

/** The worker script beside this module (source or bundle), or undefined when there is none. */
function defaultWorkerUrl(): URL | undefined {
  for (const name of ['./list-worker.ts', './list-worker.cjs']) {
    const url = new URL(name, import.meta.url);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}

/** Pages smaller than this are decoded on the calling thread (~1 ms of parsing). */
export const INLINE_BELOW_BYTES = 128 * 1024;

/** Decodes inline, on the calling thread. */
export function createInlineDecoder(): ListDecoder {
  return {
    decode: (body, source) => Promise.resolve().then(() => decodeInline(body.toString('utf8'), source)),
    usesWorker: () => false,
    close: () => undefined,
  };
}

/**
 * Decodes in a worker started from `workerUrl` (the script beside this module by default),
 * falling back to inline decoding for good once the worker fails, or from the start when there
 * is no worker script.
 */
export function createListDecoder(options: { workerUrl?: URL; log?: (message: string) => void; eager?: boolean; inlineBelowBytes?: number } = {}): ListDecoder {
  const inline = createInlineDecoder();
  const inlineBelow = options.inlineBelowBytes ?? INLINE_BELOW_BYTES;
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
  if (!workerUrl) return inline;
  const pending = new Map<number, { resolve: (page: DecodedPage) => void; reject: (error: Error) => void }>();
  let worker: Worker | undefined;
  let broken = false;
  let closed = false;
  let nextId = 1;

  /** The worker is gone: what it still owed fails, what comes later is decoded inline. */
  const fail = (reason: string): void => {
    if (broken) return;
    broken = true;
    if (!closed) options.log?.(`list pages are decoded on the engine thread from now on: ${reason}`);
    void worker?.terminate();
    worker = undefined;
    for (const job of pending.values()) job.reject(new Error(closed ? 'the list decoder was closed' : `the list worker failed: ${reason}`));
    pending.clear();
  };

  const start = (): Worker | undefined => {
    if (worker || broken) return worker;
    try {
      const started = new Worker(workerUrl);
      started.unref();
      started.on('message', (reply: DecodeReply) => {
        const job = pending.get(reply.id);
        if (!job) return;
        pending.delete(reply.id);
        if (pending.size === 0) started.unref();
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
      worker = started;
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    return worker;
  };

  if (options.eager) start();

  return {
    decode(body, source) {
      if (closed) return Promise.reject(new Error('the list decoder was closed'));
      if (body.length < inlineBelow) return inline.decode(body, source);
      const running = start();
      if (!running) return inline.decode(body, source);
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        // A worker with pages to decode keeps the process alive; an idle one does not.
        running.ref();
        const bytes = ownBuffer(body);
        running.postMessage({ id, body: bytes, source } satisfies DecodeRequest, [bytes]);
      });
    },
    usesWorker: () => !broken && !closed,
    close() {
      closed = true;
      fail('closed');
    },
  };
}
