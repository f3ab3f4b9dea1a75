/**
 * The delta stream: turns cache changes into `cluster:frames` frames for the renderer.
 *
 * ## Protocol
 * - Every frame carries the stream's `epoch`. A new epoch (context switch) means a new stream;
 *   the renderer drops what it holds and asks for a snapshot.
 * - `seq` numbers the stream's state changes: each delta frame, and each snapshot as a whole,
 *   takes the next number (1, 2, 3, ...), so consecutive frames that change state differ by one.
 * - A snapshot is `snapshot-begin {seq: S, total}`, then `snapshot-chunk {seq: S, objects, sent,
 *   total}` frames in order, where `sent` counts the objects sent so far including this chunk and
 *   the last chunk has `sent === total` (none when total is 0), then `snapshot-end {seq: S}`.
 *   A snapshot's frames are contiguous: no delta frame comes between its begin and its end. A new
 *   begin abandons a snapshot still in progress.
 * - The snapshot's objects are exactly the cache at the moment `resync()` is called: changes
 *   still pending then are already in the cache, so they are folded in and never sent as
 *   deltas. Later changes follow as deltas S+1, S+2, ... after snapshot-end. Because folding
 *   changes state, the snapshot takes a seq of its own: a renderer that missed a whole snapshot
 *   sees a gap at delta S+1 instead of silently missing the folded changes.
 * - A delta frame never names a uid twice. Applying it: each upsert replaces the object with its
 *   uid, each delete removes its uid.
 *
 * Guarantee: a renderer that applies a snapshot (replacing everything it held) and then every
 * delta S+1, S+2, ... in order holds exactly the cache, minus the changes still pending here
 * (which the next flush carries). Once the stream is idle it holds exactly the cache.
 *
 * ## Flow control
 * Changes are coalesced per uid (see `PendingChanges`) and flushed at most once per window, a
 * window that adapts to load (see `AdaptiveInterval`). The window is counted from the previous
 * flush, not from the first change waiting: a change that comes after a quiet window goes out on
 * the next turn of the event loop (with whatever else that turn changed), and under a steady
 * stream frames still go out one window apart. Counted from the first change, every change of a
 * stream waited up to a whole window (50 ms at the base) on top of everything else between the
 * cluster's write and the renderer's store, however idle the stream had been. A flush or a snapshot is emitted in slices of at most
 * `sliceBytes` per event-loop turn, so a 50,000-object snapshot never blocks the engine. When a
 * `backlog` probe is given (the WebSocket transport's unsent bytes, `WebServer.framesBacklog`),
 * emission also waits while the slowest consumer holds more than `backlogPauseBytes`; changes
 * keep coalescing meanwhile, so nothing grows but the per-uid map. A consumer that does not
 * drain within `maxFlushIntervalMs` is no longer waited for: emission goes on and the
 * transport's own bound cuts that consumer off (see electron/web/frames-flow.ts). Electron IPC
 * has no backlog signal; there the adaptive window and the slicing are the defence.
 */
import { MAX_FRAME_BYTES, type ClusterFrame, type KindKey, type SlimObject } from '../../../shared/cluster.ts';
import type { ObjectCache } from './cache.ts';
import { FRAME_ENVELOPE_BYTES, jsonBytes, packChunk, packDelta } from './frames.ts';
import { AdaptiveInterval, FLUSH_INTERVAL_MS, MAX_FLUSH_INTERVAL_MS } from './interval.ts';
import { PendingChanges } from './pending.ts';

/** Default slice: the most frame bytes emitted in one event-loop turn. */
export const SLICE_BYTES = 2 * 1024 * 1024;
/** Default backlog above which emission waits for the consumer. */
export const BACKLOG_PAUSE_BYTES = 1024 * 1024;
/** How soon a waiting stream looks at the backlog again. */
export const BACKLOG_RETRY_MS = 5;

export interface StreamClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: StreamClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface FrameStreamOptions {
  cache: ObjectCache;
  emit: (frame: ClusterFrame) => void;
  epoch: string;
  context: string | null;
  /** Base flush window (default FLUSH_INTERVAL_MS). */
  flushIntervalMs?: number;
  /** Widest flush window, and the longest wait for a backlogged consumer (default MAX_FLUSH_INTERVAL_MS). */
  maxFlushIntervalMs?: number;
  /** Frame size limit including FRAME_ENVELOPE_BYTES for the transport (default MAX_FRAME_BYTES). */
  maxFrameBytes?: number;
  /** Bytes the transports still hold for their slowest consumer that still gets frames. */
  backlog?: () => number;
  backlogPauseBytes?: number;
  sliceBytes?: number;
  clock?: StreamClock;
}

export interface FrameStreamStats {
  epoch: string;
  /** Seq of the last delta frame or snapshot. */
  seq: number;
  /** Uids waiting for the next flush. */
  pending: number;
  flushIntervalMs: number;
  flushes: number;
  deltaFrames: number;
  snapshots: number;
  snapshotFrames: number;
  snapshotInProgress: boolean;
  lastResyncReason: string | null;
  /** JSON bytes of every frame emitted. */
  bytes: number;
  largestFrameBytes: number;
  /** Frames over the limit because one object alone was larger. */
  oversizeFrames: number;
  /** Times emission waited for a backlogged consumer. */
  backlogWaits: number;
}

export interface FrameStream {
  /** Starts a snapshot of the whole cache (see the protocol above); returns its epoch and seq S. Deltas continue at S+1. */
  resync(reason?: string): { epoch: string; seq: number };
  stats(): FrameStreamStats;
  /** Stops listening to the cache and emits nothing more. */
  dispose(): void;
}

/**
 * Starts streaming the cache's changes as frames (none until the first change or `resync`).
 * One stream per epoch: on a context switch, dispose it and create another with a new epoch,
 * then `resync()` it, since `ObjectCache.clear()` tells no listener.
 */
export function createFrameStream(options: FrameStreamOptions): FrameStream {
  const { cache, epoch, context } = options;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const budget = (options.maxFrameBytes ?? MAX_FRAME_BYTES) - FRAME_ENVELOPE_BYTES;
  const maxWaitMs = options.maxFlushIntervalMs ?? MAX_FLUSH_INTERVAL_MS;
  const backlog = options.backlog ?? (() => 0);
  const pauseBytes = options.backlogPauseBytes ?? BACKLOG_PAUSE_BYTES;
  const sliceBytes = options.sliceBytes ?? SLICE_BYTES;
  const interval = new AdaptiveInterval({ baseMs: options.flushIntervalMs ?? FLUSH_INTERVAL_MS, maxMs: maxWaitMs });
  const pending = new PendingChanges();
  const stats = { flushes: 0, deltaFrames: 0, snapshots: 0, snapshotFrames: 0, bytes: 0, largestFrameBytes: 0, oversizeFrames: 0, backlogWaits: 0 };
  let lastResyncReason: string | null = null;
  let seq = 0;
  let snapshot: { objects: SlimObject[]; kinds: KindKey[]; next: number; seq: number } | null = null;
  /** The flush under way: its bytes so far, whether it waited for the consumer, since when its oldest change waited. */
  let flushing: { bytes: number; pressured: boolean; since: number } | null = null;
  let timer: { handle: unknown } | null = null;
  let firstPendingAt: number | null = null;
  /** When the last flush ended; none yet: the first change may go out at once. */
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  let stalledSince: number | null = null;
  let forced = false;
  let disposed = false;
  /** True while `pump` runs: a resync from inside `emit` leaves the snapshot to the running loop. */
  let pumping = false;

  const unsubscribe = cache.onChange((change) => {
    pending.record(change);
    if (pending.size === 0) {
      firstPendingAt = null;
      return;
    }
    if (firstPendingAt === null) {
      firstPendingAt = clock.now();
      interval.afterIdle(firstPendingAt - lastFlushAt);
    }
    armFlush();
  });

  function send(frame: ClusterFrame, bytes: number, oversize = false): number {
    stats.bytes += bytes;
    stats.largestFrameBytes = Math.max(stats.largestFrameBytes, bytes);
    if (oversize) stats.oversizeFrames += 1;
    options.emit(frame);
    return bytes;
  }

  function setTimer(ms: number, flush: boolean): void {
    if (timer) clock.clearTimeout(timer.handle);
    const handle = clock.setTimeout(() => {
      timer = null;
      if (flush) {
        if (pending.size === 0) return;
        flushing = { bytes: 0, pressured: false, since: firstPendingAt ?? clock.now() };
      }
      pump();
    }, ms);
    timer = { handle };
  }

  /**
   * Schedules a flush one window after the previous flush (on the next turn if that is past),
   * unless emission is under way. Never sooner than the next turn: the writes of the current one
   * (a slice of a watch batch, a list page) go out together.
   */
  function armFlush(): void {
    if (disposed || timer || snapshot || flushing || firstPendingAt === null) return;
    setTimer(Math.max(0, lastFlushAt + interval.ms - clock.now()), true);
  }

  /** Whether the consumer has room for another frame; see "Flow control" above. */
  function mayEmit(): boolean {
    if (backlog() <= pauseBytes) {
      stalledSince = null;
      forced = false;
      return true;
    }
    if (forced) return true;
    const now = clock.now();
    stalledSince ??= now;
    if (now - stalledSince >= maxWaitMs) {
      forced = true;
      return true;
    }
    stats.backlogWaits += 1;
    if (flushing) flushing.pressured = true;
    return false;
  }

  function emitSnapshotFrame(current: { objects: SlimObject[]; kinds: KindKey[]; next: number; seq: number }): number {
    if (current.next >= current.objects.length) {
      snapshot = null;
      const end: ClusterFrame = { type: 'snapshot-end', epoch, seq: current.seq };
      return send(end, jsonBytes(end));
    }
    const packed = packChunk(current.objects, current.kinds, current.next, { epoch, seq: current.seq, total: current.objects.length }, budget);
    current.next = packed.next;
    stats.snapshotFrames += 1;
    return send(packed.frame, packed.bytes, packed.oversize);
  }

  function emitDeltaFrame(flush: { bytes: number }): number {
    seq += 1;
    const packed = packDelta(pending, { epoch, seq }, budget);
    if (pending.size === 0) firstPendingAt = null;
    flush.bytes += packed.bytes;
    stats.deltaFrames += 1;
    return send(packed.frame, packed.bytes, packed.oversize);
  }

  function finishFlush(flush: { bytes: number; pressured: boolean; since: number }): void {
    const now = clock.now();
    stats.flushes += 1;
    // The rate is judged over the time its changes gathered (a window at least), not since the
    // previous flush: a burst after a quiet spell, sent at once, is as heavy as it is.
    interval.afterFlush(flush.bytes, now - flush.since, flush.pressured);
    lastFlushAt = now;
    flushing = null;
  }

  /** Emits the snapshot in progress, then the flush in progress, one slice per turn. */
  function pump(): void {
    if (pumping) return;
    pumping = true;
    try {
      drain();
    } finally {
      pumping = false;
    }
  }

  function drain(): void {
    let sliced = 0;
    const room = (): boolean => {
      if (sliced >= sliceBytes) setTimer(0, false);
      else if (!mayEmit()) setTimer(BACKLOG_RETRY_MS, false);
      else return true;
      return false;
    };
    for (;;) {
      const current = snapshot;
      const flush = flushing;
      if (current) {
        if (!room()) return;
        sliced += emitSnapshotFrame(current);
      } else if (flush && pending.size > 0) {
        if (!room()) return;
        sliced += emitDeltaFrame(flush);
      } else {
        break;
      }
    }
    if (flushing) finishFlush(flushing);
    armFlush();
  }

  return {
    resync(reason) {
      if (disposed) return { epoch, seq };
      if (timer) clock.clearTimeout(timer.handle);
      timer = null;
      if (flushing) finishFlush(flushing);
      pending.clear();
      firstPendingAt = null;
      const { objects, kinds } = cache.listWithKinds();
      seq += 1;
      snapshot = { objects, kinds, next: 0, seq };
      stats.snapshots += 1;
      lastResyncReason = reason ?? null;
      const begin: ClusterFrame = { type: 'snapshot-begin', epoch, context, seq, total: objects.length };
      send(begin, jsonBytes(begin));
      pump();
      return { epoch, seq };
    },
    stats() {
      return {
        ...stats,
        epoch,
        seq,
        pending: pending.size,
        flushIntervalMs: interval.ms,
        snapshotInProgress: snapshot !== null,
        lastResyncReason,
      };
    },
    dispose() {
      disposed = true;
      unsubscribe();
      if (timer) clock.clearTimeout(timer.handle);
      timer = null;
      pending.clear();
      snapshot = null;
      flushing = null;
    },
  };
}
