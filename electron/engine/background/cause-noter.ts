/**
 * Causes for a context recorded in the background. The selected context's episodes get their
 * causes from the causes feature's `causes:changed` pushes (history/index.ts); a background
 * context has no causes feature, so its episodes would say only that a workload drifted, not
 * why. This does for one background cache what the feature does for the live one: keeps the
 * finder's incremental view of the cache (causes/live-view.ts), finds the drifting workloads'
 * causes at most once per CAUSES_INTERVAL_MS while the cluster changes (never per event), and
 * hands their headlines to the store's open episodes (episode-causes.ts) when they changed.
 */
import { CAUSES_INTERVAL_MS } from '../causes/feature.ts';
import { findCauses } from '../causes/find.ts';
import { createLiveCauseView } from '../causes/live-view.ts';
import { headlinesOf, type HeadlineCause } from '../history/episode-causes.ts';
import type { CacheChange, ObjectCache } from '../stream/cache.ts';

export interface CauseNoterOptions {
  context: string;
  cache: ObjectCache;
  /** The store's `noteCauses` (store.ts): the open episodes keep what explained them. */
  note(headlines: ReadonlyMap<string, readonly HeadlineCause[]>, at: number): void;
  now(): number;
  /** Least time between two recomputations (default CAUSES_INTERVAL_MS). */
  intervalMs?: number;
}

export interface CauseNoter {
  /** Finds the causes now if anything changed since the last time (tests; the timer does it). */
  recompute(): void;
  stop(): void;
}

/** Starts following `cache`; the objects already in it are read at once. */
export function startCauseNoter(options: CauseNoterOptions): CauseNoter {
  const view = createLiveCauseView();
  const intervalMs = options.intervalMs ?? CAUSES_INTERVAL_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = true;
  let lastJson = '';
  let revision = 0;

  function recompute(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    const at = options.now();
    const reports = findCauses(view, { now: at });
    const json = JSON.stringify(reports);
    if (json === lastJson) return;
    lastJson = json;
    revision += 1;
    options.note(headlinesOf({ context: options.context, revision, at, reports }), at);
  }

  function changed(): void {
    dirty = true;
    if (timer === undefined) {
      timer = setTimeout(recompute, intervalMs);
      timer.unref?.();
    }
  }

  const unsubscribe = options.cache.onChange((change: CacheChange) => {
    if (change.type === 'upsert') view.upsert(change.object);
    else view.delete(change.ref.uid);
    changed();
  });
  for (const object of options.cache.list()) view.upsert(object);
  changed();

  return {
    recompute,
    stop() {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      view.clear();
    },
  };
}
