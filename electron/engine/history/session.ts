/**
 * Recording one context: its database, the recorder fed by the object cache, and the timers that
 * flush (one transaction every FLUSH_INTERVAL_MS), send heartbeats, take keyframes and prune.
 *
 * The cache's change listener only queues in memory; the disk is written from a timer, so a slow
 * or full disk can never hold up the live stream. A failed write pauses recording (a full disk)
 * or reports an error (anything else) on `history:status`, drops what it could not write and
 * retries every RETRY_MS; once a write succeeds again, the current state of every workload is
 * written afresh and a new keyframe is taken, so the history picks up where it can.
 *
 * `close()` is synchronous: whatever is queued, including a flush waiting on compression, is
 * written before the database closes, so a context switch loses nothing and the next session can
 * open the same file at once.
 */
import type { DatabaseSync } from 'node:sqlite';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { HistoryStatus } from '../../../shared/contracts/history.ts';
import type { ObjectCache } from '../stream/cache.ts';
import { isDiskFull } from './db.ts';
import { batchSize, type Batch } from './records.ts';
import { createRecorder, type Recorder, type RecorderOptions } from './recorder.ts';
import { loadRecorderHistory } from './session-load.ts';
import { encodeDeltas, encodeDeltasSync, writeKeyframe, type EncodedDeltas, type KeyframeJob } from './state-log.ts';
import type { HistoryWriter } from './writer.ts';
import { createWriter } from './writer.ts';

export const FLUSH_INTERVAL_MS = 500;
export const HEARTBEAT_CHECK_MS = 15_000;
export const RETRY_MS = 10_000;
/** A keyframe at least this often while objects change... */
export const KEYFRAME_INTERVAL_MS = 10 * 60_000;
/**
 * ...and after this many changes, or four times as many changes as there are objects if that
 * is more: rebuilding a past state then decompresses at most ~5x the cluster's objects (and
 * parses only the newest version of each), while a keyframe (one stringify and compression per
 * object) adds at most a quarter to what recording the changes costs.
 */
export const KEYFRAME_MIN_DELTAS = 20_000;
const KEYFRAME_DELTAS_PER_OBJECT = 4;
/**
 * The session's first keyframe waits for the informers' lists, and the state log starts with it
 * (see Recorder.startStateLog); if a kind is still listing after this long, it is taken anyway.
 */
export const FIRST_KEYFRAME_WAIT_MS = 60_000;
/**
 * Ownership rows written per flush once the first keyframe releases those held during the
 * first sync (see `holdOwnership`): 50,000 at once held the engine's thread ~150 ms.
 */
export const OWNERSHIP_ROWS_PER_FLUSH = 10_000;

export interface SessionTiming {
  flushIntervalMs?: number;
  heartbeatCheckMs?: number;
  heartbeatMs?: number;
  gapMs?: number;
  retryMs?: number;
  keyframeIntervalMs?: number;
  /** Overrides the adaptive threshold (KEYFRAME_MIN_DELTAS / four per object). */
  keyframeMaxDeltas?: number;
  /** Overrides FIRST_KEYFRAME_WAIT_MS. */
  firstKeyframeWaitMs?: number;
  keyframeChunkObjects?: number;
  /** Overrides OWNERSHIP_ROWS_PER_FLUSH. */
  ownershipRowsPerFlush?: number;
}

export interface RecordingOptions extends SessionTiming {
  db: DatabaseSync;
  cache: ObjectCache;
  now(): number;
  log(message: string): void;
  /** State changes and new counts, for `history:status`. */
  onStatus(change: Pick<HistoryStatus, 'state'> & { message?: string | undefined }): void;
  /** After every successful flush (the status counts moved). */
  onFlushed(samples: number): void;
  /** Where a custom kind's scale subresource reads replicas (RecorderOptions.scalePathsOf). */
  scalePathsOf?: RecorderOptions['scalePathsOf'];
  /** The user's status rules (RecorderOptions.userRules). */
  userRules?: RecorderOptions['userRules'];
}

export interface Recording {
  /** The cache now holds the whole cluster (informers listed every kind); again after each relist. */
  synced(): void;
  /** The connection to the cluster is lost, or answers again (Recorder.connection). */
  connection(lost: boolean): void;
  /** Writes what is queued now (tests; the timer does this every FLUSH_INTERVAL_MS). */
  flush(): Promise<void>;
  /** Queues heartbeats now (tests; the timer does this every HEARTBEAT_CHECK_MS). */
  heartbeat(): void;
  /** The writer's cached rows may be stale (retention deleted rows). */
  forgetCachedRows(): void;
  /** The drifting workloads' headline causes now (Recorder.noteCauses); written with the next batch. */
  noteCauses: Recorder['noteCauses'];
  close(): void;
}

/** Starts recording the cache's changes into `db` (which must hold the current schema). */
export function startRecording(options: RecordingOptions): Recording {
  const { db, cache, now, log } = options;
  const writer: HistoryWriter = createWriter(db);
  const recorder: Recorder = createRecorder({ now, history: loadRecorderHistory(db), ...pick(options, ['heartbeatMs', 'gapMs', 'scalePathsOf', 'userRules']) });
  let state: 'recording' | 'paused' | 'error' = 'recording';
  let closed = false;
  let synced = false;
  let resuming = false;
  /** The batch a flush took and has not written yet (compressing its changes). */
  let inFlight: { batch: Batch; keyframe: SlimObject[] | undefined; at: number } | undefined;
  let keyframeJob: KeyframeJob | undefined;
  let keyframeTaken = false;
  const startedAt = now();
  let lastKeyframeAt = startedAt;
  let deltasSinceKeyframe = 0;
  let needKeyframe = false;
  /**
   * Ownership rows held until the session's first keyframe. At a first sync they are one per
   * pod, inserted at random places of the owners table's key, and written every flush they
   * would cost the engine's thread a few hundred ms while it is the sync's bottleneck; held,
   * they go in from the keyframe's flush on, once every kind is listed, OWNERSHIP_ROWS_PER_FLUSH
   * at a time (in order, the rows that mark children gone after all the others).
   */
  let held: (Pick<Batch, 'owners' | 'gone'> & { released: boolean }) | undefined = { owners: [], gone: [], released: false };

  /** Moves the batch's ownership rows to `held`, and back what may be written now (`all` on close). */
  function holdOwnership(batch: Batch, release: boolean, all = false): void {
    if (!held) return;
    held.owners = held.owners.concat(batch.owners);
    held.gone = held.gone.concat(batch.gone);
    held.released ||= release;
    const take = !held.released ? 0 : all ? held.owners.length : (options.ownershipRowsPerFlush ?? OWNERSHIP_ROWS_PER_FLUSH);
    batch.owners = held.owners.slice(0, take);
    held.owners = held.owners.slice(take);
    if (!held.released || held.owners.length > 0) {
      batch.gone = [];
      return;
    }
    batch.gone = held.gone;
    held = undefined;
  }

  function fail(error: unknown): void {
    writer.reset();
    keyframeJob?.cancel();
    keyframeJob = undefined;
    keyframeTaken = false;
    resuming = false;
    const message = (error as Error).message ?? String(error);
    const full = isDiskFull(error);
    const next = full ? 'paused' : 'error';
    const text = full
      ? 'Recording is paused: the disk is full. The live view keeps working; recording resumes by itself once there is space.'
      : `Recording failed: ${message}. The live view keeps working; recording is retried.`;
    if (state === 'recording') log(`[kubedrift] history: ${text}`);
    state = next;
    options.onStatus({ state: next, message: text });
  }

  function wantKeyframe(at: number): boolean {
    if (keyframeJob) return false;
    // The session's first keyframe waits for the informers' lists (a half-filled cache would
    // only be replaced at once), though not for ever; later ones, by count or time, do not wait
    // for a kind that never finishes syncing.
    if (!keyframeTaken && at - startedAt >= (options.firstKeyframeWaitMs ?? FIRST_KEYFRAME_WAIT_MS)) return true;
    if (synced && (needKeyframe || !keyframeTaken)) return true;
    const maxDeltas = options.keyframeMaxDeltas ?? Math.max(KEYFRAME_MIN_DELTAS, KEYFRAME_DELTAS_PER_OBJECT * cache.size());
    return deltasSinceKeyframe >= maxDeltas || (deltasSinceKeyframe > 0 && at - lastKeyframeAt >= (options.keyframeIntervalMs ?? KEYFRAME_INTERVAL_MS));
  }

  function startKeyframe(id: number, objects: SlimObject[], at: number): void {
    const job = writeKeyframe(db, id, objects, options.keyframeChunkObjects);
    keyframeJob = job;
    keyframeTaken = true;
    needKeyframe = false;
    lastKeyframeAt = at;
    deltasSinceKeyframe = 0;
    job.done.then(
      () => {
        if (keyframeJob === job) keyframeJob = undefined;
      },
      (error: unknown) => {
        if (keyframeJob !== job || closed) return;
        keyframeJob = undefined;
        fail(error);
      },
    );
  }

  function write(batch: Batch, deltas: EncodedDeltas | null, keyframe: SlimObject[] | undefined, at: number): void {
    const result = writer.write(batch, deltas, keyframe ? { at, objects: keyframe.length } : undefined);
    deltasSinceKeyframe += batch.deltas.length;
    if (keyframe && result.keyframeId !== undefined) startKeyframe(result.keyframeId, keyframe, at);
    if (state !== 'recording') {
      state = 'recording';
      log('[kubedrift] history: recording resumed');
      options.onStatus({ state: 'recording' });
    }
    resuming = false;
    if (batchSize(batch) > 0) options.onFlushed(result.samples);
  }

  async function flush(): Promise<void> {
    if (closed || inFlight) return;
    if (recorder.takeLostDeltas()) needKeyframe = true;
    const batch = recorder.take();
    if (state !== 'recording' && !resuming) return;
    const at = now();
    const keyframe = wantKeyframe(at) ? cache.listExcept(BUILTIN_KEYS.Event) : undefined;
    holdOwnership(batch, keyframe !== undefined);
    // The state from here on is the keyframe's objects plus the changes queued after this line.
    if (keyframe) recorder.startStateLog();
    const flight = { batch, keyframe, at };
    inFlight = flight;
    try {
      const deltas = batch.deltas.length > 0 ? await encodeDeltas(batch.deltas) : null;
      if (inFlight !== flight) return;
      write(batch, deltas, keyframe, at);
    } catch (error) {
      if (!closed) fail(error);
    } finally {
      if (inFlight === flight) inFlight = undefined;
    }
  }

  const timers = [
    setInterval(() => void flush(), options.flushIntervalMs ?? FLUSH_INTERVAL_MS),
    setInterval(() => recorder.heartbeat(), options.heartbeatCheckMs ?? HEARTBEAT_CHECK_MS),
    setInterval(() => {
      if (state === 'recording' || resuming) return;
      recorder.resync();
      needKeyframe = true;
      resuming = true;
      void flush();
    }, options.retryMs ?? RETRY_MS),
  ];
  for (const timer of timers) timer.unref();

  const unsubscribe = cache.onChange((change) => recorder.onChange(change));
  // A list says what is not there: workloads out of view that it did not bring back were deleted.
  const unsubscribeListed = cache.onListed((kind, namespace) => recorder.listedIn(kind, namespace));
  // Objects already cached (recording switched on while connected) count as first seen now.
  const cached = cache.listWithKinds();
  cached.objects.forEach((object, i) => recorder.onChange({ type: 'upsert', kind: cached.kinds[i] as KindKey, object, previous: undefined }));

  return {
    synced() {
      if (!synced) recorder.synced();
      synced = true;
      // After a lost connection, the relist is done: observing resumes (Recorder.listed).
      recorder.listed();
    },
    connection: (lost) => {
      if (!closed) recorder.connection(lost);
    },
    flush,
    heartbeat: () => recorder.heartbeat(),
    forgetCachedRows: () => writer.reset(),
    noteCauses: (headlines, at) => {
      if (!closed) recorder.noteCauses(headlines, at);
    },
    close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      unsubscribeListed();
      for (const timer of timers) clearInterval(timer);
      keyframeJob?.cancel();
      const last = recorder.take();
      holdOwnership(last, true, true);
      const pending = [inFlight, { batch: last, keyframe: undefined, at: now() }];
      inFlight = undefined;
      if (state !== 'recording') return;
      try {
        for (const flight of pending) if (flight) writer.write(flight.batch, flight.batch.deltas.length > 0 ? encodeDeltasSync(flight.batch.deltas) : null, undefined);
      } catch (error) {
        log(`[kubedrift] history: the last changes could not be written: ${(error as Error).message}`);
      }
    },
  };
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
