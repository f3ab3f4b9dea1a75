/**
 * `?watch=true` as kube-apiserver serves it: HTTP 200, chunked newline-delimited JSON events
 * (`{"type":"ADDED","object":{...}}`), objects in the negotiated form (Tables for kubectl get -w,
 * headers only on the first), BOOKMARKs to clients that allowed them and a bare newline to the
 * others as keep-alive, `timeoutSeconds`, and a too-old resourceVersion as an in-stream 410 ERROR.
 *
 * Why the newline: client-node 2.x drops a watch after 30 s without bytes and sends no
 * allowWatchBookmarks; its line reader ignores lines that are not JSON. client-go's JSON framer
 * skips whitespace between objects. A BOOKMARK nobody asked for, by contrast, reaches
 * `kubectl get -w`'s printer as an event to print.
 */
import type { ServerResponse } from 'node:http';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { ApiError } from '../errors.ts';
import { apiVersionOf, type ResourceType } from '../resources.ts';
import type { KubeObject, WatchEvent } from '../types.ts';
import { startWatch, type Watch } from '../watch.ts';
import type { ApiRequest, ServerContext } from './context.ts';
import type { ControlledWatch } from './faults.ts';
import { negotiateObjectFormat, type ObjectFormat } from './media.ts';
import { includeObjectOf, presentObject } from './present.ts';
import type { ResourceRoute } from './router.ts';
import { beginInitialEvents, FRESH_WAIT_MS, requestedRv, waitForResourceVersion, watchStartOf } from './watch-list.ts';
import { boolParam, selectorsOf, storageType, toWire } from './wire.ts';

/** Keep-alive period: half of client-node's 30 s inactivity timeout. */
export const DEFAULT_BOOKMARK_INTERVAL_MS = 15_000;
/** How far a watch client may fall behind before the server closes its watch. */
export const DEFAULT_WATCH_BUFFER_LIMIT_BYTES = 16 * 1024 * 1024;

type Encoder = (event: WatchEvent) => string;

function encoderFor(ctx: ServerContext, req: ApiRequest, type: ResourceType, format: ObjectFormat): Encoder {
  const includeObject = includeObjectOf(req);
  let columnsSent = false;
  return (event) => {
    let object: unknown = event.object;
    if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') {
      const wire = toWire(type, event.object as KubeObject);
      // The same bytes as JSON.stringify below; the store serialises a change once for all watches.
      if (format.format === 'json') return `{"type":"${event.type}","object":${ctx.store.toJson(wire)}}\n`;
      const presented = presentObject(ctx, type, wire, format, includeObject);
      // Like the apiserver, only the first Table of a watch carries column definitions.
      object = format.format === 'table' && columnsSent ? { ...(presented as object), columnDefinitions: null } : presented;
      if (format.format === 'table') columnsSent = true;
    } else if (event.type === 'BOOKMARK') {
      object = { ...event.object, apiVersion: apiVersionOf(type) };
    }
    return `${JSON.stringify({ type: event.type, object })}\n`;
  };
}

/** Initial events are written in chunks of about this size, each after the socket drained the last. */
const INITIAL_CHUNK_CHARS = 256 * 1024;

/**
 * A turn's live lines are written once they reach this size, so that the joined text stays a
 * regular heap string: V8 gives a string over ~128 KB pages of its own (mapped, then unmapped
 * when collected), which made a whole turn's text (235 KB at 50 pod events) cost system time.
 */
const BATCH_CHARS = 64 * 1024;

/** One open watch response: framing, keep-alive, stall buffering and the slow-consumer bound. */
class WatchStream implements ControlledWatch {
  private readonly res: ServerResponse;
  private readonly limitBytes: number;
  private bound: number;
  private stalled = false;
  private stallQueue: string[] = [];
  private stallBytes = 0;
  private overflowed = false;
  private ended = false;
  /** Live lines of this turn, written together when it ends (`flush`). */
  private batch: string[] = [];
  private batchChars = 0;
  private resumed: (() => void) | undefined;
  onEnd: () => void = () => undefined;

  constructor(res: ServerResponse, limitBytes: number) {
    this.res = res;
    this.limitBytes = limitBytes;
    this.bound = limitBytes;
  }

  open(): void {
    this.res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    this.res.flushHeaders();
  }

  /**
   * Writes the events produced before the stream opened (initial ADDED events, replayed history).
   * The slow-consumer bound starts after them: a client may fall `limitBytes` behind that.
   */
  writeBurst(lines: string[]): void {
    for (const line of lines) this.res.write(line);
    this.bound = this.limitBytes + this.res.writableLength;
  }

  write(line: string): void {
    if (this.ended) return;
    if (this.stalled) {
      if (this.overflowed) return;
      this.stallQueue.push(line);
      this.stallBytes += line.length;
      if (this.stallBytes > this.limitBytes) {
        this.overflowed = true;
        this.stallQueue = [];
      }
      return;
    }
    if (this.batch.length === 0) process.nextTick(this.flush);
    this.batch.push(line);
    this.batchChars += line.length;
    if (this.batchChars >= BATCH_CHARS) this.flush();
    // The client will re-watch from its last resourceVersion; buffering without limit would not help it.
    if (this.res.writableLength + this.batchChars > this.bound) this.close();
  }

  /**
   * Writes the turn's live lines as one chunk. One write per line cost the simulator's thread more
   * than the line's serialisation (four writes of the response each, 200 pieces a writev at 50
   * events a turn). The bytes, their order and the turn they leave in are those of the line
   * writes; only the chunked framing differs, as kube-apiserver's flushes several events at once
   * when its watcher's queue holds more than one.
   */
  private readonly flush = (): void => {
    if (this.batch.length === 0) return;
    const text = this.batch.length === 1 ? (this.batch[0] as string) : this.batch.join('');
    this.batch = [];
    this.batchChars = 0;
    // Cut or gone meanwhile: what the line writes would have had in the socket is dropped with it.
    if (!this.ended) this.res.write(text);
  };

  /**
   * Writes a long run of lines (a WatchList's initial events, a resumed watch's backlog) in
   * chunks, waiting for the socket to drain between them and giving the event loop a turn after
   * each, so that 50,000 objects are never all buffered at once and other requests are served
   * while they are encoded. Stops early
   * when the stream ends; waits while stalled. Resolves true when every line was written.
   */
  async pump(lines: Iterable<string>): Promise<boolean> {
    let chunk = '';
    for (const line of lines) {
      chunk += line;
      if (chunk.length < INITIAL_CHUNK_CHARS) continue;
      if (!(await this.writeDrained(chunk))) return false;
      chunk = '';
      // A write the socket took at once resolves as a microtask: give I/O and timers a turn.
      await yieldTurn();
      if (this.ended) return false;
    }
    return chunk === '' ? !this.ended : this.writeDrained(chunk);
  }

  private async writeDrained(chunk: string): Promise<boolean> {
    while (this.stalled && !this.ended) await new Promise<void>((resolve) => (this.resumed = resolve));
    if (this.ended) return false;
    if (!this.res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.res.off('drain', done);
          this.res.off('close', done);
          resolve();
        };
        this.res.on('drain', done);
        this.res.on('close', done);
      });
    }
    return !this.ended;
  }

  /** Whether a keep-alive may be written now (not while stalled or after the end). */
  acceptsKeepAlive(): boolean {
    return !this.ended && !this.stalled;
  }

  cut(): void {
    this.finish();
    this.res.destroy();
  }

  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    if (!this.stalled) return;
    this.stalled = false;
    this.resumed?.();
    this.resumed = undefined;
    const queued = this.stallQueue;
    this.stallQueue = [];
    this.stallBytes = 0;
    if (this.overflowed) {
      this.close();
      return;
    }
    for (const line of queued) this.write(line);
  }

  close(): void {
    if (this.ended) return;
    this.flush();
    this.finish();
    this.res.end();
  }

  /** Stops producing; idempotent. */
  finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.resumed?.();
    this.onEnd();
  }
}

/** Serves a watch on `res`. Throws ApiError for requests that fail before the stream starts. */
export function serveWatch(ctx: ServerContext, req: ApiRequest, route: ResourceRoute, res: ServerResponse): void {
  const { type } = route;
  const format = negotiateObjectFormat(req.headers.accept);
  const selectors = selectorsOf(req, type);
  const allowWatchBookmarks = boolParam(req, 'allowWatchBookmarks');
  const { sendInitialEvents, resourceVersion } = watchStartOf(req, ctx.watchList);
  const timeoutSeconds = Number.parseInt(req.query.get('timeoutSeconds') ?? '', 10);

  const encode = encoderFor(ctx, req, type, format);
  const stream = new WatchStream(res, ctx.watchBufferLimitBytes);
  const pending: string[] = [];
  let pendingChars = 0;
  /** Whether events written while the replay is sent count against the slow-consumer bound. */
  let pendingBounded = false;
  let live = false;
  const lineOf = (event: WatchEvent): string => {
    try {
      return encode(event);
    } catch (error) {
      const status = new ApiError(500, 'InternalError', `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`).toStatus();
      queueMicrotask(() => stream.close());
      return `${JSON.stringify({ type: 'ERROR', object: status })}\n`;
    }
  };
  const sink = (event: WatchEvent): void => {
    const line = lineOf(event);
    if (live) {
      stream.write(line);
      return;
    }
    pending.push(line);
    pendingChars += line.length;
    // Changes made while a replay is sent wait behind it; a client that falls `limitBytes` behind
    // them is closed as a live one is, and resumes from the last version it read.
    if (pendingBounded && pendingChars > ctx.watchBufferLimitBytes) stream.close();
  };

  if (sendInitialEvents === true) {
    const requested = requestedRv(resourceVersion);
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const begin = (): void => {
      if (aborted.signal.aborted) return;
      const initial = beginInitialEvents(ctx.store, storageType(type), { namespace: route.namespace, ...selectors, allowWatchBookmarks }, sink);
      const lines = (function* () {
        for (const object of initial.objects) yield encode({ type: 'ADDED', object });
        if (initial.bookmark) yield encode(initial.bookmark);
      })();
      run(initial.watch, (go) => void stream.pump(lines).then((complete) => complete && go()));
    };
    waitForResourceVersion(ctx.store, requested, FRESH_WAIT_MS, aborted.signal).then(begin, (error: unknown) => {
      if (aborted.signal.aborted) return;
      // The cacher answers with an error watcher: a 200 stream holding one ERROR event.
      stream.open();
      stream.write(`${JSON.stringify({ type: 'ERROR', object: (error as ApiError).toStatus() })}\n`);
      stream.close();
    });
    return;
  }

  let watch: Watch;
  try {
    const options = { namespace: route.namespace, ...selectors, resourceVersion, allowWatchBookmarks, deferReplay: true };
    watch = startWatch(ctx.store, storageType(type), { ...options, ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}) }, sink);
  } catch (error) {
    if (error instanceof ApiError && error.code === 410 && ctx.faults.state.watch410Mode === 'in-stream') {
      stream.open();
      stream.write(`${JSON.stringify({ type: 'ERROR', object: error.toStatus() })}\n`);
      stream.close();
      return;
    }
    throw error;
  }
  // A resumed watch's backlog (up to the whole window, 102,400 changes) is encoded as it is sent, a
  // chunk at a time with the event loop given back between chunks, never built in one step.
  pendingBounded = true;
  pendingChars = 0;
  const replay = watch.backlog;
  run(watch, (go) => {
    const lines = (function* () {
      for (const event of replay) yield lineOf(event);
    })();
    void stream.pump(lines).then((complete) => complete && go());
  });

  /** Opens the stream for `watch`; `opening` writes what comes first, then lets live events through. */
  function run(watch: Watch, opening: (go: () => void) => void): void {
    const timers: NodeJS.Timeout[] = [];
    const unregister = ctx.faults.registerWatch(stream);
    // A custom kind whose CRD is deleted is no longer served: its watches end, as the real handler's do.
    const unwatchTypes = type.custom ? ctx.store.types.onChange(() => !ctx.store.types.byGVR(type.group, type.version, type.plural) && stream.close()) : undefined;
    stream.onEnd = () => {
      watch.stop();
      for (const timer of timers) clearTimeout(timer);
      unregister();
      unwatchTypes?.();
    };
    res.on('close', () => stream.finish());
    res.on('error', () => stream.finish());

    stream.open();
    opening(() => {
      stream.writeBurst(pending);
      live = true;
    });

    timers.push(
      setInterval(() => {
        if (!stream.acceptsKeepAlive()) return;
        if (allowWatchBookmarks) watch.bookmark();
        else stream.write('\n');
      }, ctx.bookmarkIntervalMs),
    );
    if (Number.isFinite(timeoutSeconds) && timeoutSeconds > 0) timers.push(setTimeout(() => stream.close(), timeoutSeconds * 1000));
  }
}
