/**
 * The live cluster watcher: discovery, then one reflector per served kind writing slim objects
 * into the ObjectCache, and per-kind health for the status bar. `start` resolves once discovery
 * has answered (lists go on in the background); `stop` aborts every request and clears every
 * timer; `restartAll` is the engine's hook for system resume. `setScope` follows the access plan:
 * a kind the user may not list cluster-wide is read namespace by namespace (namespaced.ts), or
 * not at all when hidden by the user's permissions.
 */
import type { KindAccess } from '../../../../shared/access.ts';
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';
import { WATCHED_KINDS, type KindKey, type KindHealth } from '../../../../shared/cluster.ts';
import type { ObjectCache } from '../../stream/cache.ts';
import { discoverKinds, type ResourceEndpoint } from './discovery.ts';
import { acceptFor } from '../discovery/modes.ts';
import { HealthBoard } from './health.ts';
import { ApiStatusError, createTransport, getJson, type Transport } from './http.ts';
import { createListDecoder, type ListDecoder } from './list-decoder.ts';
import { describeFailure } from './messages.ts';
import { NamespacedKinds, type KindSpec } from './namespaced.ts';
import { DEFAULT_WATCHDOG_MS, Reflector } from './reflector.ts';
import { ServerProgress } from './server-progress.ts';
import { createWatchReader, type WatchReader } from './watch-reader.ts';
import { Backoff, DEFAULT_BACKOFF, systemClock, type BackoffOptions, type Clock } from './timing.ts';
import { DEFAULT_WATCH_LIST_MODE, WatchListSupport, type WatchListMode } from './watch-list.ts';

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
  /** When informers read their initial state with WatchList (watch-list.ts); DEFAULT_WATCH_LIST_MODE by default. */
  watchList?: WatchListMode;
  /** Silence before the initial events' end after which the server is taken to ignore WatchList. */
  watchListSilenceMs?: number;
  /** A list or watch answered 403: cluster-wide (namespace null) or in one namespace (the access checks recheck). */
  onForbidden?: (kind: KindKey, namespace: string | null) => void;
  /**
   * False when no renderer reads the cache (a background recorder): pods' renderer form
   * (stream/view.ts) is then not made while decoding. True by default.
   */
  views?: boolean;
  /**
   * Where watches are read (watch-reader.ts): a reader's worker (the watcher's own by default),
   * or `false` to read them on the engine's thread.
   */
  reader?: WatchReader | false;
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
  /**
   * Reads a kind as the access plan says: cluster-wide (the default), in these namespaces only
   * (one list and watch each), or not at all (hidden: its objects are dropped and its health says
   * why). Remembered for kinds not started yet.
   */
  setScope(kind: KindKey, access: KindAccess): void;
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
  const reader = options.reader === undefined ? createWatchReader({ log }) : options.reader;
  // One server per watcher: once it refuses WatchList, no reflector of it asks again.
  const watchList = { mode: options.watchList ?? DEFAULT_WATCH_LIST_MODE, support: new WatchListSupport(), ...(options.watchListSilenceMs !== undefined ? { silenceMs: options.watchListSilenceMs } : {}) };
  /** The built-in kinds, by key: where each is served and its cluster-wide reflector (none while read per namespace or hidden). */
  const builtin = new Map<KindKey, { spec: KindSpec; reflector: Reflector | undefined }>();
  /** How the access plan says each kind is read; absent: cluster-wide. */
  const scopes = new Map<KindKey, KindAccess>();
  /** Each kind's scope changes, one after another. */
  const rescoping = new Map<KindKey, Promise<void>>();
  /** Kinds added by `addKind`, by key, with what they were started with. */
  const extra = new Map<KindKey, { spec: ExtraKind; reflector: Reflector | undefined }>();
  let transport: Transport | undefined;
  // The server's newest resourceVersion, asked of a busy watch's own endpoint (a list of one
  // object's metadata): dates what waits before the socket, so the lag shown includes it.
  const progress = new ServerProgress({
    clock,
    log,
    probe: async (path, signal) => {
      if (!transport) return undefined;
      const list = (await getJson(transport, `${path}?limit=1`, { signal, accept: acceptFor('metadata', 'list') })) as { metadata?: { resourceVersion?: unknown } };
      const version = list.metadata?.resourceVersion;
      return typeof version === 'string' ? version : undefined;
    },
  });
  let discovery: AbortController | undefined;
  let retryTimer: unknown;
  let started = false;
  let stopped = false;
  /** The built-in kinds' discovery answered: extra kinds start at once from then on. */
  let ready = false;

  // A cluster-wide reflector's 403 reaches the access checks too (RBAC may have changed under it).
  const clusterHealth: Pick<HealthBoard, 'set' | 'count' | 'setLag'> = {
    set: (kind, state, details) => {
      board.set(kind, state, details);
      if (state === 'forbidden') options.onForbidden?.(kind, null);
    },
    count: (kind, count) => board.count(kind, count),
    setLag: (kind, lag) => board.setLag(kind, lag),
  };

  const newReflector = (on: Transport, kind: KindKey, endpoints: readonly ResourceEndpoint[], metadataOnly: boolean, scoped?: { namespace: string; health: Pick<HealthBoard, 'set' | 'count' | 'setLag'> }): Reflector =>
    new Reflector({
      kind,
      endpoints,
      transport: on,
      cache: options.cache,
      health: scoped?.health ?? clusterHealth,
      clock,
      random,
      watchdogMs: options.watchdogMs ?? DEFAULT_WATCHDOG_MS,
      backoff: backoffOptions,
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      decoder,
      log,
      watchList,
      progress,
      ...(metadataOnly ? { metadataOnly } : {}),
      ...(options.views === false ? { noView: true } : {}),
      ...(scoped ? { namespace: scoped.namespace } : {}),
    });

  const namespaced = new NamespacedKinds({
    cache: options.cache,
    board,
    newReflector: (kind, spec, scoped) => newReflector(transport as Transport, kind, spec.endpoints, spec.metadataOnly, scoped),
    onForbidden: (kind, namespace) => options.onForbidden?.(kind, namespace),
  });

  /** Starts reading a kind as its scope says; returns its cluster-wide reflector, if that is how. */
  const follow = (on: Transport, kind: KindKey, spec: KindSpec): Reflector | undefined => {
    const scope = scopes.get(kind);
    if (scope?.scope === 'namespaces') {
      void namespaced.set(kind, spec, scope.namespaces);
      return undefined;
    }
    if (scope?.scope === 'hidden') {
      board.set(kind, 'forbidden', { count: options.cache.size(kind), message: scope.message });
      return undefined;
    }
    const reflector = newReflector(on, kind, spec.endpoints, spec.metadataOnly);
    reflector.start();
    return reflector;
  };

  const extraSpec = (spec: ExtraKind): KindSpec => ({ endpoints: [spec.endpoint], metadataOnly: spec.metadataOnly });

  const startExtra = (spec: ExtraKind): Reflector | undefined => {
    if (!transport || stopped) return undefined;
    board.add(spec.kind);
    return follow(transport, spec.kind, extraSpec(spec));
  };

  /** A started kind's spec and reflector holder; undefined before discovery started it. */
  const unitOf = (kind: KindKey): { spec: KindSpec; holder: { reflector: Reflector | undefined } } | undefined => {
    const own = builtin.get(kind);
    if (own) return { spec: own.spec, holder: own };
    const added = ready ? extra.get(kind) : undefined;
    return added ? { spec: extraSpec(added.spec), holder: added } : undefined;
  };

  /** Moves a started kind to its current scope: stops what no longer applies, starts what does. */
  const applyScope = async (kind: KindKey): Promise<void> => {
    const unit = unitOf(kind);
    if (!unit || stopped || !transport) return;
    const scope = scopes.get(kind);
    if (!scope || scope.scope === 'cluster') {
      // The cluster-wide list replaces the namespaces' objects, so they stay until it has.
      await namespaced.drop(kind, { keepObjects: true });
      if (!stopped && !unit.holder.reflector && unitOf(kind)?.holder === unit.holder) unit.holder.reflector = follow(transport, kind, unit.spec);
      return;
    }
    const wide = unit.holder.reflector;
    unit.holder.reflector = undefined;
    await wide?.stop();
    if (stopped) return;
    if (scope.scope === 'namespaces') {
      const keep = new Set(scope.namespaces);
      // The others' objects are not deleted: the user may no longer read them (ObjectCache.leave).
      if (wide) options.cache.leave(kind, (object) => keep.has(object.metadata.namespace ?? ''));
      await namespaced.set(kind, unit.spec, scope.namespaces);
      return;
    }
    await namespaced.drop(kind, { keepObjects: false });
    options.cache.leave(kind, () => false);
    if (!stopped && scopes.get(kind) === scope) board.set(kind, 'forbidden', { count: 0, message: scope.message });
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
        const spec: KindSpec = { endpoints: result.endpoints, metadataOnly: false };
        builtin.set(result.kind, { spec, reflector: follow(transport, result.kind, spec) });
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
      transport = createTransport(options.config, reader ? { reader } : {});
      // Up while discovery and the first lists run, instead of delaying the first watch.
      if (reader) reader.start();
      await discoverUntilDone();
    },

    async stop() {
      stopped = true;
      if (retryTimer !== undefined) clock.clearTimeout(retryTimer);
      retryTimer = undefined;
      discovery?.abort();
      progress.stop();
      const wide = [...builtin.values(), ...extra.values()].flatMap((e) => (e.reflector ? [e.reflector] : []));
      await Promise.all([...wide.map((r) => r.stop()), namespaced.stop()]);
      board.dispose();
      transport?.close();
      if (!options.decoder) decoder.close();
      if (options.reader === undefined && reader) reader.close();
    },

    restartAll(reason) {
      if (stopped) return;
      log(`restarting every watch: ${reason}`);
      for (const entry of [...builtin.values(), ...extra.values()]) entry.reflector?.restart(reason);
      namespaced.restartAll(reason);
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
      await Promise.all([entry.reflector?.stop(), namespaced.drop(kind, { keepObjects: true })]);
      board.remove(kind);
      // Only if no newer addKind for the same key started meanwhile.
      if (!extra.has(kind)) options.cache.replaceKind(kind, []);
    },

    setScope(kind, access) {
      if (stopped || sameAccess(scopes.get(kind), access)) return;
      scopes.set(kind, access);
      const run = (rescoping.get(kind) ?? Promise.resolve()).then(() => applyScope(kind));
      rescoping.set(kind, run);
    },
  };
}

/** Whether two scopes read the same (an absent scope is cluster-wide). */
function sameAccess(a: KindAccess | undefined, b: KindAccess): boolean {
  const left = a ?? { scope: 'cluster' as const };
  if (left.scope !== b.scope) return false;
  if (left.scope === 'namespaces' && b.scope === 'namespaces') return left.namespaces.join() === b.namespaces.join();
  if (left.scope === 'hidden' && b.scope === 'hidden') return left.message === b.message;
  return true;
}
