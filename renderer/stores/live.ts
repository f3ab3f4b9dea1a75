/**
 * Keeps one piece of engine state live in a store: an initial request, then the matching push
 * stream. Must be called inside a Pinia setup store (or any effect scope), which owns the
 * subscription and drops it when the store is disposed.
 */
import { onScopeDispose, watch } from 'vue';
import type { Result, KdError } from '../../shared/result.ts';
import { link } from '../api/index.ts';

export interface FollowOptions<T> {
  /** Asks the engine for the current value. */
  load: () => Promise<Result<T>>;
  /** Subscribes to the stream that pushes the next values; returns the unsubscribe function. */
  subscribe: (listener: (value: T) => void) => () => void;
  apply: (value: T) => void;
  /** Called with the failure of `load`, or with null once a value arrived. */
  setError: (error: KdError | null) => void;
}

export interface Follower {
  /** Re-asks the engine; used at start and whenever the engine link comes back. */
  refresh(): Promise<void>;
}

/**
 * Calls `restored` each time the engine link opens again after it was closed; not on the first
 * open, which requests made at start are already queued for. Returns the stop function.
 */
export function onLinkRestored(restored: () => void): () => void {
  let lost = false;
  return watch(
    () => link.value.state,
    (state) => {
      if (state === 'closed') lost = true;
      else if (state === 'open' && lost) {
        lost = false;
        restored();
      }
    },
  );
}

/** Starts following a value: subscribes first, then loads, and re-loads after a reconnect. */
export function follow<T>(options: FollowOptions<T>): Follower {
  // A stream value that arrives while a load is in flight is newer than the load's answer
  // (or as new), so the answer is dropped rather than letting it overwrite fresher state.
  let received = 0;
  const unsubscribe = options.subscribe((value) => {
    received += 1;
    options.setError(null);
    options.apply(value);
  });

  async function refresh(): Promise<void> {
    const mark = received;
    const result = await options.load();
    if (!result.ok) {
      options.setError(result.error);
      return;
    }
    options.setError(null);
    if (received === mark) options.apply(result.value);
  }

  // A dropped link fails the answers in flight (and the engine may have moved on), so ask
  // again once it is back.
  const stopWatch = onLinkRestored(() => void refresh());

  onScopeDispose(() => {
    unsubscribe();
    stopWatch();
  });

  void refresh();
  return { refresh };
}
