/**
 * One context's history store: the opened database with its queries, the recording (when on),
 * retention, and the numbers `history:status` shows. The feature (index.ts) holds one at a time
 * and swaps it on a context switch.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { HistoryStatus } from '../../../shared/contracts/history.ts';
import type { ObjectCache } from '../stream/cache.ts';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import { runBackfill, pruneInferred, sumBackfill, type BackfillResult } from './backfill-run.ts';
import { pruneSessions, startSession, type Session, type SessionEnd } from './coverage.ts';
import { bulkCheckpoints, openHistoryDb, type OpenedDb } from './db.ts';
import type { HeadlineCause } from './episode-causes.ts';
import { prune, readSince, writeSince, type RetentionLimits } from './retention.ts';
import { startRecording, type Recording, type RecordingOptions, type SessionTiming } from './session.ts';
import { createHistoryQueries, historyFileBytes } from './queries.ts';
import { dropIncompleteKeyframes } from './state-log.ts';

export interface StoreOptions {
  file: string;
  context: string;
  cache: ObjectCache;
  /** Record the cache's changes (false: only answer queries about what was recorded). */
  record: boolean;
  now(): number;
  log(message: string): void;
  limits(): RetentionLimits;
  /** Called with the new status whenever it changes. */
  onStatus(status: HistoryStatus): void;
  timing?: SessionTiming;
  /** Where a custom kind's scale subresource reads replicas, when its CRD says (see custom-sample.ts). */
  scalePathsOf?: RecordingOptions['scalePathsOf'];
  /** The user's status rules (Settings), for custom resources' states. */
  userRules?: RecordingOptions['userRules'];
}

export type HistoryStore = ReturnType<typeof openStore>;

/** Opens the store; throws when the database cannot be opened at all. */
export function openStore(options: StoreOptions) {
  const { now, log } = options;
  const opened: OpenedDb = openHistoryDb(options.file, now);
  const { db } = opened;
  if (opened.recovered) log(`[kubedrift] history: ${opened.recovered}`);
  dropIncompleteKeyframes(db);
  // A recording store opens on a connect: its first state and the backfill are a bulk load (db.ts).
  if (options.record) bulkCheckpoints(db, true);
  if (readSince(db) === null) writeSince(db, now());
  const countSamples = (): number => Number((db.prepare('SELECT coalesce(sum(count), 0) AS n FROM sample_blocks').get() as { n: number }).n);
  const countEpisodes = db.prepare('SELECT count(*) AS n FROM episodes');
  let samples = countSamples();
  let status: HistoryStatus = {
    context: options.context,
    state: options.record ? 'recording' : 'off',
    ...(opened.recovered ? { message: opened.recovered } : {}),
    since: readSince(db),
    bytes: historyFileBytes(options.file),
    samples,
    episodes: 0,
  };
  let closed = false;

  function refresh(change: Partial<HistoryStatus> = {}): void {
    const next: HistoryStatus = { ...status, ...change, since: readSince(db), bytes: historyFileBytes(options.file), samples, episodes: Number((countEpisodes.get() as { n: number }).n) };
    if (change.state && change.message === undefined) delete next.message;
    status = next;
    options.onStatus(status);
  }

  // Coverage: a recording store is a session of observing this context (coverage.ts).
  let session: Session | undefined = options.record ? startSession(db, now) : undefined;
  const queries = createHistoryQueries(db, { now, live: () => session !== undefined && !closed, ...(options.timing?.gapMs ? { gapMs: options.timing.gapMs } : {}), ...(options.timing?.heartbeatMs ? { heartbeatMs: options.timing.heartbeatMs } : {}) });
  const { gaps } = queries;
  let backfill: Promise<BackfillResult | undefined> | undefined;
  let objectsPart: Promise<BackfillResult> | undefined;
  let dirty = false;

  const recording: Recording | undefined = options.record
    ? startRecording({
        db,
        cache: options.cache,
        now,
        log,
        ...options.timing,
        ...(options.scalePathsOf ? { scalePathsOf: options.scalePathsOf } : {}),
        ...(options.userRules ? { userRules: options.userRules } : {}),
        onStatus: (change) => refresh(change),
        onFlushed: (written) => {
          samples += written;
          dirty = true;
        },
      })
    : undefined;

  function applyRetention(): void {
    try {
      pruneSessions(db, readSince(db) ?? now());
      pruneInferred(db, now() - options.limits().maxAgeMs);
      if (!prune(db, now(), options.limits())) return;
      recording?.forgetCachedRows();
      queries.clearState();
      samples = countSamples();
      refresh();
    } catch (error) {
      log(`[kubedrift] history: pruning failed: ${(error as Error).message}`);
    }
  }
  applyRetention();
  refresh();

  /** One part of the backfill over what is cached now: the Events, or every other kind. */
  function backfillPart(events: boolean): Promise<BackfillResult> {
    const { objects, kinds } = options.cache.listWithKinds();
    return runBackfill({ db, objects, kinds, now, keepAfter: now() - options.limits().maxAgeMs, cancelled: () => closed, include: (kind) => (kind === BUILTIN_KEYS.Event) === events });
  }

  function objectsListed(): void {
    if (!recording || objectsPart || closed) return;
    objectsPart = backfillPart(false);
  }

  return {
    db,
    file: options.file,
    /** One workload's series, with the range's unobserved gaps (its own out-of-view stretches too) and what backfill inferred. */
    series: queries.series,
    episodes: {
      /** The swimlane's episodes, with the range's gaps (single workloads' too) and the inferred rollouts and Events. */
      episodes: queries.episodes,
      episode: queries.episode,
    },
    gaps,
    compare: queries.compare,
    status: () => status,
    since: () => status.since,
    /** The objects (Events excepted) at `at`, sorted; the live cache for a future time. */
    async objectsAt(at: number): Promise<SlimObject[]> {
      return queries.objectsAt(at);
    },
    /**
     * Every kind but Events listed (Events, the most numerous kind, list last): the backfill's
     * first part starts on what is cached, while the Events still list (`backfillStage`).
     */
    objectsListed,
    /**
     * The informers listed every kind: the recorder closes what was left open, and, once per
     * store (a connect), backfill reads what the cluster still holds, in slices: the objects'
     * part (unless `objectsListed` began it), then the Events'.
     */
    synced(): Promise<BackfillResult | undefined> | undefined {
      recording?.synced();
      // A store closed meanwhile (a background recorder halting) starts nothing.
      if (!recording || backfill || closed) return backfill;
      objectsListed();
      const first = objectsPart as Promise<BackfillResult>;
      backfill = first
        .then(async (objectsResult) => {
          if (closed) return objectsResult;
          return sumBackfill(objectsResult, await backfillPart(true));
        })
        .finally(() => {
          // The bulk is written: checkpoints as usual again; the next commit folds the WAL into the file.
          if (!closed) bulkCheckpoints(db, false);
        })
        .then(
          (result) => {
            log(`[kubedrift] history: backfill read ${result.objects} objects into ${result.rows} inferred rows (${result.added} new) in ${result.ms} ms, slices of at most ${result.longestSliceMs} ms`);
            return result;
          },
          (error: unknown) => {
            if (!closed) log(`[kubedrift] history: backfill failed: ${(error as Error).message}`);
            return undefined;
          },
        );
      return backfill;
    },
    flush: () => recording?.flush() ?? Promise.resolve(),
    heartbeat: () => recording?.heartbeat(),
    /**
     * The connection to the cluster was lost (every kind reconnecting) or is back: observing ends
     * with `connection-lost` and a new session starts when it answers again (coverage.ts).
     */
    connection(lost: boolean): void {
      if (closed || !options.record) return;
      // Nothing is sampled from the loss on; a new episode after it begins once it is listed again (`synced`).
      recording?.connection(lost);
      try {
        if (lost && session) {
          session.end('connection-lost');
          session = undefined;
        } else if (!lost && !session) session = startSession(db, now);
      } catch (error) {
        log(`[kubedrift] history: coverage could not be written: ${(error as Error).message}`);
      }
    },
    /** The drifting workloads' headline causes (episode-causes.ts), kept by their open episodes. */
    noteCauses(headlines: ReadonlyMap<string, readonly HeadlineCause[]>, at: number): void {
      if (!closed) recording?.noteCauses(headlines, at);
    },
    applyRetention,
    /** Re-reads the counts for the status stream when anything was written since the last time. */
    tick(): void {
      if (closed) return;
      try {
        session?.mark();
      } catch {
        // A full disk: the recording reports it; coverage resumes with the next mark.
      }
      if (!dirty) return;
      dirty = false;
      refresh();
    },
    /** Closes the store; `reason` says why observing ends (the gap after it is labelled with it). */
    close(reason: SessionEnd = 'app-closed'): void {
      if (closed) return;
      closed = true;
      recording?.close();
      try {
        session?.end(reason);
      } catch (error) {
        log(`[kubedrift] history: the end of this session could not be written: ${(error as Error).message}`);
      }
      queries.clearState();
      db.close();
    },
  };
}
