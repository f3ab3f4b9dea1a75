/**
 * The initial events of one WatchList request (watch-list.ts), up to the end bookmark, decoded as
 * a list's pages are: ADDED events are gathered a page's worth at a time and handed to the list
 * decoder (the list worker for large batches) as one list body, so parsing and slimming 50,000
 * pods does not fall to the engine's thread; the socket is paused while a few batches wait. Pages
 * are written to the cache in order as they come back (a long first sync shows its progress; an
 * object the cache holds at the same version keeps its cached copy and is not announced). At the
 * end bookmark, once every page is in, what the initial events did not name is removed, as a
 * list's replace does; the events that came after the bookmark meanwhile are handed on in order.
 */
import type { KindKey, SlimObject } from '../../../../shared/cluster.ts';
import type { ObjectCache } from '../../stream/cache.ts';
import type { HealthBoard } from './health.ts';
import { statusError } from './http.ts';
import type { ListDecoder } from './list-decoder.ts';
import type { ListPage } from './pager.ts';
import type { ObjectSource } from './slim.ts';
import type { Clock } from './timing.ts';
import { INITIAL_EVENTS_END_ANNOTATION, refusesWatchList, SilenceTimer, WatchListUnsupported, type StreamEvent } from './watch-list.ts';

/** How an ADDED event starts when written by kube-apiserver's (and the simulator's) JSON encoder. */
const ADDED_PREFIX = '{"type":"ADDED","object":';
/** Batches decoding at once; past this the socket is paused. */
const MAX_BATCHES_IN_FLIGHT = 4;

/** Options of InitialEvents. */
export interface InitialEventsOptions {
  kind: KindKey;
  cache: ObjectCache;
  source: ObjectSource;
  /** Set for a namespace's reflector: the end replaces this namespace's objects only. */
  namespace?: string;
  /** The kind is syncing until the end, with how many objects have come so far. */
  health: Pick<HealthBoard, 'set'>;
  decoder: ListDecoder;
  /** Objects per batch handed to the decoder (the list's page size). */
  batchSize: number;
  /** The watch response: paused while batches wait or the end is being applied. */
  stream: { pause(): void; resume(): void };
  clock: Clock;
  /** Silence before the end that means the server ignored sendInitialEvents. */
  silenceMs: number;
  /** The initial state is in the cache at this resourceVersion: the watch is live. */
  onLive: (resourceVersion: string, count: number) => void;
  /** An event that came after the end bookmark, once the state before it is in place. */
  receive: (event: StreamEvent) => void;
  /** Ends the watch (a failed decode, silence, a failing held event). */
  onError: (error: unknown) => void;
  /** The watch's; once aborted, nothing more reaches the cache (a new attempt owns the kind). */
  signal: AbortSignal;
}

export class InitialEvents {
  private readonly o: InitialEventsOptions;
  private readonly items: SlimObject[] = [];
  private batch: string[] = [];
  private applied: Promise<void> = Promise.resolve();
  private inFlight = 0;
  /** Events after the end bookmark, waiting for the initial state; undefined before the end and once live. */
  private held: StreamEvent[] | undefined;
  private live = false;
  private paused = false;
  private readonly silence: SilenceTimer;

  constructor(options: InitialEventsOptions) {
    this.o = options;
    options.health.set(options.kind, 'syncing', { count: 0 });
    this.silence = new SilenceTimer(options.clock, options.silenceMs, options.onError);
  }

  /** Stops the silence timer (the watch ended). */
  close(): void {
    this.silence.clear();
  }

  /**
   * One line of the stream; false once the watch is live (the caller handles it). Throws
   * WatchListUnsupported when the line shows a server that does not serve WatchList, and the
   * Status of any other ERROR event before the end.
   */
  line(line: string): boolean {
    if (this.live) return false;
    if (this.held) {
      this.held.push(JSON.parse(line) as StreamEvent);
      return true;
    }
    this.silence.reset();
    if (line.startsWith(ADDED_PREFIX) && line.endsWith('}')) {
      this.add(line.slice(ADDED_PREFIX.length, -1));
      return true;
    }
    const event = JSON.parse(line) as StreamEvent;
    switch (event.type) {
      case 'ADDED':
        this.add(JSON.stringify(event.object));
        return true;
      case 'BOOKMARK': {
        const metadata = event.object?.metadata;
        if (metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] !== 'true') throw new WatchListUnsupported('a bookmark came before the end of the initial events (sendInitialEvents was ignored)');
        if (!metadata.resourceVersion) throw new Error('the initial-events-end bookmark carried no resourceVersion');
        this.end(metadata.resourceVersion);
        return true;
      }
      case 'ERROR': {
        const error = statusError(event.object);
        throw refusesWatchList(error) ? new WatchListUnsupported(error.message) : error;
      }
      default:
        throw new WatchListUnsupported(`a ${event.type ?? 'typeless'} event came before the end of the initial events (sendInitialEvents was ignored)`);
    }
  }

  private add(objectJson: string): void {
    this.batch.push(objectJson);
    if (this.batch.length >= this.o.batchSize) this.flush();
  }

  /** Hands the gathered objects to the decoder as one list body; applies its page after the earlier ones. */
  private flush(): void {
    if (this.batch.length === 0) return;
    const body = Buffer.from(`{"items":[${this.batch.join(',')}]}`);
    this.batch = [];
    this.inFlight += 1;
    this.flow();
    const page = this.o.decoder.decode(body, this.o.source);
    page.catch(() => undefined);
    this.applied = this.applied.then(async () => {
      const decoded = await page;
      this.o.signal.throwIfAborted();
      this.inFlight -= 1;
      this.apply(decoded);
      this.flow();
    });
    this.applied.catch((error: unknown) => {
      if (!this.o.signal.aborted) this.o.onError(error);
    });
  }

  private apply(page: ListPage): void {
    const { kind, cache } = this.o;
    page.objects.forEach((object, i) => {
      const cached = cache.get(kind, object.metadata.uid);
      if (cached && cached.metadata.resourceVersion === object.metadata.resourceVersion) {
        this.items.push(cached);
        return;
      }
      this.items.push(object);
      cache.upsert(kind, object, page.json[i], page.viewJson?.[i]);
    });
    this.o.health.set(kind, 'syncing', { count: this.items.length });
  }

  /** The end bookmark: once every batch is in, replace, go live, and hand on what came meanwhile. */
  private end(resourceVersion: string): void {
    const { kind, cache } = this.o;
    this.silence.clear();
    this.held = [];
    this.flush();
    this.flow();
    this.applied
      .then(() => {
        if (this.o.signal.aborted) return;
        if (this.o.namespace === undefined) cache.replaceKind(kind, this.items);
        else cache.replaceNamespace(kind, this.o.namespace, this.items);
        this.live = true;
        this.o.onLive(resourceVersion, this.items.length);
        const held = this.held ?? [];
        this.held = undefined;
        for (const event of held) this.o.receive(event);
        this.flow();
      })
      .catch((error: unknown) => {
        if (!this.o.signal.aborted) this.o.onError(error);
      });
  }

  /** Pauses the socket while too many batches wait, or while the end is applied; resumes after. */
  private flow(): void {
    const pause = this.inFlight >= MAX_BATCHES_IN_FLIGHT || (this.held !== undefined && !this.live);
    if (pause === this.paused) return;
    this.paused = pause;
    // Silence the reader chose is not the server's: the silence timer waits while paused.
    if (pause) {
      this.silence.clear();
      this.o.stream.pause();
    } else {
      if (!this.live && this.held === undefined) this.silence.reset();
      this.o.stream.resume();
    }
  }
}
