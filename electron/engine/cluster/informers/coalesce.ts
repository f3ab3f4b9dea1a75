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
  /** The monotonic clock slices are timed by (ms); performance.now by default (tests count applies instead). */
  sliceClock?: () => number;
  /** Apply at once while within a slice and nothing waits (default true); false buffers every event. */
  immediate?: boolean;
  /**
   * Applies waiting events a batch at a time, off the event loop's turn (a worker decodes them):
   * up to `batchSize` leave the buffer together, up to MAX_BATCHES_IN_FLIGHT batches are out at
   * once, and each is applied after the ones before it (see BatchApplier). Without it, events are
   * applied one by one.
   */
  applyBatch?: BatchApplier<E>;
  batchSize?: number;
}

/**
 * Applies one batch: `current()` turns false once the buffer was cleared meanwhile (the batch is
 * stale: apply nothing); `after` settles once every batch taken before this one was applied, so
 * it may be decoded before then but must not be applied.
 */
export type BatchApplier<E> = (events: E[], current: () => boolean, after: Promise<void>) => Promise<void>;

/**
 * Batches taken at once at most: one applied on this thread while the next is decoded. With one,
 * the engine thread waited for the worker and the worker for the engine thread, and at 5,000
 * changes/s a busy engine (history, graph and frame listeners) fell further behind every second.
 */
export const MAX_BATCHES_IN_FLIGHT = 2;

/** Events a batch takes by default: a list page's worth. */
export const DEFAULT_BATCH_SIZE = 250;

export class CoalescingBuffer<E> {
  private readonly o: CoalescingBufferOptions<E>;
  /** Waiting events in arrival order of each uid's first waiting change; a later change replaces the event in place. */
  private readonly waiting = new Map<string, BufferedEvent<E>>();
  private scheduled = false;
  /** When the current slice of events applied on arrival ends (`sliceNow` ms). */
  private budgetEnd: number | undefined;
  /** Events coalesced away (replaced before being applied), since the buffer was made. */
  coalesced = 0;
  /** Batches taken and not yet applied, oldest first: when each one's oldest event arrived, and its size. */
  private readonly flights: Array<{ since: number | undefined; count: number }> = [];
  /** Events of the batches being decoded or applied. */
  private inFlight = 0;
  /** Settles once every batch taken so far has been applied (or failed): the next one applies after it. */
  private lastApplied: Promise<void> = Promise.resolve();
  /** Counts clears: a batch taken before the last clear is stale. */
  private generation = 0;

  constructor(options: CoalescingBufferOptions<E>) {
    this.o = options;
  }

  private sliceNow(): number {
    return this.o.sliceClock ? this.o.sliceClock() : performance.now();
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Changes not applied yet: those waiting and those of the batch being applied. */
  get pending(): number {
    return this.waiting.size + this.inFlight;
  }

  /** Whether a change of `uid` waits (a batch skips its own older one: the newer is applied after it). */
  has(uid: string): boolean {
    return this.waiting.has(uid);
  }

  /** When the oldest change not yet applied (waiting or in a batch) arrived, or undefined when none. */
  oldestAt(): number | undefined {
    return this.flights.length > 0 ? this.flights[0]?.since : this.waiting.values().next().value?.receivedAt;
  }

  /**
   * Takes in one received event; its uid's waiting event, if any, is replaced (a deletion
   * included). `receivedAt` dates it when known to be older than its arrival (the server had it
   * earlier); the clock's now by default.
   */
  push(uid: string, event: E, receivedAt?: number): void {
    const waiting = this.waiting.get(uid);
    if (waiting) {
      waiting.event = event;
      this.coalesced += 1;
    } else if (this.waiting.size === 0 && this.flights.length === 0 && this.withinSlice()) {
      // Keeping up: no reason to hold it (a throw fails the watch it came from).
      this.o.apply(event);
      return;
    } else {
      this.waiting.set(uid, { uid, event, receivedAt: receivedAt ?? this.o.now() });
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
    const now = this.sliceNow();
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
    this.flights.length = 0;
    this.inFlight = 0;
    this.lastApplied = Promise.resolve();
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
    const end = this.sliceNow() + (this.o.sliceMs ?? DRAIN_SLICE_MS);
    for (const [uid, entry] of this.waiting) {
      this.waiting.delete(uid);
      try {
        this.o.apply(entry.event);
      } catch (error) {
        this.o.onError(error);
        return;
      }
      if (this.sliceNow() >= end) break;
    }
    this.o.onProgress?.(this.waiting.size, this.oldestAt());
    if (this.waiting.size > 0) this.schedule();
  }

  /**
   * Takes the oldest waiting events as one batch, while fewer than MAX_BATCHES_IN_FLIGHT are:
   * the next batch is decoded (in the worker) while this thread applies the one before, and each
   * is applied only after every batch taken before it (`applyBatch`'s `after`).
   */
  private drainBatch(applyBatch: BatchApplier<E>): void {
    while (this.flights.length < MAX_BATCHES_IN_FLIGHT && this.waiting.size > 0) {
      const events: E[] = [];
      const limit = this.o.batchSize ?? DEFAULT_BATCH_SIZE;
      const flight = { since: this.waiting.values().next().value?.receivedAt, count: 0 };
      for (const [uid, entry] of this.waiting) {
        this.waiting.delete(uid);
        events.push(entry.event);
        if (events.length >= limit) break;
      }
      flight.count = events.length;
      this.flights.push(flight);
      this.inFlight += events.length;
      const generation = this.generation;
      const current = (): boolean => generation === this.generation;
      const applied = applyBatch(events, current, this.lastApplied);
      this.lastApplied = applied.then(
        () => undefined,
        () => undefined,
      );
      const settle = (): void => {
        this.flights.splice(this.flights.indexOf(flight), 1);
        this.inFlight -= flight.count;
      };
      applied.then(
        () => {
          if (!current()) return;
          settle();
          this.o.onProgress?.(this.waiting.size, this.oldestAt());
          if (this.waiting.size > 0) this.schedule();
        },
        (error: unknown) => {
          if (!current()) return;
          settle();
          this.o.onError(error);
        },
      );
    }
  }
}
