/**
 * The server side's handle on the benchmark client worker (see http-client-worker.ts): timed
 * GETs, paged lists, and watches whose delivered-event count is read from shared memory.
 */
import { Worker } from 'node:worker_threads';

/** Where the client connects, as a kubeconfig would say it. */
export interface ClientTarget {
  url: string;
  caPem?: string;
  token?: string;
}

/** Requests the worker serves; `id` pairs each with its reply. */
export type ClientRequest =
  | { id: number; op: 'get'; target: ClientTarget; path: string; accept: string; parse?: boolean }
  | { id: number; op: 'pages'; target: ClientTarget; path: string; accept: string; limit: number }
  | { id: number; op: 'watch'; target: ClientTarget; path: string; accept: string; counter: SharedArrayBuffer }
  | { id: number; op: 'unwatch'; watchId: number };

/** What a request measured: time to the last byte, bytes, and items when the body was parsed. */
export interface ClientReply {
  ms: number;
  bytes: number;
  items?: number;
  pages?: number;
}

/** The Accept header `kubectl get` sends. */
export const KUBECTL_TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

/** Atomics.waitAsync (ES2024; Node has it, the ES2023 lib the project compiles against does not). */
const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number, timeoutMs: number): { value: Promise<string> | string } }).waitAsync;

/** Distributive Omit, so each request variant keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** An open watch: how many event lines the client has parsed so far. */
export interface WatchCounter {
  /** Complete event lines parsed. */
  events(): number;
  /** ERROR events and lines that were not JSON. */
  badLines(): number;
  /** Resolves once `events() >= target`, or after `timeoutMs`. */
  waitFor(target: number, timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

/** A client in its own thread; `close()` ends the thread. */
export class BenchClient {
  private readonly worker = new Worker(new URL('./http-client-worker.ts', import.meta.url));
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: ClientReply) => void; reject: (error: Error) => void }>();
  private readonly target: ClientTarget;

  constructor(target: ClientTarget) {
    this.target = target;
    this.worker.on('message', (message: { id: number; reply?: ClientReply; error?: string }) => {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.reply) waiter?.resolve(message.reply);
      else waiter?.reject(new Error(message.error ?? 'client worker failed'));
    });
    this.worker.on('error', (error) => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
  }

  private send(request: WithoutId<ClientRequest>, id = this.nextId++): Promise<ClientReply> {
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** GET `path`, timed from request to last byte; `parse` also counts the items (untimed). */
  get(path: string, options: { accept?: string; parse?: boolean } = {}): Promise<ClientReply> {
    return this.send({ op: 'get', target: this.target, path, accept: options.accept ?? 'application/json', parse: options.parse ?? false });
  }

  /** Lists `path` page by page (`limit`, then `continue`), timed in total. */
  pages(path: string, limit: number, options: { accept?: string } = {}): Promise<ClientReply> {
    return this.send({ op: 'pages', target: this.target, path, accept: options.accept ?? 'application/json', limit });
  }

  /** Opens a watch and resolves once the server has answered 200. */
  async watch(path: string, options: { accept?: string } = {}): Promise<WatchCounter> {
    const counter = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    const counts = new Int32Array(counter);
    // The worker knows the watch by the id of the request that opened it.
    const id = this.nextId++;
    await this.send({ op: 'watch', target: this.target, path, accept: options.accept ?? 'application/json', counter }, id);
    return {
      events: () => Atomics.load(counts, 0),
      badLines: () => Atomics.load(counts, 1),
      waitFor: async (target, timeoutMs) => {
        const deadline = performance.now() + timeoutMs;
        for (;;) {
          const seen = Atomics.load(counts, 0);
          const left = deadline - performance.now();
          if (seen >= target || left <= 0) return seen;
          await waitAsync(counts, 0, seen, left).value;
        }
      },
      close: async () => {
        await this.send({ op: 'unwatch', watchId: id });
      },
    };
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
