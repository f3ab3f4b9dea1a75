/**
 * The engine's registry of kinds: what the cluster serves, and how each kind is watched. It runs
 * discovery on demand, every 10 minutes, and half a second after the CRD watch reports a change
 * (a burst of CRD events, such as an operator's install, makes one discovery), and tells its
 * listeners which kinds were added, removed or changed so informers can be started or stopped.
 *
 * A failed discovery keeps the kinds found before and retries with backoff; the failure is in
 * `state().error`. Only one discovery runs at a time; a refresh asked for meanwhile runs after it.
 */
import type { DiscoveryProgress, DiscoveryState, KindEntry } from '../../../../shared/discovery.ts';
import { DEFAULT_KIND_EXCLUSIONS, type KindExclusion } from '../../../../shared/kind-exclusions.ts';
import { ApiStatusError, type Transport } from '../informers/http.ts';
import { Backoff, DEFAULT_BACKOFF, systemClock, type BackoffOptions, type Clock } from '../informers/timing.ts';
import { carryOverUnavailable, KindCatalog, noChanges, type KindChanges } from './catalog.ts';
import { readDiscovery } from './client.ts';
import { CrdIndex, type CrdEvent, type UnservedCrd } from './crd-info.ts';
import type { ModeInputs } from './modes.ts';
import { resolveKinds, type ResolvedDiscovery } from './resolve.ts';

/** How often discovery runs without a reason: catches aggregated APIs coming and going. */
export const DISCOVERY_REFRESH_INTERVAL_MS = 10 * 60_000;
/** Quiet time after the last CRD event before discovery runs (Freelens uses 400 ms). */
export const CRD_DEBOUNCE_MS = 500;
/** Longest a stream of CRD events may put discovery off: a new CRD shows within two seconds. */
export const CRD_DEBOUNCE_MAX_MS = 1_500;

/** Options of a DiscoveryRegistry. */
export interface DiscoveryRegistryOptions {
  transport: Transport;
  /** The context's exclusion rules; DEFAULT_KIND_EXCLUSIONS when absent. */
  exclusions?: readonly KindExclusion[];
  clock?: Clock;
  random?: () => number;
  refreshIntervalMs?: number;
  crdDebounceMs?: number;
  crdDebounceMaxMs?: number;
  /** Retry delays after a failed discovery. */
  backoff?: BackoffOptions;
  /** Group-version requests in flight at most (legacy discovery). */
  concurrency?: number;
  log?: (message: string) => void;
}

/** Why discovery failed as a whole, in one sentence naming the server. */
function describeDiscoveryFailure(error: unknown, server: string): string {
  if (error instanceof ApiStatusError) return `${server} answered ${error.status}${error.reason ? ` ${error.reason}` : ''} to discovery: ${error.message}`;
  const text = error instanceof Error ? error.message : String(error);
  return `Cannot read discovery from ${server}: ${text}`;
}

/** Adds CRDs the server does not serve (not established) as unavailable kinds, with the reason. */
function withUnservedCrds(resolved: ResolvedDiscovery, unserved: readonly UnservedCrd[]): ResolvedDiscovery {
  const served = new Set(resolved.kinds.map((k) => k.key));
  const extra = unserved
    .filter((crd) => !served.has(crd.key))
    .map((crd) => ({
      key: crd.key,
      ref: crd.ref,
      versions: [crd.ref.version],
      verbs: [],
      listable: false,
      watchable: false,
      subresources: { status: false, scale: false },
      shortNames: [],
      categories: [],
      unavailable: crd.message,
    }));
  if (extra.length === 0) return resolved;
  return { ...resolved, kinds: [...resolved.kinds, ...extra].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
}

export class DiscoveryRegistry {
  private readonly options: DiscoveryRegistryOptions;
  private readonly clock: Clock;
  private readonly backoff: Backoff;
  private readonly catalog = new KindCatalog();
  private readonly crds = new CrdIndex();
  private readonly forbidden = new Map<string, string>();
  private readonly changeListeners = new Set<(changes: KindChanges) => void>();
  private readonly stateListeners = new Set<(state: DiscoveryState) => void>();
  private exclusions: readonly KindExclusion[];
  private progress: DiscoveryProgress | null = null;
  private refreshedAt: number | null = null;
  private error: string | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private periodicTimer: unknown;
  private debounceTimer: unknown;
  private debounceFirstAt: number | undefined;
  private started = false;
  private stopped = false;

  constructor(options: DiscoveryRegistryOptions) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.backoff = new Backoff(options.backoff ?? DEFAULT_BACKOFF, options.random ?? Math.random);
    this.exclusions = options.exclusions ?? DEFAULT_KIND_EXCLUSIONS;
  }

  /** Runs the first discovery and keeps the registry fresh from then on; resolves after the first. */
  start(): Promise<void> {
    if (this.started) return this.running ?? Promise.resolve();
    this.started = true;
    return this.refresh('start');
  }

  /**
   * Runs discovery now, or right after the one under way; resolves when a discovery that began
   * after this call has finished (failed ones too: see `state().error`).
   */
  refresh(reason: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.options.log?.(`discovery: refresh (${reason})`);
    if (!this.running) {
      this.running = this.runOnce().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.refresh(reason);
    });
    return this.queued;
  }

  /** The CRD watch's hook: records the CRD's schema facts and schedules a debounced refresh. */
  onCrdEvent(event: CrdEvent): void {
    if (this.stopped || !this.crds.apply(event)) return;
    const now = this.clock.now();
    this.debounceFirstAt ??= now;
    if (this.debounceTimer !== undefined) this.clock.clearTimeout(this.debounceTimer);
    const quietMs = this.options.crdDebounceMs ?? CRD_DEBOUNCE_MS;
    const latest = this.debounceFirstAt + (this.options.crdDebounceMaxMs ?? CRD_DEBOUNCE_MAX_MS);
    this.debounceTimer = this.clock.setTimeout(
      () => {
        this.debounceTimer = undefined;
        this.debounceFirstAt = undefined;
        void this.refresh('a CustomResourceDefinition changed');
      },
      Math.max(0, Math.min(quietMs, latest - now)),
    );
  }

  /** The CRD watch relisted from scratch: forget what it reported before. */
  resetCrds(): void {
    this.crds.clear();
  }

  /** Replaces the context's exclusion rules (Settings changed); informers follow the changes. */
  setExclusions(rules: readonly KindExclusion[]): void {
    this.exclusions = rules;
    this.rebuild();
  }

  /** Marks a kind forbidden with the access check's message, or clears it with undefined. */
  setForbidden(key: string, message: string | undefined): void {
    if (message === undefined) this.forbidden.delete(key);
    else this.forbidden.set(key, message);
    this.rebuild();
  }

  /** An informer's object count, for the Cluster screen; not a change event. */
  setCount(key: string, count: number): void {
    this.catalog.setCount(key, count);
  }

  /** Listens for kinds added, removed or changed; returns the unsubscribe function. */
  onChange(listener: (changes: KindChanges) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Listens for state changes (progress, a finished or failed discovery, changed kinds). */
  onState(listener: (state: DiscoveryState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  get(key: string): KindEntry | undefined {
    return this.catalog.get(key);
  }

  kinds(): KindEntry[] {
    return this.catalog.list();
  }

  state(): DiscoveryState {
    return {
      kinds: this.catalog.list(),
      unavailable: this.catalog.unavailable(),
      progress: this.progress,
      refreshedAt: this.refreshedAt,
      ...(this.error !== undefined ? { error: this.error } : {}),
    };
  }

  /** Aborts a running discovery and clears every timer; listeners hear nothing more. */
  stop(): void {
    this.stopped = true;
    this.abort?.abort(new Error('discovery stopped'));
    for (const timer of [this.periodicTimer, this.debounceTimer]) if (timer !== undefined) this.clock.clearTimeout(timer);
    this.periodicTimer = undefined;
    this.debounceTimer = undefined;
    this.changeListeners.clear();
    this.stateListeners.clear();
  }

  private inputs(): ModeInputs {
    return {
      exclusions: this.exclusions,
      forbidden: this.forbidden,
      isCrd: (key) => this.crds.has(key),
      crdHasStatus: (key, version) => this.crds.hasStatus(key, version),
    };
  }

  private rebuild(): void {
    if (this.stopped) return;
    const changes = this.catalog.rebuild(this.inputs());
    if (!noChanges(changes)) for (const listener of this.changeListeners) listener(changes);
    this.emitState();
  }

  private emitState(): void {
    if (this.stateListeners.size === 0) return;
    const state = this.state();
    for (const listener of this.stateListeners) listener(state);
  }

  private schedule(ms: number): void {
    if (this.periodicTimer !== undefined) this.clock.clearTimeout(this.periodicTimer);
    this.periodicTimer = this.clock.setTimeout(() => {
      this.periodicTimer = undefined;
      void this.refresh('periodic');
    }, ms);
  }

  private async runOnce(): Promise<void> {
    const { transport } = this.options;
    const abort = new AbortController();
    this.abort = abort;
    try {
      const result = await readDiscovery(transport, {
        signal: abort.signal,
        ...(this.options.concurrency !== undefined ? { concurrency: this.options.concurrency } : {}),
        onProgress: (progress) => {
          if (this.stopped) return;
          this.progress = progress;
          this.emitState();
        },
      });
      if (this.stopped) return;
      this.catalog.setDiscovery(withUnservedCrds(carryOverUnavailable(this.catalog.servedKinds(), resolveKinds(result.groups)), this.crds.unserved()));
      this.error = undefined;
      this.refreshedAt = this.clock.now();
      this.progress = null;
      this.backoff.reset();
      this.schedule(this.options.refreshIntervalMs ?? DISCOVERY_REFRESH_INTERVAL_MS);
      this.rebuild();
    } catch (error) {
      if (this.stopped) return;
      if (error instanceof ApiStatusError && error.status === 401) transport.renewCredentials();
      this.error = describeDiscoveryFailure(error, transport.server);
      this.options.log?.(this.error);
      this.progress = null;
      this.schedule(Math.min(this.backoff.next(), this.options.refreshIntervalMs ?? DISCOVERY_REFRESH_INTERVAL_MS));
      this.emitState();
    } finally {
      if (this.abort === abort) this.abort = undefined;
    }
  }
}
