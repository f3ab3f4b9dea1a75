/**
 * Time for the informers, injected so tests can step through backoff and watchdog delays: a
 * clock with timers, and a capped, jittered exponential backoff.
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
