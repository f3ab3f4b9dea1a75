/**
 * The history feature: implements the `history:*` channels of shared/contracts/history.ts and
 * gives the other features the cluster at a past time (`context.provideObjectsAt`).
 *
 * One store per context (store.ts), opened on every context switch after the old one was closed
 * (which writes what it had queued). Recording follows the `historyRecording` setting; retention
 * follows `historyRetentionDays` / `historyMaxBytes` and runs at open and every
 * RETENTION_INTERVAL_MS. Status changes go out on `history:status` at once, moving counts at most
 * every STATUS_INTERVAL_MS. A database that cannot be opened (unwritable directory, full disk)
 * is reported and retried; the live view never depends on it.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { ClusterHealth, SlimObject } from '../../../shared/cluster.ts';
import type { DriftingCauses } from '../../../shared/contracts/causes.ts';
import type { HistoryStatus, historyRequests } from '../../../shared/contracts/history.ts';
import type { Settings } from '../../../shared/model.ts';
import { err, ok, type Err } from '../../../shared/result.ts';
import type { EngineContext, Feature, SelectedContext } from '../features.ts';
import { backfillStage } from './backfill-run.ts';
import { historyFile, isDiskFull } from './db.ts';
import { headlinesOf } from './episode-causes.ts';
import { DAY_MS, type RetentionLimits } from './retention.ts';
import { answerCompare, answerEpisode, answerEpisodes, answerSeries, answerStateAt, beforeHistory, type RecordedHistory } from './answers.ts';
import { connectionLost, type SessionEnd } from './coverage.ts';
import type { SessionTiming } from './session.ts';
import { namesSharedStore, openHistoryStore, writerTtlOf } from './open-store.ts';
import type { HistoryStore } from './store.ts';

export const DEFAULT_RETENTION_DAYS = 14;
export const DEFAULT_MAX_BYTES = 1024 ** 3;
export const RETENTION_INTERVAL_MS = 10 * 60_000;
export const STATUS_INTERVAL_MS = 2_000;
export const REOPEN_MS = 30_000;

export interface HistoryFeatureOptions {
  timing?: SessionTiming;
  retentionIntervalMs?: number;
  statusIntervalMs?: number;
  reopenMs?: number;
}

export function retentionLimits(settings: Settings): RetentionLimits {
  return { maxAgeMs: (settings.historyRetentionDays ?? DEFAULT_RETENTION_DAYS) * DAY_MS, maxBytes: settings.historyMaxBytes ?? DEFAULT_MAX_BYTES };
}

const iso = (at: number): string => new Date(at).toISOString();

/** Starts the backfill's parts as far as the selected context's informers have listed (backfillStage). */
function listed(health: ClusterHealth | undefined, context: string, store: HistoryStore): void {
  if (!health || health.context !== context) return;
  const stage = backfillStage(health.kinds);
  if (stage === 'objects') store.objectsListed();
  else if (stage === 'all') store.synced();
}

export function createHistoryFeature(context: EngineContext, options: HistoryFeatureOptions = {}): Feature<typeof historyRequests> {
  const { now, log } = context;
  let store: HistoryStore | undefined;
  let selected: SelectedContext | null = null;
  let status: HistoryStatus = { context: null, state: 'off', since: null, bytes: 0, samples: 0, episodes: 0 };
  /** Read at start(): the engine loads the settings file before it starts the features. */
  let recordingOn = true;
  /** The history store setting the open store was chosen by (open-store.ts). */
  let storeSetting: string | undefined;
  /** historyTakeoverSeconds the open shared store's writer claim uses. */
  let takeoverSetting: number | undefined;
  let reopen: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];
  const stops: Array<() => void> = [];

  function publish(next: HistoryStatus): void {
    status = next;
    context.hub.emit('history:status', status);
  }

  /** Closes the store; `reason` labels the unobserved time that follows (coverage.ts). */
  function close(reason: SessionEnd = 'app-closed'): void {
    clearTimeout(reopen);
    const old = store;
    store = undefined;
    try {
      old?.close(reason);
    } catch (error) {
      log(`[kubedrift] history: closing failed: ${(error as Error).message}`);
    }
  }

  function open(next: SelectedContext | null, reason: SessionEnd = 'context-switched'): void {
    close(reason);
    selected = next;
    if (!next) {
      publish({ context: null, state: 'off', since: null, bytes: 0, samples: 0, episodes: 0 });
      return;
    }
    if (next.readOnly) {
      // An opened snapshot: nothing happens in it to record; its timeline comes from the file.
      publish({ context: next.name, state: 'off', message: 'An offline snapshot: nothing is recorded; its timeline is the one in the file.', since: null, bytes: 0, samples: 0, episodes: 0 });
      return;
    }
    if (next.historyOnly) {
      // Not in any kubeconfig: this app cannot record it; its timeline is the history source's (history/sources/).
      publish({ context: next.name, state: 'off', message: `Recorded by history source ${next.historyOnly}: this app has no kubeconfig context for it, so it shows that history only.`, since: null, bytes: 0, samples: 0, episodes: 0 });
      return;
    }
    try {
      store = openHistoryStore({
        // The embedded SQLite files, or the PostgreSQL database recorders share (postgres/shared-store.ts).
        store: context.settings.get().historyStore,
        writerTtlMs: writerTtlOf(context.settings.get().historyTakeoverSeconds),
        file: historyFile(context.dataDir, next.name),
        context: next.name,
        cache: context.cache,
        record: recordingOn,
        now,
        log,
        limits: () => retentionLimits(context.settings.get()),
        onStatus: publish,
        // Custom resources' states read the user's rules as the Overview and Graph do.
        userRules: () => context.settings.get().statusRules ?? [],
        ...(options.timing ? { timing: options.timing } : {}),
      });
      listed(context.hub.last('cluster:health') as ClusterHealth | undefined, next.name, store);
      // The causes already pushed (recording switched on while drifting): open episodes take them now.
      const causes = context.hub.last('causes:changed') as DriftingCauses | undefined;
      if (causes?.context === next.name) store.noteCauses(headlinesOf(causes), causes.at);
    } catch (error) {
      const reason = isDiskFull(error) ? 'the disk is full' : (error as Error).message;
      const message = `History cannot be opened (${reason}); the live view keeps working and opening is retried.`;
      log(`[kubedrift] history: ${message}`);
      publish({ context: next.name, state: isDiskFull(error) ? 'paused' : 'error', message, since: null, bytes: 0, samples: 0, episodes: 0 });
      reopen = setTimeout(() => selected === next && open(next), options.reopenMs ?? REOPEN_MS);
      reopen.unref();
    }
  }

  function unavailable(): Err {
    if (!selected) return err('unavailable', 'No context is selected, so there is no history to show.');
    return err('unavailable', status.message ?? `The history of ${selected.name} is not available.`);
  }

  /** The selected context's recorded history as the answers read it (answers.ts): a future time is the live cache. */
  function recorded(current: HistoryStore): RecordedHistory {
    return {
      where: 'this context',
      since: current.since,
      series: current.series,
      episodes: current.episodes.episodes,
      episode: current.episodes.episode,
      compare: current.compare,
      objectsAt: (at) => (at >= now() ? Promise.resolve(context.cache.listExcept(BUILTIN_KEYS.Event)) : current.objectsAt(at)),
    };
  }

  async function objectsAt(at: number): Promise<SlimObject[]> {
    const current = store;
    if (!current) throw new Error(unavailable().error.message);
    const history = recorded(current);
    const early = beforeHistory(history, at);
    if (early) throw new Error(early.error.message);
    return history.objectsAt(at);
  }

  context.provideObjectsAt(async (at) => ({ objects: await objectsAt(at), at }));

  return {
    handlers: {
      'history:status': () => ok(status),
      'history:series': (request) => (store ? answerSeries(recorded(store), request) : unavailable()),
      'history:episodes': (request) => (store ? answerEpisodes(recorded(store), request) : unavailable()),
      'history:episode': ({ id }) => (store ? answerEpisode(recorded(store), id) : unavailable()),
      'history:state-at': async (request) => {
        if (!store) return unavailable();
        try {
          return await answerStateAt(recorded(store), request);
        } catch (error) {
          return err('internal', `The cluster at ${iso(request.at)} could not be rebuilt: ${(error as Error).message}`);
        }
      },
      'history:compare': (request) => (store ? answerCompare(recorded(store), request) : unavailable()),
    },
    start() {
      recordingOn = context.settings.get().historyRecording !== false;
      storeSetting = context.settings.get().historyStore;
      takeoverSetting = context.settings.get().historyTakeoverSeconds;
      stops.push(
        context.onContextChange((next) => open(next)),
        context.hub.listen((stream, payload) => {
          // The connection first: a relist that ends a lost connection's gap is seen by `listed` after it.
          if (stream === 'cluster:health' && store && selected && (payload as ClusterHealth).context === selected.name) store.connection(connectionLost((payload as ClusterHealth).kinds));
          if (stream === 'cluster:health' && store && selected) listed(payload as ClusterHealth, selected.name, store);
          // The causes feature's pushes: open episodes keep what explained them (episode-causes.ts).
          if (stream === 'causes:changed' && store && selected && (payload as DriftingCauses).context === selected.name) store.noteCauses(headlinesOf(payload as DriftingCauses), (payload as DriftingCauses).at);
          if (stream === 'settings:changed') {
            const settings = payload as Settings;
            if ((settings.historyRecording !== false) !== recordingOn) {
              recordingOn = settings.historyRecording !== false;
              storeSetting = settings.historyStore;
              open(selected, 'recording-off');
            } else if ((settings.historyStore ?? '') !== (storeSetting ?? '')) {
              // Another store: the same journal file, now copied to (or no longer copied to) the shared database.
              storeSetting = settings.historyStore;
              open(selected, 'recording-off');
            } else if (settings.historyTakeoverSeconds !== takeoverSetting) {
              // The writer claim's ttl is fixed while a shared store is open: reopen it with the new one.
              takeoverSetting = settings.historyTakeoverSeconds;
              if (namesSharedStore(storeSetting)) open(selected, 'recording-off');
            } else store?.applyRetention();
          }
        }),
      );
      timers.push(
        setInterval(() => store?.applyRetention(), options.retentionIntervalMs ?? RETENTION_INTERVAL_MS),
        setInterval(() => store?.tick(), options.statusIntervalMs ?? STATUS_INTERVAL_MS),
      );
      for (const timer of timers) timer.unref();
      open(context.selected());
    },
    dispose() {
      for (const stop of stops.splice(0)) stop();
      for (const timer of timers.splice(0)) clearInterval(timer);
      close();
    },
  };
}
