/**
 * Keeps a table's rows current without letting a busy cluster take the window over. What the
 * user changes (filter, sort) re-derives at once; what the cluster changes re-derives no more
 * often than the last derivation's cost allows, so with 50,000 churning pods the table updates a
 * few times a second and scrolling and typing stay smooth, while small tables update every frame.
 */
import { onScopeDispose, shallowRef, watch, type ShallowRef } from 'vue';

export interface AdaptiveRowsOptions<T> {
  /** Cheap reactive reads that change when the data does (the store's kind revisions). */
  data: () => unknown;
  /** Reactive reads of what the user controls; a change re-derives immediately. */
  inputs: () => unknown;
  /** The expensive derivation (filter, sort); runs untracked. */
  compute: () => T;
  now?: () => number;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/** Time between data-driven refreshes, as a multiple of the last refresh's cost: at most ~1/4 of the main thread. */
const COST_FACTOR = 3;
/** However slow the derivation, the table is never more than this stale. */
const MAX_WAIT_MS = 2_000;

/** The derived rows, refreshed as described above. */
export function useAdaptiveRows<T>(options: AdaptiveRowsOptions<T>): { rows: ShallowRef<T> } {
  const now = options.now ?? (() => performance.now());
  const setTimer = options.setTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const clearTimer = options.clearTimeout ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let lastCostMs = 0;
  let lastRun = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;

  function run(): T {
    if (timer !== null) clearTimer(timer);
    timer = null;
    const started = now();
    const value = options.compute();
    lastRun = now();
    lastCostMs = lastRun - started;
    return value;
  }

  const rows = shallowRef<T>(run());

  function refresh(): void {
    rows.value = run();
  }

  function schedule(): void {
    if (timer !== null) return;
    const wait = Math.min(MAX_WAIT_MS, lastRun + lastCostMs * COST_FACTOR - now());
    if (wait <= 0) refresh();
    else timer = setTimer(refresh, wait);
  }

  const stopData = watch(options.data, schedule);
  const stopInputs = watch(options.inputs, refresh, { deep: true });
  onScopeDispose(() => {
    stopData();
    stopInputs();
    if (timer !== null) clearTimer(timer);
  });

  return { rows };
}

/**
 * Remembers one value per key: the sorted list of all rows is recomputed when the data or the
 * sort changed, while typing in the search only re-filters it (filtering keeps the order).
 */
export function keyedMemo<T>(compute: () => T): (key: string) => T {
  let lastKey: string | null = null;
  let last: T | undefined;
  return (key) => {
    if (key !== lastKey || last === undefined) {
      last = compute();
      lastKey = key;
    }
    return last;
  };
}
