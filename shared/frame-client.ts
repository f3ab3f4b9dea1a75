/**
 * The renderer's side of the `cluster:frames` protocol (described in full in
 * electron/engine/stream/batcher.ts), independent of the transport and of the store.
 *
 * Feed it every frame in arrival order with `receive`. It hands complete snapshots and in-order
 * delta batches to the callbacks and asks for a resync whenever it cannot vouch for what it
 * delivered: a missing delta (seq gap), a missing snapshot chunk, a delta during a snapshot, a
 * new epoch, or deltas before any snapshot. It asks once, then ignores everything but a new
 * snapshot-begin (frames already under way are stale) — unless the request failed, or the
 * stream moved past the snapshot it was promised without that snapshot arriving: then it asks
 * again. What it delivered (the snapshot, then each delta in seq order) always equals the
 * engine's cache at some point of the stream.
 */
import type { ClusterFrame, KindKey, ObjectRef, SlimObject } from './cluster.ts';

export interface SnapshotInfo {
  epoch: string;
  context: string | null;
  /** Deltas continue with seq + 1. */
  seq: number;
}

/** What `cluster:resync` answers: the snapshot on its way has this epoch and seq. */
export interface ResyncAnswer {
  epoch: string;
  seq: number;
}

export interface FrameClientOptions {
  /** A complete snapshot: replace everything held with these objects (`kinds[i]` is the kind key of `objects[i]`). */
  onSnapshot(objects: SlimObject[], kinds: KindKey[], info: SnapshotInfo): void;
  /** One delta frame, in seq order after the snapshot: upsert by uid, then delete by uid. */
  onDeltas(upserts: SlimObject[], kinds: KindKey[], deletes: ObjectRef[], seq: number): void;
  /** Snapshot progress: objects received so far of `total` (0 of total at its start). */
  onProgress?(sent: number, total: number): void;
  /**
   * Ask the engine for a snapshot (the `cluster:resync` request). Return the request's answer
   * when there is one: its `{ epoch, seq }` (or undefined when the request failed) lets the
   * client notice a promised snapshot that never arrived and ask again. Must not feed frames
   * back into `receive` synchronously; transports deliver them later anyway.
   */
  requestResync(reason: string): void | PromiseLike<ResyncAnswer | undefined>;
}

export type FrameClientPhase = 'waiting' | 'snapshot' | 'live';

export interface FrameClientState {
  /** waiting: no usable data (before the first snapshot or after a fault); snapshot: receiving one; live: applying deltas. */
  phase: FrameClientPhase;
  epoch: string | null;
  /** Seq of the last applied delta (or of the snapshot), null while waiting. */
  seq: number | null;
  /** A resync was requested and no snapshot has begun since. */
  resyncRequested: boolean;
}

export interface FrameClient {
  receive(frame: ClusterFrame): void;
  /** Asks for a snapshot now (start-up, reconnect, page reload), whatever the state. */
  resync(reason: string): void;
  state(): FrameClientState;
}

interface Assembly {
  epoch: string;
  context: string | null;
  seq: number;
  total: number;
  objects: SlimObject[];
  kinds: KindKey[];
}

export function createFrameClient(options: FrameClientOptions): FrameClient {
  let phase: FrameClientPhase = 'waiting';
  let epoch: string | null = null;
  let seq: number | null = null;
  let assembly: Assembly | null = null;
  let resyncRequested = false;
  /** Which request is current, so a late answer to an older one is ignored. */
  let request = 0;
  /** The snapshot the current request was promised, once its answer is in. */
  let promised: ResyncAnswer | null = null;

  /** Stops trusting what arrives until a new snapshot begins, and asks for one (once). */
  function fault(reason: string): void {
    phase = 'waiting';
    seq = null;
    assembly = null;
    if (resyncRequested) return;
    resyncRequested = true;
    promised = null;
    const id = ++request;
    const answer = options.requestResync(reason);
    if (typeof answer?.then !== 'function') return;
    const settle = (value: ResyncAnswer | undefined) => {
      if (id !== request || !resyncRequested) return;
      if (value) promised = value;
      // A failed request may be repeated: the next frame asks again.
      else resyncRequested = false;
    };
    answer.then(settle, () => settle(undefined));
  }

  /** While waiting: a frame past the promised snapshot means that snapshot was lost. */
  function checkPromise(frame: ClusterFrame): void {
    if (!resyncRequested) return fault('frames arrived before any snapshot');
    if (!promised) return;
    const passed = frame.seq > promised.seq || (frame.type !== 'delta' && frame.seq === promised.seq);
    if (frame.epoch === promised.epoch && !passed) return;
    resyncRequested = false;
    fault('the requested snapshot went missing');
  }

  function begin(frame: Extract<ClusterFrame, { type: 'snapshot-begin' }>): void {
    resyncRequested = false;
    promised = null;
    phase = 'snapshot';
    seq = null;
    epoch = frame.epoch;
    assembly = { epoch: frame.epoch, context: frame.context, seq: frame.seq, total: frame.total, objects: [], kinds: [] };
    options.onProgress?.(0, frame.total);
  }

  function chunk(frame: Extract<ClusterFrame, { type: 'snapshot-chunk' }>, current: Assembly): void {
    if (frame.seq !== current.seq || frame.total !== current.total || frame.sent !== current.objects.length + frame.objects.length) {
      return fault('a snapshot chunk went missing');
    }
    if (frame.kinds.length !== frame.objects.length) return fault('a snapshot chunk without one kind key per object');
    for (const object of frame.objects) current.objects.push(object);
    for (const kind of frame.kinds) current.kinds.push(kind);
    options.onProgress?.(frame.sent, frame.total);
  }

  function end(frame: Extract<ClusterFrame, { type: 'snapshot-end' }>, current: Assembly): void {
    if (frame.seq !== current.seq || current.objects.length !== current.total) return fault('a snapshot chunk went missing');
    assembly = null;
    phase = 'live';
    seq = current.seq;
    options.onSnapshot(current.objects, current.kinds, { epoch: current.epoch, context: current.context, seq: current.seq });
  }

  function delta(frame: Extract<ClusterFrame, { type: 'delta' }>): void {
    if (phase === 'snapshot') return fault('a delta arrived inside a snapshot: its end went missing');
    if (seq === null) return;
    if (frame.seq <= seq) return;
    if (frame.seq !== seq + 1) return fault(`frames went missing (seq ${seq + 1} to ${frame.seq - 1})`);
    seq = frame.seq;
    options.onDeltas(frame.upserts, frame.kinds, frame.deletes, frame.seq);
  }

  return {
    receive(frame) {
      if (frame.type === 'snapshot-begin') return begin(frame);
      // Chunks and deltas of a snapshot abandoned after a fault are stale, unless they show the promised snapshot was lost.
      if (phase === 'waiting') return checkPromise(frame);
      if (frame.epoch !== epoch) return fault(`the stream started over (epoch ${frame.epoch})`);
      if (frame.type === 'delta') return delta(frame);
      if (!assembly) return;
      if (frame.type === 'snapshot-chunk') chunk(frame, assembly);
      else end(frame, assembly);
    },
    resync(reason) {
      resyncRequested = false;
      fault(reason);
    },
    state() {
      return { phase, epoch, seq, resyncRequested };
    },
  };
}
