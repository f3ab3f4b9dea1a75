/**
 * One context recorded in the background: its own object cache, a lean cluster watcher (only the
 * kinds history reads, RECORDED_KINDS) and its own history store. It runs beside the selected
 * context's LiveCluster and shares nothing with it.
 *
 * A failure to start (credentials that cannot be read, an exec plugin that fails, an unreachable
 * or refusing API server, a database that cannot be opened) is reported and retried with a
 * doubling delay (RETRY_INITIAL_MS .. RETRY_MAX_MS). Once running, the informers reconnect by
 * themselves; a kind they cannot read (401, 403) is reported as the last error while the others
 * keep recording.
 */
import { hostname } from 'node:os';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { KindHealth, KindKey } from '../../../shared/cluster.ts';
import type { BackgroundContextStatus } from '../../../shared/contracts/background.ts';
import type { HistoryStatus } from '../../../shared/contracts/history.ts';
import { probeServer } from '../cluster/probe.ts';
import { createListDecoder, type ListDecoder } from '../cluster/informers/list-decoder.ts';
import { createClusterWatcher, type ClusterWatcher, type ClusterWatcherOptions } from '../cluster/informers/watcher.ts';
import { connectionLost, type SessionEnd } from '../history/coverage.ts';
import { backfillStage } from '../history/backfill-run.ts';
import { CONTROLLER_REVISIONS } from '../history/backfill.ts';
import { historyFile, isDiskFull } from '../history/db.ts';
import type { RetentionLimits } from '../history/retention.ts';
import type { SessionTiming } from '../history/session.ts';
import { openHistoryStore } from '../history/open-store.ts';
import type { HistoryStore } from '../history/store.ts';
import { ObjectCache } from '../stream/cache.ts';
import { startCauseNoter, type CauseNoter } from './cause-noter.ts';

/**
 * What the recorder samples (workloads, HPAs), links (ReplicaSets, pods), explains (Events),
 * places (nodes) and dates past rollouts of StatefulSets and DaemonSets by (ControllerRevisions,
 * slimmed to their revision number).
 */
export const RECORDED_KINDS: readonly KindKey[] = [
  BUILTIN_KEYS.Deployment,
  BUILTIN_KEYS.StatefulSet,
  BUILTIN_KEYS.DaemonSet,
  BUILTIN_KEYS.ReplicaSet,
  BUILTIN_KEYS.Job,
  BUILTIN_KEYS.HorizontalPodAutoscaler,
  BUILTIN_KEYS.Pod,
  BUILTIN_KEYS.Event,
  BUILTIN_KEYS.Node,
  CONTROLLER_REVISIONS,
];

export const RETRY_INITIAL_MS = 5_000;
export const RETRY_MAX_MS = 5 * 60_000;
export const RETENTION_INTERVAL_MS = 10 * 60_000;

export interface ContextRecorderOptions {
  context: string;
  dataDir: string;
  /** The context's single-context kubeconfig; may throw (unreadable file, failing exec plugin). */
  clientConfig(): Promise<object | undefined>;
  now(): number;
  log(message: string): void;
  limits(): RetentionLimits;
  /** The history store setting: SQLite files, or a postgres:// database shared by recorders (open-store.ts). */
  store?(): string | undefined;
  onStatus(status: BackgroundContextStatus): void;
  timing?: SessionTiming;
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** Informer watchdog and backoff (tests shorten them). */
  informers?: Pick<ClusterWatcherOptions, 'watchdogMs' | 'backoff'>;
  /** Tests: how the API server is probed before the informers start. */
  probe?: typeof probeServer;
  /** Least time between two searches for the drifting workloads' causes (cause-noter.ts). */
  causesIntervalMs?: number;
  /** How a shared store's writer claim names this recorder to other recorders (default: backgroundWriterLabel). */
  writerLabel?: string;
  /** How long a shared store's writer may be silent before another recorder takes over, read when the store opens (default WRITER_TTL_MS). */
  writerTtlMs?(): number | undefined;
}

/** The app's background recorders, as a shared store tells other recorders of the same context who writes it. */
export const backgroundWriterLabel = (): string => `Kubedrift background recording on ${hostname()} (pid ${process.pid})`;

/**
 * The store's status as the recorder's `notice`: recording that goes on while the shared store
 * is not written (unreachable, or another recorder writes the context) is said as the app's
 * status bar says it for the selected context; a paused or failed store's message is a sentence.
 */
export function historyNotice(history: Pick<HistoryStatus, 'state' | 'message'>): string | undefined {
  if (!history.message) return undefined;
  return history.state === 'recording' ? `Recording on this computer only: ${history.message}` : history.message;
}

export interface ContextRecorder {
  status(): BackgroundContextStatus;
  /** Writes what is queued now (tests and the CLI; a timer does this every 500 ms). */
  flush(): Promise<void>;
  applyRetention(): void;
  /**
   * Closes the store at once (everything queued is written) and then stops the informers.
   * `reason` labels the unobserved time that follows (coverage.ts; default `app-closed`).
   */
  stop(reason?: SessionEnd): Promise<void>;
}

const unauthorized = (kind: KindHealth): boolean => kind.state === 'forbidden' || kind.state === 'unavailable' || (kind.state === 'reconnecting' && kind.message !== undefined);

/** Starts recording `context` in the background; the first attempt begins at once. */
export function startContextRecorder(options: ContextRecorderOptions): ContextRecorder {
  const { context, now, log } = options;
  const initialMs = options.retryInitialMs ?? RETRY_INITIAL_MS;
  const maxMs = options.retryMaxMs ?? RETRY_MAX_MS;
  let status: BackgroundContextStatus = { context, state: 'starting', recordingSince: null, lastError: null, retryAt: null };
  let delayMs = initialMs;
  let stopped = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  let retention: NodeJS.Timeout | undefined;
  let running: { cache: ObjectCache; watcher: ClusterWatcher; decoder: ListDecoder; store: HistoryStore; causes?: CauseNoter } | undefined;
  let lastHealthError: string | undefined;
  /** A store is open (from just before it opens until its recorder halts). */
  let storeOpen = false;
  /** The last probe failed: the next attempt starts its list worker only once a probe succeeds. */
  let probeFailed = false;

  function publish(change: Partial<BackgroundContextStatus>): void {
    const next = { ...status, ...change };
    if (next.notice === undefined) delete next.notice;
    status = next;
    options.onStatus(status);
  }

  /** The store reports on every write; only a change of its notice is published. */
  function onHistoryStatus(history: HistoryStatus): void {
    // What a store says as it closes (its recorder halted or stopped) is no longer news.
    if (!storeOpen) return;
    const notice = historyNotice(history);
    if (notice !== status.notice) publish({ notice });
  }

  function fail(message: string): void {
    log(`[kubedrift] background ${context}: ${message}; retrying in ${Math.round(delayMs / 1000)} s`);
    const at = now();
    publish({ state: 'retrying', recordingSince: null, lastError: { at, message }, retryAt: at + delayMs, notice: undefined });
    retry = setTimeout(() => void attemptStart(), delayMs);
    retry.unref();
    delayMs = Math.min(maxMs, delayMs * 2);
  }

  function onHealth(kinds: KindHealth[], store: HistoryStore): void {
    // Unreachable cluster: the time until it answers again is a `connection-lost` gap here too
    // (told first: the relist after it ends the gap at `synced`).
    store.connection(connectionLost(kinds));
    const stage = backfillStage(kinds);
    if (stage === 'objects') store.objectsListed();
    else if (stage === 'all') {
      const causes = () => startCauses(store);
      void Promise.resolve(store.synced()).then(causes, causes);
    }
    const failing = kinds.find(unauthorized);
    const message = failing ? `${failing.kind}: ${failing.message ?? failing.state}` : undefined;
    if (message && message !== lastHealthError) publish({ lastError: { at: now(), message } });
    if (!message && lastHealthError) delayMs = initialMs;
    lastHealthError = message;
  }

  /**
   * The cause finder starts once the first lists are done and their backfill written: indexing
   * 30,000 objects one change at a time while they list, and finding causes every second in a
   * half-listed cache, held the one thread the lists and the backfill need (issue #20). It reads
   * what is cached then at once, so nothing is missed; the first causes come that much later.
   */
  function startCauses(store: HistoryStore): void {
    const current = running;
    if (!current || current.store !== store || current.causes) return;
    current.causes = startCauseNoter({ context, cache: current.cache, now, note: (headlines, at) => store.noteCauses(headlines, at), ...(options.causesIntervalMs ? { intervalMs: options.causesIntervalMs } : {}) });
  }

  async function attemptStart(): Promise<void> {
    const mine = ++attempt;
    const current = () => !stopped && mine === attempt;
    publish({ state: 'starting', retryAt: null });
    let config: object | undefined;
    try {
      config = await options.clientConfig();
    } catch (error) {
      if (current()) fail(`credentials could not be read: ${(error as Error).message}`);
      return;
    }
    if (!current()) return;
    if (!config) return fail('the context has no usable cluster configuration');
    const informerLog = (message: string) => log(`[kubedrift] background ${context}: ${message}`);
    // The list worker starts now, beside the probe and the store's opening: it loads for ~140 ms
    // before it decodes a page, and the first pages came before it was ready (issue #20). Not
    // while the probe keeps failing (a server down, credentials refused): each retry would start
    // one (~140 ms of CPU) and end it.
    let decoder = probeFailed ? undefined : createListDecoder({ log: informerLog, eager: true });
    const outcome = await (options.probe ?? probeServer)(config);
    if (!current()) return decoder?.close();
    probeFailed = !outcome.ok;
    if (!outcome.ok) {
      decoder?.close();
      return fail(`${outcome.error.message}${outcome.error.detail ? ` (${outcome.error.detail})` : ''}`);
    }
    decoder ??= createListDecoder({ log: informerLog, eager: true });
    // Written by its informers only, with objects parsed from the API: pods share repeated values.
    const cache = new ObjectCache({ sharePods: true });
    let store: HistoryStore;
    storeOpen = true;
    try {
      store = openHistoryStore({ store: options.store?.(), file: historyFile(options.dataDir, context), context, cache, record: true, now, log, limits: options.limits, writerLabel: options.writerLabel ?? backgroundWriterLabel(), writerTtlMs: options.writerTtlMs?.(), onStatus: onHistoryStatus, ...(options.timing ? { timing: options.timing } : {}) });
    } catch (error) {
      storeOpen = false;
      decoder.close();
      return fail(`history cannot be opened (${isDiskFull(error) ? 'the disk is full' : (error as Error).message})`);
    }
    // Watches are read on this thread: a recorder builds no frames, so its thread pauses little,
    // and a watch reader's thread of its own per context cost three recorded demo contexts 11.9-12.2 %
    // of a core against 9.5-9.7 % (alternating, 2026-11-29; informers/watch-reader.ts).
    const watcher = createClusterWatcher({ config, cache, kinds: RECORDED_KINDS, log: informerLog, decoder, onHealth: (kinds) => onHealth(kinds, store), views: false, reader: false, ...options.informers });
    // Episodes here get their causes as the selected context's do (from the causes feature
    // there), from startCauses once the first lists are in.
    running = { cache, watcher, decoder, store };
    retention = setInterval(() => store.applyRetention(), RETENTION_INTERVAL_MS);
    retention.unref();
    delayMs = initialMs;
    publish({ state: 'recording', recordingSince: now(), retryAt: null });
    log(`[kubedrift] background ${context}: recording (${outcome.server}, Kubernetes ${outcome.version})`);
    try {
      await watcher.start();
    } catch (error) {
      if (!current()) return;
      await halt('connection-lost');
      fail(`the informers could not start: ${(error as Error).message}`);
    }
  }

  async function halt(reason: SessionEnd): Promise<void> {
    clearInterval(retention);
    const current = running;
    running = undefined;
    storeOpen = false;
    if (!current) return;
    if (status.notice !== undefined) publish({ notice: undefined });
    current.causes?.stop();
    try {
      current.store.close(reason);
    } catch (error) {
      log(`[kubedrift] background ${context}: closing history failed: ${(error as Error).message}`);
    }
    await current.watcher.stop();
    // The watcher leaves a decoder it was given to its owner.
    current.decoder.close();
    current.cache.clear();
  }

  void attemptStart();

  return {
    status: () => status,
    flush: () => running?.store.flush() ?? Promise.resolve(),
    applyRetention: () => running?.store.applyRetention(),
    async stop(reason: SessionEnd = 'app-closed') {
      stopped = true;
      clearTimeout(retry);
      await halt(reason);
    },
  };
}
