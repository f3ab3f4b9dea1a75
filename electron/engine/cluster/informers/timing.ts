/**
 * Time for the informers, injected so tests can step through backoff and watchdog delays: a
 * clock with timers, a capped, jittered exponential backoff, and a silence watchdog.
 */

/** Wall clock and timers (the engine passes the real ones; tests a fake). */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process clock. Timers are unref'd: an idle informer never keeps a CLI process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Backoff bounds; the delay doubles per failure in a row up to `maxMs`. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

/** client-go's order of magnitude: first retry within half a second, never more than 30 s apart. */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000 };

/** Past this many doublings the cap has long been reached; stops 2 ** n from overflowing. */
const MAX_DOUBLINGS = 40;

/**
 * Capped exponential backoff with "equal jitter": the n-th delay is uniform in
 * [base / 2, base] where base = min(maxMs, initialMs * 2^n), so clients that failed together
 * (an API server restart) do not retry together, and no delay ever exceeds the cap.
 */
export class Backoff {
  private readonly options: BackoffOptions;
  private readonly random: () => number;
  private failures = 0;

  constructor(options: BackoffOptions, random: () => number) {
    this.options = options;
    this.random = random;
  }

  /** The delay before the next attempt; each call counts one more failure. */
  next(): number {
    const base = Math.min(this.options.maxMs, this.options.initialMs * 2 ** Math.min(this.failures, MAX_DOUBLINGS));
    this.failures += 1;
    return Math.round(base / 2 + (this.random() * base) / 2);
  }

  reset(): void {
    this.failures = 0;
  }
}

/**
 * Fires `onSilence` when no sign of life arrived for `silenceMs`. One timer per silence period,
 * not one per chunk: a busy stream only moves a timestamp.
 */
export class Watchdog {
  private readonly clock: Clock;
  private readonly silenceMs: number;
  private readonly onSilence: (silentMs: number) => void;
  private lastAliveAt = 0;
  private timer: unknown;

  constructor(clock: Clock, silenceMs: number, onSilence: (silentMs: number) => void) {
    this.clock = clock;
    this.silenceMs = silenceMs;
    this.onSilence = onSilence;
  }

  /** Starts watching from now (a new request). */
  arm(): void {
    this.disarm();
    this.alive();
    this.schedule(this.silenceMs);
  }

  alive(): void {
    this.lastAliveAt = this.clock.now();
  }

  disarm(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      const silentMs = this.clock.now() - this.lastAliveAt;
      if (silentMs < this.silenceMs) this.schedule(this.silenceMs - silentMs);
      else this.onSilence(silentMs);
    }, ms);
  }
}
