/**
 * The delta stream's flush window, adapted to load. Each flush costs the renderer a fixed amount
 * (one store batch, one reactive update) on top of its per-object work, so when the stream runs
 * faster than HEAVY_BYTES_PER_S the window widens: fewer, larger batches, and more updates of
 * the same object coalesce away. Below half that rate it narrows back, so a quiet cluster shows
 * changes within the base window. The decision looks at the rate, not at a flush's size: a
 * flush's size grows with its window, so judging by size would keep a widened window wide under
 * a load the base window handles well.
 */

/**
 * Default base flush window: one display frame. The renderer applies what arrived once per
 * animation frame whatever the window, so a longer one saves it no work; under a steady stream
 * every change waited up to the whole window (50 ms before, half the live pipeline's p99 on a
 * fast machine). Frames stay few at high rates anyway: 5,000 pod changes a second fill ~55
 * frames of 64 KB a second at any window, and a heavy stream widens it (below).
 */
export const FLUSH_INTERVAL_MS = 16;
/** Default widest flush window: changes never wait longer than this for their frame. */
export const MAX_FLUSH_INTERVAL_MS = 1000;
/**
 * Delta bytes per second above which the window widens; below half of it, it narrows. 5,000
 * pod updates a second (about 9 MiB/s of slim pods) stay in the base window.
 */
export const HEAVY_BYTES_PER_S = 32 * 1024 * 1024;

export interface AdaptiveIntervalOptions {
  baseMs: number;
  maxMs: number;
}

export class AdaptiveInterval {
  private current: number;
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(options: AdaptiveIntervalOptions) {
    this.baseMs = Math.max(0, options.baseMs);
    this.maxMs = Math.max(this.baseMs, options.maxMs);
    this.current = this.baseMs;
  }

  get ms(): number {
    return this.current;
  }

  /**
   * Adapts after a flush of `bytes` covering `elapsedMs` since the previous one: doubles when the
   * rate was heavy or the transport made the flush wait (`pressured`), halves when it was below
   * half the heavy rate, holds in between.
   */
  afterFlush(bytes: number, elapsedMs: number, pressured: boolean): void {
    const bytesPerS = (bytes * 1000) / Math.max(1, elapsedMs, this.current);
    if (pressured || bytesPerS > HEAVY_BYTES_PER_S) this.current = Math.min(this.maxMs, Math.max(1, this.current * 2));
    else if (bytesPerS < HEAVY_BYTES_PER_S / 2) this.current = Math.max(this.baseMs, this.current / 2);
  }

  /** A stream idle for the widest window has no load left to adapt to: back to the base. */
  afterIdle(idleMs: number): void {
    if (idleMs >= this.maxMs) this.current = this.baseMs;
  }
}
