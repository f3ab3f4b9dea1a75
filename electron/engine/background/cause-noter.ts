/**
 * Causes for a context recorded in the background. The selected context's episodes get their
 * causes from the causes feature's `causes:changed` pushes (history/index.ts); a background
 * context has no causes feature, so its episodes would say only that a workload drifted, not
 * why. This runs for one background cache the tracker the feature runs for the live one
 * (causes/tracker.ts: the drifting workloads' causes at most once per CAUSES_INTERVAL_MS while
 * the cluster changes, never per event), and hands their headlines to the store's open episodes
 * (episode-causes.ts) when they changed.
 */
import { CAUSES_INTERVAL_MS } from '../causes/feature.ts';
import { createCauseTracker } from '../causes/tracker.ts';
import { headlinesOf, type HeadlineCause } from '../history/episode-causes.ts';
import type { ObjectCache } from '../stream/cache.ts';

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
  let revision = 0;
  const tracker = createCauseTracker({
    cache: options.cache,
    intervalMs: options.intervalMs ?? CAUSES_INTERVAL_MS,
    now: options.now,
    onReports(reports, at) {
      revision += 1;
      options.note(headlinesOf({ context: options.context, revision, at, reports }), at);
    },
  });
  return { recompute: () => tracker.recompute(), stop: () => tracker.stop() };
}
