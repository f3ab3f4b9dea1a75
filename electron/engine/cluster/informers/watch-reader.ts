/**
 * Watches read off the engine's thread. The engine's thread applies changes, records history,
 * builds frames and collects garbage; while it does, a watch socket it reads itself is not read,
 * and at thousands of changes a second a pause of a few hundred milliseconds leaves the server
 * megabytes behind, enough for kube-apiserver (and the simulator) to end the watch as an
 * unresponsive one. Each resumed watch then replays history while new changes queue behind it,
 * until the version leaves the server's window: 410, and a relist of everything.
 *
 * So a cluster watcher's watches are opened by one worker thread (watch-reader-worker.ts) with
 * the credentials the transport resolved here (exec plugins and token files stay on this thread),
 * over direct connections of its own. It reads each socket as fast as it delivers and hands the
 * lines over in batches; while this thread has not taken them, they wait there coalesced per
 * object (watch-queue.ts). Lines reach the reflector as from a socket (watch-intake.ts scans,
 * coalesces and applies them as before), and each batch says from which version a new watch may
 * resume. A proxy, a reader whose worker could not start or died: the transport reads the watch
 * itself, as before.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { ConnectionOptions } from 'node:tls';
import { Worker } from 'node:worker_threads';
import { failureFromText, type ApiStatusError } from './http.ts';
import { workerScriptBeside } from './worker-script.ts';

/** A watch for the worker to open: the URL, and the credentials and TLS material resolved here. */
export interface WatchOpen {
  id: number;
  url: string;
  headers: OutgoingHttpHeaders;
  tls: ConnectionOptions;
  auth?: string;
  /** Offer HTTP/2 over TLS. */
  http2: boolean;
}

/** From the engine to the worker. */
export type ReaderRequest = ({ type: 'open' } & WatchOpen) | { type: 'ack'; id: number } | { type: 'close'; id: number } | { type: 'shutdown' };

/** A network failure, as it crosses from the worker (its code kept for the status bar's words). */
export interface ReaderError {
  message: string;
  code?: string;
}

/** From the worker to the engine. */
export type ReaderReply =
  | { type: 'head'; id: number; statusCode: number }
  | { type: 'failure'; id: number; statusCode: number; statusMessage: string; retryAfter?: unknown; body: string }
  | { type: 'lines'; id: number; lines: string[]; resumeFrom: string | undefined; heldMs: number }
  | { type: 'alive'; id: number }
  | { type: 'end'; id: number; resumeFrom: string | undefined; error?: ReaderError }
  | { type: 'error'; id: number; error: ReaderError };

/** What the reflector does with a watch's lines. */
export interface LineHandlers {
  /** One line; `heldMs`: how long it had waited since it was read. Throwing ends the watch with that error. */
  onLine(line: string, heldMs: number): void;
  /** After a batch: a new watch may resume from this version. */
  onResume(version: string): void;
  /** Bytes arrived (the watchdog's sign of life). */
  onData(): void;
}

/** A watch opened by the reader. */
export interface LineStream {
  readonly statusCode: number;
  /** A non-200 answer as an ApiStatusError with the server's message. */
  failure(): Promise<ApiStatusError>;
  /** Reads until the server ends the stream; rejects when the connection breaks or `onLine` throws. */
  read(handlers: LineHandlers): Promise<void>;
}

/** Opens watches in the worker. */
export interface WatchReader {
  /** Whether watches can be opened (false without a worker script, or after the worker failed). */
  available(): boolean;
  /**
   * Starts the worker now rather than at the first watch (it takes ~150 ms, more on a busy
   * machine, which a first watch would otherwise wait out with its silence watchdog running).
   */
  start(): void;
  open(request: Omit<WatchOpen, 'id'>, signal: AbortSignal): Promise<LineStream>;
  close(): void;
}

/** The reader could not take the watch (its worker is not running): the caller reads it itself. */
export class ReaderUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReaderUnavailable';
  }
}

function errorFrom(error: ReaderError): Error {
  return Object.assign(new Error(error.message), error.code ? { code: error.code } : {});
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** A watch's end of the conversation: replies for its id go here. */
type Listener = (reply: ReaderReply | { type: 'broken'; error: Error }) => void;

/** A reader whose worker starts at `start` or at the first watch. */
export function createWatchReader(options: { workerUrl?: URL; log?: (message: string) => void } = {}): WatchReader {
  const workerUrl = options.workerUrl ?? workerScriptBeside(import.meta.url, ['./watch-reader-worker.ts', './watch-reader-worker.cjs']);
  const listeners = new Map<number, Listener>();
  let worker: Worker | undefined;
  let broken = !workerUrl;
  let closed = false;
  let nextId = 1;

  const send = (request: ReaderRequest): void => {
    worker?.postMessage(request);
  };

  const fail = (reason: string): void => {
    if (broken) return;
    broken = true;
    if (!closed) options.log?.(`watches are read on the engine thread from now on: ${reason}`);
    void worker?.terminate();
    worker = undefined;
    const error = new Error(`the watch reader failed: ${reason}`);
    for (const listener of [...listeners.values()]) listener({ type: 'broken', error });
    listeners.clear();
  };

  const started = (): Worker | undefined => {
    if (worker || broken) return worker;
    try {
      const made = new Worker(workerUrl as URL);
      made.on('message', (reply: ReaderReply) => listeners.get(reply.id)?.(reply));
      made.on('error', (error) => fail(error.message));
      made.on('exit', (code) => fail(`the watch reader exited (${code})`));
      worker = made;
      made.unref();
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    return worker;
  };

  const listen = (id: number, listener: Listener): void => {
    listeners.set(id, listener);
    // An open watch keeps the process alive, as a socket of its own would.
    worker?.ref();
  };
  const forget = (id: number): void => {
    listeners.delete(id);
    if (listeners.size === 0) worker?.unref();
  };

  return {
    available: () => !broken && !closed,

    start() {
      if (!closed) started();
    },

    open(request, signal) {
      if (closed) return Promise.reject(new ReaderUnavailable('the watch reader was closed'));
      if (!started()) return Promise.reject(new ReaderUnavailable('the watch reader is not running'));
      signal.throwIfAborted();
      const id = nextId++;
      return new Promise<LineStream>((resolve, reject) => {
        /** Replies after the head, kept until `read` takes over. */
        const early: Array<Parameters<Listener>[0]> = [];
        let reading: Listener | undefined;
        const onAbort = (): void => {
          send({ type: 'close', id });
          const listener = listeners.get(id);
          forget(id);
          if (reading) reading({ type: 'broken', error: abortError(signal) });
          else if (listener) reject(abortError(signal));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const done = (): void => {
          signal.removeEventListener('abort', onAbort);
          forget(id);
        };
        listen(id, (reply) => {
          if (reading) return reading(reply);
          switch (reply.type) {
            case 'head':
              resolve({
                statusCode: reply.statusCode,
                failure: () => Promise.reject(new Error('the watch was answered 200')),
                read(handlers) {
                  // Aborted between the head and this call: its replies are no longer listened to.
                  if (signal.aborted) return Promise.reject(abortError(signal));
                  return new Promise<void>((resolveRead, rejectRead) => {
                    let over = false;
                    const finish = (error?: Error): void => {
                      if (over) return;
                      over = true;
                      done();
                      if (error) rejectRead(error);
                      else resolveRead();
                    };
                    reading = (next) => {
                      if (over) return;
                      switch (next.type) {
                        case 'lines':
                          for (const line of next.lines) {
                            try {
                              handlers.onLine(line, next.heldMs);
                            } catch (error) {
                              send({ type: 'close', id });
                              finish(error instanceof Error ? error : new Error(String(error)));
                              return;
                            }
                            if (over) return;
                          }
                          if (next.resumeFrom) handlers.onResume(next.resumeFrom);
                          handlers.onData();
                          send({ type: 'ack', id });
                          return;
                        case 'alive':
                          handlers.onData();
                          return;
                        case 'end':
                          if (next.resumeFrom) handlers.onResume(next.resumeFrom);
                          finish(next.error ? errorFrom(next.error) : undefined);
                          return;
                        case 'broken':
                          finish(next.error);
                          return;
                        default:
                          return;
                      }
                    };
                    for (const reply of early.splice(0)) reading(reply);
                  });
                },
              });
              return;
            case 'failure':
              done();
              resolve({
                statusCode: reply.statusCode,
                failure: () => Promise.resolve(failureFromText({ statusCode: reply.statusCode, statusMessage: reply.statusMessage, retryAfter: reply.retryAfter }, reply.body)),
                read: () => Promise.reject(new Error(`the watch was answered ${reply.statusCode}`)),
              });
              return;
            case 'error':
              done();
              reject(errorFrom(reply.error));
              return;
            case 'broken':
              done();
              // Not opened: the caller reads this watch itself.
              reject(new ReaderUnavailable(reply.error.message));
              return;
            default:
              early.push(reply);
          }
        });
        send({ type: 'open', id, ...request });
      });
    },

    close() {
      if (closed) return;
      closed = true;
      send({ type: 'shutdown' });
      fail('closed');
    },
  };
}
