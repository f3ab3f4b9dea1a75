/**
 * One kind's reflector, the loop client-go runs and client-node's informer lacks: a paged LIST
 * (read a few pages ahead, see pager.ts) written to the cache with `replaceKind` (only changed
 * objects are emitted), then a WATCH from the list's resourceVersion with bookmarks and a
 * randomised timeout, resumed from the last resourceVersion seen after every end; a relist on 410
 * Gone; capped jittered backoff after failures; a watchdog for silent connections; 403 parks the
 * kind as forbidden and retries slowly; 429 waits as long as the server asks. Every state change
 * reaches the HealthBoard. WatchList (watch-list.ts) reads the initial state instead where the
 * server serves it and the mode says so, and takes over a list whose continue token expired.
 */
import type { KindKey, SlimObject } from '../../../../shared/cluster.ts';
import type { ObjectCache } from '../../stream/cache.ts';
import type { ResourceEndpoint } from './discovery.ts';
import type { HealthBoard } from './health.ts';
import { ApiStatusError, failureOf, readLines, type Transport } from './http.ts';
import type { ListDecoder } from './list-decoder.ts';
import { acceptFor } from '../discovery/modes.ts';
import { describeFailure } from './messages.ts';
import { Pager, type ListPage } from './pager.ts';
import type { ObjectSource } from './slim.ts';
import { Backoff, Watchdog, type BackoffOptions, type Clock } from './timing.ts';
import { InitialEvents } from './initial-events.ts';
import type { ServerProgress } from './server-progress.ts';
import { refusesWatchList, usable, WATCH_LIST_SILENCE_MS, WatchListUnsupported, watchListQuery, type WatchListSetting } from './watch-list.ts';
import { WatchIntake } from './watch-intake.ts';
import type { LineStream } from './watch-reader.ts';

/** Watch timeouts are spread over this range so a cluster's watches do not all end together. */
export const WATCH_TIMEOUT_MIN_S = 300;
/** Upper end of the watch timeout range (inclusive). */
export const WATCH_TIMEOUT_MAX_S = 600;
/** Default time without a byte (event, bookmark or keep-alive) before a connection is restarted. */
export const DEFAULT_WATCHDOG_MS = 90_000;
/** How often a forbidden kind asks again (RBAC may be granted while the app runs). */
export const FORBIDDEN_RETRY_MS = 5 * 60_000;
/** A watch ending cleanly sooner than this, without a single event, counts as a failure. */
const MIN_CLEAN_WATCH_MS = 1_000;

/** Everything a reflector needs; the watcher builds these. */
export interface ReflectorOptions {
  kind: KindKey;
  /** Where the kind is served, preferred first; a 403 moves on to the next. */
  endpoints: readonly ResourceEndpoint[];
  transport: Transport;
  cache: ObjectCache;
  /** Where state changes go: the HealthBoard, or one namespace's share of a kind's health. */
  health: Pick<HealthBoard, 'set' | 'count' | 'setLag'>;
  clock: Clock;
  random: () => number;
  watchdogMs: number;
  backoff: BackoffOptions;
  pageSize: number;
  /** Decodes list pages (in a worker when it can); shared by a watcher's reflectors. */
  decoder: ListDecoder;
  log: (message: string) => void;
  /** Read as metadata only (PartialObjectMetadata lists and watches); whole objects otherwise. */
  metadataOnly?: boolean;
  /** No renderer reads these objects: their renderer's form is not made (ObjectSource.noView). */
  noView?: boolean;
  /**
   * The one namespace the endpoints list (a restricted user's kind, watched namespace by
   * namespace): a relist then replaces this namespace's objects only, never its neighbours'.
   */
  namespace?: string;
  /** When to read the initial state with WatchList, and what the watcher knows of its server's support; off when unset. */
  watchList?: WatchListSetting;
  /** The server's progress (shared by a watcher's reflectors): the lag then counts time before the socket. */
  progress?: ServerProgress;
}

type Interrupt = { type: 'stop' } | { type: 'restart'; reason: string } | { type: 'watchdog'; silentMs: number };

/** Lists and watches one kind into the cache until stopped. */
export class Reflector {
  private readonly o: ReflectorOptions;
  private readonly backoff: Backoff;
  private resourceVersion: string | undefined;
  /** The last resourceVersion before a relist: a WatchList asks for a state not older than it. */
  private knownVersion: string | undefined;
  private endpointIndex = 0;
  private controller: AbortController | undefined;
  private interrupt: Interrupt | undefined;
  private wake: (() => void) | undefined;
  private readonly watchdog: Watchdog;
  private running: Promise<void> | undefined;
  private stopped = false;

  /** Received watch events: scanned, coalesced per uid, applied between reads (watch-intake.ts). */
  private readonly buffer: WatchIntake;
  /** A waiting event failed to apply: the watch it came from is restarted with this error. */
  private applyFailure: unknown;
  /** 500 answers in a row (two make the kind unavailable). */
  private serverErrors = 0;

  constructor(options: ReflectorOptions) {
    this.o = options;
    const { kind, cache, health, clock, log, decoder } = options;
    // A backlog is decoded as list pages are, by the list worker: parsing leaves this thread.
    this.buffer = new WatchIntake({
      kind,
      cache,
      health,
      clock,
      log,
      decoder,
      source: () => this.source,
      onError: (error) => this.abortWith(error),
      ...(options.progress ? { progress: options.progress, probePath: () => this.endpoint.path } : {}),
    });
    this.backoff = new Backoff(options.backoff, options.random);
    this.watchdog = new Watchdog(options.clock, options.watchdogMs, (silentMs) => {
      this.interrupt = { type: 'watchdog', silentMs };
      this.controller?.abort();
    });
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Drops the current connection and starts again at once, from the last resourceVersion. */
  restart(reason: string): void {
    if (this.stopped) return;
    this.interrupt = { type: 'restart', reason };
    this.backoff.reset();
    this.controller?.abort();
    this.wake?.();
  }

  /** Aborts the request in flight and clears every timer; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.buffer.clear();
    this.interrupt = { type: 'stop' };
    this.controller?.abort();
    this.wake?.();
    this.watchdog.disarm();
    await this.running;
  }

  private get endpoint(): ResourceEndpoint {
    return (this.o.endpoints[this.endpointIndex] ?? this.o.endpoints[0]) as ResourceEndpoint;
  }

  private get source(): ObjectSource {
    return { kind: this.o.kind, objectKind: this.endpoint.objectKind, apiVersion: this.endpoint.apiVersion, ...(this.o.metadataOnly ? { metadataOnly: true } : {}), ...(this.o.noView ? { noView: true } : {}) };
  }

  private accept(request: 'list' | 'watch'): string {
    return acceptFor(this.o.metadataOnly ? 'metadata' : 'full', request);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const controller = new AbortController();
      this.controller = controller;
      this.interrupt = undefined;
      let delayMs: number;
      try {
        let watchList = false;
        if (this.resourceVersion === undefined) {
          this.buffer.clear();
          watchList = this.o.watchList?.mode === 'prefer' && usable(this.o.watchList);
          if (!watchList) watchList = (await this.list(controller.signal)) === 'handover';
        }
        delayMs = await this.watch(controller.signal, watchList);
      } catch (error) {
        const failure = this.applyFailure ?? error;
        this.applyFailure = undefined;
        delayMs = this.failed(failure);
      } finally {
        this.watchdog.disarm();
        controller.abort();
      }
      if (!this.stopped && delayMs > 0) await this.sleep(delayMs);
    }
  }

  /** Lists into the cache; 'handover' when a continue token expired and WatchList is to finish the sync instead. */
  private async list(signal: AbortSignal): Promise<'done' | 'handover'> {
    const { kind, cache, health, pageSize } = this.o;
    const { path } = this.endpoint;
    const source = this.source;
    // The list replaces whatever the waiting watch events would have said.
    this.buffer.clear();
    health.set(kind, 'syncing', { count: 0 });
    const pager = new Pager({ transport: this.o.transport, path, signal, accept: this.accept('list'), onData: () => this.watchdog.alive(), decode: (body) => this.o.decoder.decode(body, source) });
    let items: SlimObject[] = [];
    let continueToken: string | undefined;
    let expired = 0;
    for (;;) {
      // Like client-go's pager: after a second expired continue token, one unpaged list finishes.
      const limit = expired < 2 ? pageSize : undefined;
      let page: ListPage;
      try {
        this.watchdog.arm();
        page = await (continueToken ? pager.next(continueToken, limit) : pager.first(limit));
      } catch (error) {
        if (!(continueToken && error instanceof ApiStatusError && error.status === 410)) throw error;
        if (usable(this.o.watchList)) {
          // Starting the list over could expire again on a large kind; one stream cannot.
          this.o.log(`${kind}: the list's continue token expired; WatchList takes over`);
          pager.cancel();
          return 'handover';
        }
        expired += 1;
        this.o.log(`${kind}: the list's continue token expired; listing again from the start`);
        items = [];
        continueToken = undefined;
        continue;
      }
      // Upserted page by page so a long first sync shows its progress. Objects the cache holds
      // at the same version (a relist) keep their cached copy and are not announced.
      page.objects.forEach((object, i) => {
        const cached = cache.get(kind, object.metadata.uid);
        if (cached && cached.metadata.resourceVersion === object.metadata.resourceVersion) {
          items.push(cached);
          return;
        }
        items.push(object);
        cache.upsert(kind, object, page.json[i], page.viewJson?.[i]);
      });
      health.set(kind, 'syncing', { count: items.length });
      continueToken = page.metadata?.continue || undefined;
      if (continueToken) continue;
      const resourceVersion = page.metadata?.resourceVersion;
      if (!resourceVersion) throw new Error(`the ${path} list carried no resourceVersion`);
      if (this.o.namespace === undefined) cache.replaceKind(kind, items);
      else cache.replaceNamespace(kind, this.o.namespace, items);
      this.resourceVersion = resourceVersion;
      return 'done';
    }
  }

  /**
   * Watches until the server ends the stream; returns the delay before the next attempt. With
   * `watchList`, a WatchList: the stream is live (and resumable) once the initial events have ended.
   */
  private async watch(signal: AbortSignal, watchList = false): Promise<number> {
    const { kind, cache, health, clock, random } = this.o;
    const timeoutSeconds = WATCH_TIMEOUT_MIN_S + Math.floor(random() * (WATCH_TIMEOUT_MAX_S - WATCH_TIMEOUT_MIN_S + 1));
    const query = watchList ? watchListQuery(this.knownVersion, timeoutSeconds) : new URLSearchParams({ watch: 'true', allowWatchBookmarks: 'true', resourceVersion: this.resourceVersion ?? '', timeoutSeconds: String(timeoutSeconds) });
    this.watchdog.arm();
    const path = `${this.endpoint.path}?${query}`;
    // A watch from a version is read off this thread where the transport can (watch-reader.ts);
    // a WatchList's initial events are decoded as list pages here (initial-events.ts).
    const lines = watchList ? undefined : await this.o.transport.watchLines?.(path, { signal, accept: this.accept('watch') });
    if (lines) return this.readOffThread(lines);
    const response = await this.o.transport.get(path, { signal, accept: this.accept('watch') });
    if (response.statusCode !== 200) {
      const failure = await failureOf(response, () => this.watchdog.alive());
      throw watchList && refusesWatchList(failure) ? new WatchListUnsupported(failure.message) : failure;
    }
    const openedAt = this.opened();
    const onLive = (resourceVersion: string, count: number): void => {
      this.o.log(`${kind}: ${count} objects from the initial events of a WatchList`);
      this.resourceVersion = resourceVersion;
      health.set(kind, 'live', { count: cache.size(kind) });
    };
    const { namespace, decoder, pageSize: batchSize } = this.o;
    const silenceMs = this.o.watchList?.silenceMs ?? WATCH_LIST_SILENCE_MS;
    const initial = watchList
      ? new InitialEvents({ kind, cache, health, source: this.source, ...(namespace !== undefined ? { namespace } : {}), decoder, batchSize, stream: response, clock, silenceMs, signal, onLive, receive: (e) => this.resumeFrom(this.buffer.event(e)), onError: (e) => this.abortWith(e) })
      : undefined;
    if (!initial) health.set(kind, 'live', { count: cache.size(kind) });
    let events = 0;
    try {
      await readLines(
        response,
        (line) => {
          events += 1;
          if (!initial?.line(line)) this.resumeFrom(this.buffer.line(line));
        },
        () => this.watchdog.alive(),
      );
    } finally {
      initial?.close();
    }
    return this.ended(events, openedAt);
  }

  /** The watch is open and live (not a WatchList): its lines come from the watch reader's worker. */
  private async readOffThread(lines: LineStream): Promise<number> {
    const { kind, cache, health } = this.o;
    if (lines.statusCode !== 200) throw await lines.failure();
    const openedAt = this.opened();
    health.set(kind, 'live', { count: cache.size(kind) });
    let events = 0;
    await lines.read({
      onLine: (line, heldMs) => {
        events += 1;
        // The version to resume from comes with each batch (onResume): a line's own may be ahead of one still waiting there.
        this.buffer.line(line, heldMs);
      },
      onResume: (version) => this.resumeFrom(version),
      onData: () => this.watchdog.alive(),
    });
    return this.ended(events, openedAt);
  }

  /** A watch answered 200: the backoff and the server-error count start over; when it opened. */
  private opened(): number {
    const openedAt = this.o.clock.now();
    this.backoff.connected(openedAt);
    this.serverErrors = 0;
    return openedAt;
  }

  /** A watch the server ended cleanly: the delay before the next one. */
  private ended(events: number, openedAt: number): number {
    const { kind, cache, health, clock } = this.o;
    if (events === 0 && clock.now() - openedAt < MIN_CLEAN_WATCH_MS) {
      // A proxy that ends every watch at once would otherwise make this a busy loop.
      this.backoff.disconnected(clock.now());
      health.set(kind, 'reconnecting', { count: cache.size(kind), message: `${this.o.transport.server} ended the ${kind} watch at once.` });
      return this.backoff.next();
    }
    this.backoff.disconnected(clock.now());
    return 0;
  }

  /** A new watch resumes from the last resourceVersion read (what waits in the buffer is not asked for again). */
  private resumeFrom(version: string | undefined): void {
    if (version) this.resourceVersion = version;
  }

  /** Ends the connection in flight with `error` (a change that failed to apply, a silent WatchList). */
  private abortWith(error: unknown): void {
    this.applyFailure = error;
    this.controller?.abort();
  }

  /** Decides what a failure means for state and health; returns the delay before retrying. */
  private failed(error: unknown): number {
    const { kind, cache, health, log, transport } = this.o;
    const interrupt = this.interrupt;
    if (interrupt?.type === 'stop' || this.stopped) return 0;
    this.backoff.disconnected(this.o.clock.now());
    const count = cache.size(kind);
    if (error instanceof WatchListUnsupported) {
      if (this.o.watchList?.support.markUnsupported(error.message)) log(`${transport.server} does not serve WatchList (${error.message}); listing page by page`);
      return 0;
    }
    if (interrupt?.type === 'restart') {
      log(`${kind}: restarting (${interrupt.reason})`);
      health.set(kind, 'reconnecting', { count, message: `Restarting: ${interrupt.reason}` });
      return 0;
    }
    if (interrupt?.type === 'watchdog') {
      const message = `No data from ${transport.server} for ${Math.round(interrupt.silentMs / 1000)} s; reconnecting.`;
      log(`${kind}: ${message}`);
      health.set(kind, 'reconnecting', { count, message });
      return this.backoff.next();
    }
    if (error instanceof ApiStatusError && error.status === 410) {
      log(`${kind}: ${error.message} (410); relisting`);
      // A WatchList may start from it (NotOlderThan); after a refused one, from the newest state.
      this.knownVersion = this.resourceVersion;
      this.resourceVersion = undefined;
      return 0;
    }
    if (error instanceof ApiStatusError && error.status === 403) {
      if (this.endpointIndex + 1 < this.o.endpoints.length) {
        this.endpointIndex += 1;
        this.resourceVersion = undefined;
        log(`${kind}: forbidden (${error.message}); trying ${this.endpoint.path}`);
        return 0;
      }
      this.endpointIndex = 0;
      this.resourceVersion = undefined;
      health.set(kind, 'forbidden', { count, message: error.message });
      return FORBIDDEN_RETRY_MS;
    }
    if (error instanceof ApiStatusError && error.status === 401) transport.renewCredentials();
    // The server does not have that version yet (restarted, restored): a WatchList asks for the newest.
    if (error instanceof ApiStatusError && error.status === 504) this.knownVersion = undefined;
    const message = describeFailure(error, transport.server, kind);
    log(`${kind}: ${message}`);
    // 500 twice running: the server cannot serve this kind (a failing conversion webhook), so it is
    // unavailable, not reconnecting; retried all the same while every other kind goes on.
    this.serverErrors = error instanceof ApiStatusError && error.status === 500 ? this.serverErrors + 1 : 0;
    health.set(kind, this.serverErrors >= 2 ? 'unavailable' : 'reconnecting', { count, message });
    return error instanceof ApiStatusError && error.retryAfterMs !== undefined ? error.retryAfterMs : this.backoff.next();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const { clock } = this.o;
      const done = (): void => {
        clock.clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = clock.setTimeout(done, ms);
      this.wake = done;
    });
  }
}
