/**
 * The live cluster watcher: discovery, then one reflector per served kind writing slim objects
 * into the ObjectCache, and per-kind health for the status bar. `start` resolves once discovery
 * has answered (lists go on in the background); `stop` aborts every request and clears every
 * timer; `restartAll` is the engine's hook for system resume.
 */
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';
import { WATCHED_KINDS, type KindKey, type KindHealth } from '../../../../shared/cluster.ts';
import type { ObjectCache } from '../../stream/cache.ts';
import { discoverKinds, type ResourceEndpoint } from './discovery.ts';
import { HealthBoard } from './health.ts';
import { ApiStatusError, createTransport, type Transport } from './http.ts';
import { createListDecoder, type ListDecoder } from './list-decoder.ts';
import { describeFailure } from './messages.ts';
import { DEFAULT_WATCHDOG_MS, Reflector } from './reflector.ts';
import { Backoff, DEFAULT_BACKOFF, systemClock, type BackoffOptions, type Clock } from './timing.ts';

/**
 * Items per list page: half of kubectl's and client-go's 500. A page is decoded whole in the list
 * worker, whose young generation (a 16 MB semi-space) a page of 500 pods (~2 MB of JSON, several
 * times that parsed) overflows mid-page, so most scavenges copied a page's live tree: at 250 the
 * worker's scavenges went 270 -> 120 ms per first sync of 50,000 pods and the engine's CPU
 * 3.82 -> 3.39 s (6 interleaved pairs; the simulator's +0.08 s for twice the requests). The read-ahead
 * (pager.ts) hides the extra round trips.
 */
export const DEFAULT_PAGE_SIZE = 250;

/** Options of `createClusterWatcher`. */
export interface ClusterWatcherOptions {
  /** A single-context kubeconfig object (the current context is used). */
  config: object;
  cache: ObjectCache;
  /** The kinds to watch; all of WATCHED_KINDS by default. */
  kinds?: readonly KindKey[];
  /** Every health change; count-only changes at most every 250 ms. */
  onHealth: (kinds: KindHealth[]) => void;
  clock?: Clock;
  random?: () => number;
  /** Silence (not a byte) after which a list or watch is restarted. */
  watchdogMs?: number;
  backoff?: BackoffOptions;
  pageSize?: number;
  /** Where list pages are decoded; a list worker of the watcher's own by default. */
  decoder?: ListDecoder;
  log?: (message: string) => void;
}

/** A running (or stopped) watcher of one cluster. */
export interface ClusterWatcher {
  /** Discovers the served kinds and starts their reflectors; resolves after discovery. */
  start(): Promise<void>;
  /** Aborts every request and clears every timer; the cache keeps what it has. */
  stop(): Promise<void>;
  /** Restarts every watch at once (system resume, network change). */
  restartAll(reason: string): void;
  health(): KindHealth[];
  /**
   * Starts (or, when its endpoint or mode changed, restarts) a kind beyond the watcher's own:
   * a kind the discovery registry found, custom resources included. Before `start` has found
   * the server, the kind waits and starts with the others.
   */
  addKind(kind: ExtraKind): void;
  /** Stops a kind `addKind` started and drops its objects from the cache (deletes reach the stream). */
  removeKind(kind: KindKey): Promise<void>;
}

/** A kind the discovery registry asks the watcher to follow. */
export interface ExtraKind {
  kind: KindKey;
  endpoint: ResourceEndpoint;
  metadataOnly: boolean;
}

/** Builds a watcher; nothing happens until `start`. */
export function createClusterWatcher(options: ClusterWatcherOptions): ClusterWatcher {
  const kinds = options.kinds ?? WATCHED_KINDS;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const backoffOptions = options.backoff ?? DEFAULT_BACKOFF;
  const log = options.log ?? (() => undefined);
  const board = new HealthBoard({ kinds, clock, onHealth: options.onHealth });
  const discoveryBackoff = new Backoff(backoffOptions, random);
  // Started now, so it is up by the first large page instead of delaying it.
  const decoder = options.decoder ?? createListDecoder({ log, eager: true });
  const reflectors: Reflector[] = [];
  /** Kinds added by `addKind`, by key, with what they were started with. */
  const extra = new Map<KindKey, { spec: ExtraKind; reflector: Reflector | undefined }>();
  let transport: Transport | undefined;
  let discovery: AbortController | undefined;
  let retryTimer: unknown;
  let started = false;
  let stopped = false;
  /** The built-in kinds' discovery answered: extra kinds start at once from then on. */
  let ready = false;

  const newReflector = (on: Transport, kind: KindKey, endpoints: readonly ResourceEndpoint[], metadataOnly: boolean): Reflector =>
    new Reflector({
      kind,
      endpoints,
      transport: on,
      cache: options.cache,
      health: board,
      clock,
      random,
      watchdogMs: options.watchdogMs ?? DEFAULT_WATCHDOG_MS,
      backoff: backoffOptions,
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      decoder,
      log,
      ...(metadataOnly ? { metadataOnly } : {}),
    });

  const startExtra = (spec: ExtraKind): Reflector | undefined => {
    if (!transport || stopped) return undefined;
    board.add(spec.kind);
    const reflector = newReflector(transport, spec.kind, [spec.endpoint], spec.metadataOnly);
    reflector.start();
    return reflector;
  };

  const sameSpec = (a: ExtraKind, b: ExtraKind): boolean => a.metadataOnly === b.metadataOnly && a.endpoint.path === b.endpoint.path && a.endpoint.objectKind === b.endpoint.objectKind;

  const startReflectors = async (): Promise<boolean> => {
    if (!transport || stopped) return false;
    discovery = new AbortController();
    try {
      const found = await discoverKinds(transport, kinds, discovery.signal);
      if (stopped) return false;
      for (const result of found) {
        if ('unavailable' in result) {
          board.set(result.kind, 'unavailable', { count: 0, message: result.unavailable });
          continue;
        }
        const reflector = newReflector(transport, result.kind, result.endpoints, false);
        reflectors.push(reflector);
        reflector.start();
      }
      ready = true;
      for (const entry of extra.values()) entry.reflector ??= startExtra(entry.spec);
      return true;
    } catch (error) {
      if (stopped) return false;
      if (error instanceof ApiStatusError && error.status === 401) transport.renewCredentials();
      const message = `Discovery failed: ${describeFailure(error, transport.server, kinds[0] ?? BUILTIN_KEYS.Namespace)}`;
      log(message);
      for (const kind of kinds) board.set(kind, 'reconnecting', { count: options.cache.size(kind), message });
      return false;
    } finally {
      discovery = undefined;
    }
  };

  const discoverUntilDone = async (): Promise<void> => {
    if (await startReflectors()) return;
    if (stopped) return;
    retryTimer = clock.setTimeout(() => {
      retryTimer = undefined;
      void discoverUntilDone();
    }, discoveryBackoff.next());
  };

  return {
    async start() {
      if (started) return;
      started = true;
      transport = createTransport(options.config);
      await discoverUntilDone();
    },

    async stop() {
      stopped = true;
      if (retryTimer !== undefined) clock.clearTimeout(retryTimer);
      retryTimer = undefined;
      discovery?.abort();
      await Promise.all([...reflectors, ...[...extra.values()].flatMap((e) => (e.reflector ? [e.reflector] : []))].map((r) => r.stop()));
      board.dispose();
      transport?.close();
      if (!options.decoder) decoder.close();
    },

    restartAll(reason) {
      if (stopped) return;
      log(`restarting every watch: ${reason}`);
      for (const reflector of reflectors) reflector.restart(reason);
      for (const entry of extra.values()) entry.reflector?.restart(reason);
      if (retryTimer !== undefined) {
        // Discovery was waiting to retry; now is as good a time as any.
        clock.clearTimeout(retryTimer);
        retryTimer = undefined;
        discoveryBackoff.reset();
        void discoverUntilDone();
      }
    },

    health: () => board.list(),

    addKind(spec) {
      if (stopped || kinds.includes(spec.kind)) return;
      const current = extra.get(spec.kind);
      if (current && sameSpec(current.spec, spec)) return;
      if (current) {
        // Another version or mode: the objects are read afresh from the new endpoint.
        void this.removeKind(spec.kind).then(() => this.addKind(spec));
        return;
      }
      extra.set(spec.kind, { spec, reflector: ready ? startExtra(spec) : undefined });
    },

    async removeKind(kind) {
      const entry = extra.get(kind);
      if (!entry) return;
      extra.delete(kind);
      await entry.reflector?.stop();
      board.remove(kind);
      // Only if no newer addKind for the same key started meanwhile.
      if (!extra.has(kind)) options.cache.replaceKind(kind, []);
    },
  };
}
