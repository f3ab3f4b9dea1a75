/**
 * Collects work between animation frames and runs it as one batch per frame, so a burst of
 * engine frames costs one store update and one render, not one per message.
 */

export interface FrameBatcherOptions<T> {
  /** Runs the items queued since the last batch, in arrival order. */
  apply: (items: T[]) => void;
  requestFrame?: (callback: () => void) => number;
  cancelFrame?: (handle: number) => void;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /**
   * Browsers stop animation frames in hidden tabs and minimised windows; the batch then runs
   * after this long instead, so the queue (and memory) stays bounded while nobody looks.
   */
  fallbackMs?: number;
}

export interface FrameBatcher<T> {
  push(item: T): void;
  /** Drops what is queued and not yet applied (a newer snapshot or an epoch change supersedes it). */
  discard(): void;
  dispose(): void;
}

/**
 * How long a batch waits for an animation frame before it runs anyway. Browsers stop frames in
 * hidden tabs and minimised windows, and a browser short of CPU (the app's engine, or a cluster
 * simulator, on the same two cores) delays them by 100-250 ms; the store then still applies
 * within about three frames' time of the engine's frame, rather than a fifth of a second later.
 */
export const FRAME_FALLBACK_MS = 50;

/** Creates a batcher; nothing is scheduled until the first push. */
export function createFrameBatcher<T>(options: FrameBatcherOptions<T>): FrameBatcher<T> {
  // Looked up at call time, so a test can stand in for the browser's frames and timers.
  const requestFrame = options.requestFrame ?? ((callback: () => void) => globalThis.requestAnimationFrame(callback));
  const cancelFrame = options.cancelFrame ?? ((handle: number) => globalThis.cancelAnimationFrame(handle));
  const setTimer = options.setTimeout ?? ((callback: () => void, ms: number) => globalThis.setTimeout(callback, ms));
  const clearTimer = options.clearTimeout ?? ((handle: unknown) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>));
  const fallbackMs = options.fallbackMs ?? FRAME_FALLBACK_MS;
  let queue: T[] = [];
  let frame: number | null = null;
  let timer: unknown = null;

  function cancel(): void {
    if (frame !== null) cancelFrame(frame);
    if (timer !== null) clearTimer(timer);
    frame = null;
    timer = null;
  }

  function flush(): void {
    cancel();
    if (queue.length === 0) return;
    const items = queue;
    queue = [];
    options.apply(items);
  }

  return {
    push(item) {
      queue.push(item);
      if (frame !== null) return;
      frame = requestFrame(flush);
      timer = setTimer(flush, fallbackMs);
    },
    discard() {
      queue = [];
      cancel();
    },
    dispose() {
      queue = [];
      cancel();
    },
  };
}
