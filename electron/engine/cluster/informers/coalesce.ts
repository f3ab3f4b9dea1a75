/**
 * The buffer between a watch socket and the cache. While the cache keeps up, an event is applied
 * as it arrives (every state is seen, as the history needs). Once a read's events take longer
 * than a slice, the rest wait here, coalesced per uid, and are applied in slices of a few
 * milliseconds, each followed by a turn of the event loop so the socket is read again before the
 * next slice. Reading a watch is never held up by what the
 * cache's listeners do with a change; when they cannot keep up, an object that changed five times
 * while waiting is applied once, in its latest state. Memory is bounded by the number of objects
 * with a change waiting, never by the rate of events, so overload cannot build the backlog that
 * ends in a 410 and a relist of everything.
 */

/** Longest run of applied events before the event loop gets a turn (reads, timers, frames). */
export const DRAIN_SLICE_MS = 8;
/** Waiting longer than this, the oldest change makes the kind report "behind by N s". */
export const BEHIND_AFTER_MS = 2_000;

/** One received watch event, by the uid of its object. */
export interface BufferedEvent<E> {
  uid: string;
  event: E;
  /** When it arrived (the clock's ms); for a coalesced uid, when its oldest waiting change did. */
  receivedAt: number;
}

/** Options of a CoalescingBuffer. */
export interface CoalescingBufferOptions<E> {
  /** Applies one event to the cache (throws to fail the watch). */
  apply: (event: E) => void;
  /** After each slice: how many wait and since when the oldest does (undefined: none). */
  onProgress?: (waiting: number, oldestAt: number | undefined) => void;
  /** Reports a failure of `apply` (the watch it came from is restarted). */
  onError: (error: unknown) => void;
  now: () => number;
  /** Defers a slice; `setImmediate` by default (after I/O, so the socket is read first). */
  defer?: (run: () => void) => void;
  sliceMs?: number;
  /** Apply at once while within a slice and nothing waits (default true); false buffers every event. */
  immediate?: boolean;
  /**
   * Applies waiting events a batch at a time, off the event loop's turn (a worker decodes them):
   * up to `batchSize` leave the buffer together. While one batch is in flight, a second is taken
   * only when a full batch waits (up to `batchesInFlight`), so its decoding overlaps the first
   * one's applying; `previous` settles once the batch taken before has been applied (or failed),
   * and the callee must apply nothing before that, so batches apply in the order they were taken.
   * `current()` turns false once the buffer was cleared meanwhile: the batch's results are then
   * stale and must not be applied. Without it, events are applied one by one.
   */
  applyBatch?: (events: E[], current: () => boolean, previous: Promise<void>) => Promise<void>;
  batchSize?: number;
  /** Batches in flight at most (BATCHES_IN_FLIGHT by default; 1: the next waits until this one is applied). */
  batchesInFlight?: number;
}

/** Events a batch takes by default: a list page's worth. */
export const DEFAULT_BATCH_SIZE = 250;
/**
 * Batches in flight at most. With one, the list worker sat idle while the engine's thread parsed
 * and applied its last batch, and the engine's thread waited while the worker decoded: under a
 * sustained backlog the two alternated instead of overlapping. A second batch is only taken
 * when a full one waits, so a light load never splits into small batches (which are decoded
 * inline, on the engine's thread).
 */
export const BATCHES_IN_FLIGHT = 2;

/** A batch taken from the buffer and not applied yet. */
interface InFlightBatch {
  /** When its oldest event arrived. */
  since: number | undefined;
  count: number;
}

export class CoalescingBuffer<E> {
  private readonly o: CoalescingBufferOptions<E>;
  /** Waiting events in arrival order of each uid's first waiting change; a later change replaces the event in place. */
  private readonly waiting = new Map<string, BufferedEvent<E>>();
  private scheduled = false;
  /** When the current slice of events applied on arrival ends (performance.now() ms). */
  private budgetEnd: number | undefined;
  /** Events coalesced away (replaced before being applied), since the buffer was made. */
  coalesced = 0;
  /** The batches taken and not applied yet, oldest first. */
  private batches: InFlightBatch[] = [];
  /** Settles once the last batch taken has been applied (or failed): the next one applies after it. */
  private lastBatch: Promise<void> = Promise.resolve();
  /** Counts clears: a batch taken before the last clear is stale. */
  private generation = 0;

  constructor(options: CoalescingBufferOptions<E>) {
    this.o = options;
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Changes not applied yet: those waiting and those of the batch being applied. */
  get pending(): number {
    let inFlight = 0;
    for (const batch of this.batches) inFlight += batch.count;
    return this.waiting.size + inFlight;
  }

  /** Whether a change of `uid` waits (a batch skips its own older one: the newer is applied after it). */
  has(uid: string): boolean {
    return this.waiting.has(uid);
  }

  /** When the oldest change not yet applied (waiting or in a batch) arrived, or undefined when none. */
  oldestAt(): number | undefined {
    return this.batches.length > 0 ? this.batches[0]?.since : this.waiting.values().next().value?.receivedAt;
  }

  /** Takes in one received event; its uid's waiting event, if any, is replaced (a deletion included). */
  push(uid: string, event: E): void {
    const waiting = this.waiting.get(uid);
    if (waiting) {
      waiting.event = event;
      this.coalesced += 1;
    } else if (this.waiting.size === 0 && this.batches.length === 0 && this.withinSlice()) {
      // Keeping up: no reason to hold it (a throw fails the watch it came from).
      this.o.apply(event);
      return;
    } else {
      this.waiting.set(uid, { uid, event, receivedAt: this.o.now() });
    }
    this.schedule();
  }

  /**
   * Whether an arriving event may be applied now: each turn of the event loop (one socket read's
   * lines) gets one slice; the time spent applying counts against it, so a slow listener makes
   * the rest of the read wait in the buffer instead of holding up the next read.
   */
  private withinSlice(): boolean {
    if (this.o.immediate === false) return false;
    const now = performance.now();
    if (this.budgetEnd === undefined) {
      this.budgetEnd = now + (this.o.sliceMs ?? DRAIN_SLICE_MS);
      setImmediate(() => {
        this.budgetEnd = undefined;
      });
    }
    return now < this.budgetEnd;
  }

  /** Drops every waiting event (a relist replaces what they would have said). */
  clear(): void {
    this.waiting.clear();
    this.generation += 1;
    this.batches = [];
    this.lastBatch = Promise.resolve();
    this.o.onProgress?.(0, undefined);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    (this.o.defer ?? setImmediate)(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  /** Applies waiting events for one slice; schedules the next if any are left. */
  drain(): void {
    if (this.o.applyBatch) {
      this.drainBatch(this.o.applyBatch);
      return;
    }
    const end = performance.now() + (this.o.sliceMs ?? DRAIN_SLICE_MS);
    for (const [uid, entry] of this.waiting) {
      this.waiting.delete(uid);
      try {
        this.o.apply(entry.event);
      } catch (error) {
        this.o.onError(error);
        return;
      }
      if (performance.now() >= end) break;
    }
    this.o.onProgress?.(this.waiting.size, this.oldestAt());
    if (this.waiting.size > 0) this.schedule();
  }

  /**
   * Takes the oldest waiting events as one batch, and while there is room a further batch when a
   * full one waits; each batch is applied after the one taken before it.
   */
  private drainBatch(applyBatch: NonNullable<CoalescingBufferOptions<E>['applyBatch']>): void {
    const limit = this.o.batchSize ?? DEFAULT_BATCH_SIZE;
    const maxBatches = Math.max(1, this.o.batchesInFlight ?? BATCHES_IN_FLIGHT);
    while (this.waiting.size > 0 && this.batches.length < maxBatches && (this.batches.length === 0 || this.waiting.size >= limit)) {
      this.takeBatch(applyBatch, limit);
    }
  }

  private takeBatch(applyBatch: NonNullable<CoalescingBufferOptions<E>['applyBatch']>, limit: number): void {
    const events: E[] = [];
    const batch: InFlightBatch = { since: this.waiting.values().next().value?.receivedAt, count: 0 };
    for (const [uid, entry] of this.waiting) {
      this.waiting.delete(uid);
      events.push(entry.event);
      if (events.length >= limit) break;
    }
    batch.count = events.length;
    this.batches.push(batch);
    const generation = this.generation;
    const current = (): boolean => generation === this.generation;
    const done = (): boolean => {
      if (!current()) return false;
      this.batches.splice(this.batches.indexOf(batch), 1);
      return true;
    };
    const applied = applyBatch(events, current, this.lastBatch).then(
      () => {
        if (!done()) return;
        this.o.onProgress?.(this.waiting.size, this.oldestAt());
        if (this.waiting.size > 0) this.schedule();
      },
      (error: unknown) => {
        if (done()) this.o.onError(error);
      },
    );
    this.lastBatch = applied;
  }
}
