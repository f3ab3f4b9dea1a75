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
  /** A connection that stayed up this long forgives the failures before it (default HEALTHY_RESET_MS). */
  healthyResetMs?: number;
}

/**
 * How long a connection must stay up before the failures before it are forgiven. Long enough
 * that a server dropping every watch after a few seconds is not hammered at the initial delay;
 * short enough that two blips a minute apart (a load balancer recycling connections, a flaky
 * VPN) each get the quick first retry instead of an ever longer wait.
 */
export const HEALTHY_RESET_MS = 10_000;

/**
 * First retry within half a second. The cap is a third of client-go's 30 s: a desktop app has
 * one user looking at it, and after a longer outage (VPN reconnect, laptop lid) the view should
 * come back within seconds of the server; a dozen watches retrying every 5 to 10 s (jittered)
 * cost an API server nothing.
 */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 10_000, healthyResetMs: HEALTHY_RESET_MS };

/** Past this many doublings the cap has long been reached; stops 2 ** n from overflowing. */
const MAX_DOUBLINGS = 40;

/**
 * Capped exponential backoff with "equal jitter": the n-th delay is uniform in
 * [base / 2, base] where base = min(maxMs, initialMs * 2^n), so clients that failed together
 * (an API server restart) do not retry together, and no delay ever exceeds the cap.
 *
 * Failures in a row count up; a connection that stays up for `healthyResetMs` ends the row, so
 * recovery from a short outage always starts at the initial delay however many outages came
 * before it, while a server that keeps dropping connections early is retried ever more slowly.
 */
export class Backoff {
  private readonly options: BackoffOptions;
  private readonly random: () => number;
  private failures = 0;
  private connectedAt: number | undefined;

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

  /** A connection is up (a watch answered) at `now`. */
  connected(now: number): void {
    this.connectedAt = now;
  }

  /** The connection ended at `now`, cleanly or not; one that lasted long enough ends the row of failures. */
  disconnected(now: number): void {
    if (this.connectedAt !== undefined && now - this.connectedAt >= (this.options.healthyResetMs ?? HEALTHY_RESET_MS)) this.failures = 0;
    this.connectedAt = undefined;
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
