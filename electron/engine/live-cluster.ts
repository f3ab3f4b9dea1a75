/**
 * The selected context's live objects: informers fill the object cache, the frame stream turns
 * cache changes into snapshot and delta frames, and per-kind health goes to the status bar.
 * One instance per engine; `switchTo` starts over with a new epoch so renderers drop stale data.
 */
import { randomUUID } from 'node:crypto';
import { WATCHED_KINDS, type ClusterHealth, type KindKey, type KindHealth, type SlimObject } from '../../shared/cluster.ts';
import { AccessibleNamespacesSchema } from '../../shared/access.ts';
import type { ClusterAccess } from '../../shared/contracts/access.ts';
import type { ClusterDiscovery, DiscoveryState, KindEntry } from '../../shared/discovery.ts';
import type { KindExclusion } from '../../shared/kind-exclusions.ts';
import { KindResolver } from '../../shared/builtin-kinds.ts';
import { apiVersionOf, collectionPath } from '../../shared/kinds.ts';
import { followAccess, type AccessFollower } from './cluster/access/follow.ts';
import type { KindChanges } from './cluster/discovery/catalog.ts';
import type { ResourceEndpoint } from './cluster/informers/discovery.ts';
import { watchCrds, type CrdWatch } from './cluster/discovery/crd-watch.ts';
import { DiscoveryRegistry } from './cluster/discovery/registry.ts';
import { createTransport, type Transport } from './cluster/informers/http.ts';
import { createClusterWatcher, type ClusterWatcher, type ClusterWatcherOptions } from './cluster/informers/watcher.ts';
import type { StreamHub } from './hub.ts';
import { createFrameStream, type FrameStream } from './stream/batcher.ts';
import { ObjectCache } from './stream/cache.ts';

const WATCHED_KEYS: ReadonlySet<string> = new Set(WATCHED_KINDS);

/** Where the informer of a discovered kind lists and watches: its preferred version, cluster-wide. */
export function endpointOf(entry: KindEntry): ResourceEndpoint {
  const { group, version, plural, kind, namespaced } = entry.ref;
  return { kind: entry.key, objectKind: kind, group, version, resource: plural, apiVersion: apiVersionOf(entry.ref), namespaced, path: collectionPath(entry.ref) };
}

/** Longest a discovered kind waits for the built-in kinds' first sync before it starts anyway. */
export const FIRST_SYNC_WAIT_MS = 20_000;

/** Whether the registry has an informer follow a kind (full objects or metadata). */
const followed = (entry: KindEntry): boolean => entry.mode === 'full' || entry.mode === 'metadata';

export interface LiveClusterOptions {
  hub: StreamHub;
  log: (message: string) => void;
  /** Unsent bytes of the slowest renderer (browser shell); paces snapshots. */
  backlog?: () => number;
  /** Informer timing (watchdog, backoff); the informers' defaults when absent. */
  informers?: InformerTiming;
}

/** The informer timings an engine may override (the fault tests shorten them). */
export type InformerTiming = Pick<ClusterWatcherOptions, 'watchdogMs' | 'backoff'>;

/** One cached object's identity and version: what the consistency checks compare. */
export interface CacheStamp {
  kind: KindKey;
  uid: string;
  resourceVersion: string;
}

export class LiveCluster {
  /** Written by informers only, with objects parsed from the API: pods share their repeated values. */
  readonly cache = new ObjectCache({ sharePods: true });
  private readonly options: LiveClusterOptions;
  private context: string | null = null;
  private epoch = randomUUID();
  private kinds: KindHealth[] = [];
  private kindResolver = new KindResolver();
  /** Starts of discovered kinds waiting for the built-in kinds' first sync; null once it is done. */
  private parked: Array<() => void> | null = [];
  private parkTimer: ReturnType<typeof setTimeout> | undefined;
  /** The selected context's exclusion rules; the registry's defaults until Settings says. */
  private exclusions: readonly KindExclusion[] | undefined;
  private watcher: ClusterWatcher | undefined;
  /**
   * The context's kind registry (discovery, refreshed every 10 minutes), on a transport of its
   * own. It reports what the cluster serves for the Cluster screen; the informers still watch
   * the built-in kinds (WATCHED_KINDS) and report their counts to it.
   */
  private discovery: { registry: DiscoveryRegistry; transport: Transport; crds: CrdWatch } | undefined;
  /** An opened snapshot's kinds (loadStatic), reported as its discovery. */
  private staticDiscovery: DiscoveryState | null = null;
  /** The context's access checks: they move kinds the user may not list cluster-wide to their namespaces. */
  private access: AccessFollower | undefined;
  /** Namespaces the user added by hand for the selected context (a source of namespaces when a cluster-wide list is forbidden). */
  private userNamespaces: readonly string[] = [];
  private stream: FrameStream;
  private backlog: (() => number) | undefined;
  /** The reset in progress, if any; the next one starts after it. */
  private resetting: Promise<void> = Promise.resolve();

  constructor(options: LiveClusterOptions) {
    this.options = options;
    this.backlog = options.backlog;
    this.stream = this.newStream();
  }

  private newStream(): FrameStream {
    return createFrameStream({
      cache: this.cache,
      epoch: this.epoch,
      context: this.context,
      emit: (frame) => this.options.hub.emit('cluster:frames', frame),
      backlog: () => this.backlog?.() ?? 0,
    });
  }

  /** Late-bound because the browser shell's server starts after the engine. */
  setBacklog(backlog: () => number): void {
    this.backlog = backlog;
  }

  health(): ClusterHealth {
    return { context: this.context, epoch: this.epoch, kinds: this.kinds };
  }

  private publishHealth(kinds: KindHealth[]): void {
    this.kinds = kinds;
    if (this.parked && kinds.some((k) => WATCHED_KEYS.has(k.kind)) && kinds.every((k) => !WATCHED_KEYS.has(k.kind) || k.state !== 'syncing')) this.startParked();
    this.options.hub.emit('cluster:health', this.health());
    const registry = this.discovery?.registry;
    if (registry) {
      for (const kind of kinds) registry.setCount(kind.kind, kind.count);
      this.publishDiscovery();
    }
  }

  /** Discovery's state for the Cluster screen (null before it ran; an opened snapshot's kinds from its file). */
  discoveryState(): ClusterDiscovery {
    const state = this.discovery?.registry.state() ?? this.staticDiscovery;
    if (!state) return { context: this.context, epoch: this.epoch, state };
    // A followed kind whose informer the server refuses (403) or cannot serve (500: a failing
    // conversion webhook) is shown so, with the server's words, on the Cluster screen too.
    const failing = new Map(this.kinds.filter((k) => (k.state === 'forbidden' || k.state === 'unavailable') && k.message !== undefined).map((k) => [k.kind, k]));
    if (failing.size === 0) return { context: this.context, epoch: this.epoch, state };
    const kinds = state.kinds.map((entry) => {
      const health = failing.get(entry.key);
      return health && followed(entry) ? { ...entry, mode: health.state as 'forbidden' | 'unavailable', message: health.message } : entry;
    });
    return { context: this.context, epoch: this.epoch, state: { ...state, kinds } };
  }

  /**
   * Names kinds by apiVersion and kind: the built-in ones, and every kind discovery found in the
   * current context (custom resources included). Graph, snapshots and history file objects by it.
   */
  get resolver(): KindResolver {
    return this.kindResolver;
  }

  /** The context's exclusion rules changed (Settings): informers of newly excluded kinds stop. */
  setExclusions(rules: readonly KindExclusion[]): void {
    this.exclusions = rules;
    this.discovery?.registry.setExclusions(rules);
  }

  /** Starts and stops informers of discovered kinds beyond the built-in ones as the registry says. */
  private followKinds(changes: KindChanges): void {
    const watcher = this.watcher;
    if (!watcher) return;
    for (const entry of changes.removed) if (!WATCHED_KEYS.has(entry.key)) void watcher.removeKind(entry.key);
    for (const entry of [...changes.added, ...changes.changed.map((c) => c.after)]) {
      if (WATCHED_KEYS.has(entry.key)) continue;
      // Only followed kinds: events.k8s.io Events (excluded as a duplicate view) must keep resolving to core Events.
      if (followed(entry)) this.kindResolver.add(entry.key, entry.ref);
      const spec = { kind: entry.key, endpoint: endpointOf(entry), metadataOnly: entry.mode === 'metadata' };
      if (followed(entry)) this.afterFirstSync(() => watcher.addKind(spec));
      else void watcher.removeKind(entry.key);
    }
  }

  /**
   * Runs `start` once the built-in kinds have listed (or FIRST_SYNC_WAIT_MS passed): hundreds of
   * custom kinds' lists and watches (Crossplane installs 300-900 CRDs) would otherwise compete
   * with the first sync of the pods the views wait for.
   */
  private afterFirstSync(start: () => void): void {
    if (this.parked) this.parked.push(start);
    else start();
  }

  /** A new watch: discovered kinds wait for its built-in kinds' first sync, at most FIRST_SYNC_WAIT_MS. */
  private park(): void {
    clearTimeout(this.parkTimer);
    this.parked = [];
    this.parkTimer = setTimeout(() => this.startParked(), FIRST_SYNC_WAIT_MS);
    this.parkTimer.unref?.();
  }

  private startParked(): void {
    clearTimeout(this.parkTimer);
    const parked = this.parked;
    this.parked = null;
    for (const start of parked ?? []) start();
  }

  private publishDiscovery(): void {
    this.options.hub.emit('cluster:discovery', this.discoveryState());
  }

  /** What the selected context's user may see (null summary before the first check, and for snapshots). */
  accessState(): ClusterAccess {
    return { context: this.context, epoch: this.epoch, summary: this.access?.summary() ?? null };
  }

  /**
   * The namespaces the user added by hand for the selected context (Settings; call before
   * `watch`, like `setExclusions`): checked again at once when watching. Throws on a bad list.
   */
  async setAccessibleNamespaces(names: readonly string[]): Promise<ClusterAccess> {
    const parsed = AccessibleNamespacesSchema.safeParse(names);
    if (!parsed.success) throw new Error(`Accessible namespaces: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    this.userNamespaces = parsed.data;
    await this.access?.setUserNamespaces(parsed.data);
    return this.accessState();
  }

  /** Checks access again now ("Check again"); resolves with the outcome. */
  async recheckAccess(): Promise<ClusterAccess> {
    await this.access?.recheck('asked by the user');
    return this.accessState();
  }

  private publishAccess(): void {
    this.options.hub.emit('cluster:access', this.accessState());
  }

  private async stopDiscovery(): Promise<void> {
    this.access?.stop();
    this.access = undefined;
    const current = this.discovery;
    this.discovery = undefined;
    if (!current) return;
    current.registry.stop();
    await current.crds.stop();
    current.transport.close();
  }

  /**
   * Forgets the previous context's objects and informers; the renderers get a new epoch and an
   * empty snapshot at once, before the new context has connected. Resets run one after another:
   * a reset waits for the old informers to stop, so two overlapping switches would otherwise
   * finish in either order and leave the stream labelled with (and the cache cleared for) the
   * context the user switched away from.
   */
  reset(context: string | null): Promise<void> {
    const next = this.resetting.then(() => this.resetNow(context));
    this.resetting = next.catch(() => undefined);
    return next;
  }

  private async resetNow(context: string | null): Promise<void> {
    const previous = this.watcher;
    this.watcher = undefined;
    this.park();
    await this.stopDiscovery();
    await previous?.stop();
    this.stream.dispose();
    this.cache.clear();
    this.context = context;
    this.kindResolver = new KindResolver();
    this.staticDiscovery = null;
    this.epoch = randomUUID();
    this.stream = this.newStream();
    this.publishHealth([]);
    this.publishDiscovery();
    this.publishAccess();
    this.stream.resync('context switch');
  }

  /** Starts informers for the (already reset) context with its client configuration. */
  async watch(config: object): Promise<void> {
    const epoch = this.epoch;
    this.park();
    const watcher = createClusterWatcher({
      config,
      cache: this.cache,
      onHealth: (kinds) => {
        if (this.epoch === epoch) this.publishHealth(kinds);
      },
      log: this.options.log,
      onForbidden: (kind, namespace) => this.access?.onForbidden(kind, namespace),
      ...this.options.informers,
    });
    this.watcher = watcher;
    const transport = createTransport(config);
    const registry = new DiscoveryRegistry({ transport, log: this.options.log, ...(this.exclusions ? { exclusions: this.exclusions } : {}) });
    registry.onChange((changes) => {
      if (this.epoch === epoch) this.followKinds(changes);
    });
    // CRDs added, changed or removed refresh discovery (debounced), so a new CRD shows at once.
    const crds = watchCrds({ transport, onEvent: (event) => registry.onCrdEvent(event), log: this.options.log });
    this.discovery = { registry, transport, crds };
    registry.onState(() => {
      if (this.epoch === epoch) this.publishDiscovery();
    });
    // Discovery runs beside the informers; it never holds up their start.
    void registry.start();
    this.access = followAccess({
      config,
      registry,
      watcher,
      cache: this.cache,
      userNamespaces: this.userNamespaces,
      log: this.options.log,
      onSummary: () => {
        if (this.epoch === epoch) this.publishAccess();
      },
    });
    await watcher.start();
  }

  /**
   * Fills the (already reset) cache from a snapshot file instead of informers: the objects reach
   * the renderers as deltas, and every kind reads live with what the file holds, as of `since`.
   * `kinds` (from the file's kind table) names the kinds beyond the built-in ones, custom
   * resources, and is what discovery reports for the snapshot.
   */
  loadStatic(objects: readonly SlimObject[], since: number, kinds: readonly KindEntry[] = []): void {
    for (const { key, ref } of kinds) this.kindResolver.add(key, ref);
    // A snapshot file names each object by its own apiVersion and kind; its kind key is found
    // from them (group + kind), once per apiVersion. A kind no longer known is left out.
    const left: string[] = [];
    for (const object of objects) {
      const kind = this.kindResolver.keyOf(object.apiVersion, object.kind);
      if (kind) this.cache.upsert(kind, object);
      else left.push(`${object.apiVersion} ${object.kind}`);
    }
    if (left.length > 0) this.options.log(`snapshot: left out ${left.length} objects of kinds this build does not show (${[...new Set(left)].join(', ')})`);
    const message = 'from a snapshot file (offline, read-only)';
    const keys = new Set<KindKey>([...WATCHED_KINDS, ...this.cache.kinds()]);
    this.staticDiscovery = { kinds: kinds.map((entry) => ({ ...entry, count: this.cache.size(entry.key) })), unavailable: [], progress: null, refreshedAt: since };
    this.publishHealth([...keys].map((kind) => ({ kind, state: 'live', count: this.cache.size(kind), since, message })));
    this.publishDiscovery();
  }

  /** Every cached object's stamp (diagnostics and tests; never object contents). */
  stamps(): CacheStamp[] {
    const { objects, kinds } = this.cache.listWithKinds();
    return objects.map((object, i) => ({ kind: kinds[i] as KindKey, uid: object.metadata.uid, resourceVersion: object.metadata.resourceVersion }));
  }

  resync(reason: string | undefined): { epoch: string; seq: number } {
    return this.stream.resync(reason);
  }

  /** Restarts every watch at once (system resume). */
  restartAll(reason: string): void {
    this.watcher?.restartAll(reason);
  }

  async stop(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    clearTimeout(this.parkTimer);
    this.parked = null;
    await this.stopDiscovery();
    await watcher?.stop();
    this.stream.dispose();
  }
}
