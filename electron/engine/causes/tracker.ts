/**
 * The drifting workloads' causes over one object cache, kept up to date without working per
 * event: an incremental index of the cache (live-view.ts), marked dirty by each change, and the
 * causes found again at most once per `intervalMs` while the cluster changes. `onReports` hears
 * the reports only when they differ from the last ones. Shared by the causes feature (the
 * selected context) and the background recorders' cause noter (background/cause-noter.ts).
 */
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { CacheChange, ObjectCache } from '../stream/cache.ts';
import { findCauses } from './find.ts';
import { createLiveCauseView, type LiveCauseView } from './live-view.ts';
import type { CauseReport } from './types.ts';

export interface CauseTrackerOptions {
  cache: ObjectCache;
  /** Least time between two recomputations. */
  intervalMs: number;
  now(): number;
  /** The user's status rules (a custom kind drifts by them before the built-in table). */
  userRules?(): readonly UserStatusRule[];
  /** Something besides the reports whose change is news too (the selected context's name). */
  key?(): unknown;
  /** The reports, when they differ from the last ones (or the key changed). */
  onReports(reports: CauseReport[], at: number): void;
}

export interface CauseTracker {
  readonly view: LiveCauseView;
  /** Finds the causes now if anything changed since the last time (the timer does this too). */
  recompute(): void;
  /** Something the causes depend on changed (beyond the cache): find them again soon. */
  changed(): void;
  /** Indexes the cache again from scratch (a context switch). */
  reset(): void;
  stop(): void;
}

/** Starts following `cache`; the objects already in it are read at once. */
export function createCauseTracker(options: CauseTrackerOptions): CauseTracker {
  const view = createLiveCauseView();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = true;
  let lastJson = '';

  function recompute(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    const at = options.now();
    const reports = findCauses(view, { now: at, ...(options.userRules ? { userRules: options.userRules() } : {}) });
    const json = JSON.stringify([options.key?.() ?? null, reports]);
    if (json === lastJson) return;
    lastJson = json;
    options.onReports(reports, at);
  }

  function changed(): void {
    dirty = true;
    if (timer === undefined) {
      timer = setTimeout(recompute, options.intervalMs);
      timer.unref?.();
    }
  }

  function reset(): void {
    view.clear();
    for (const object of options.cache.list()) view.upsert(object);
    changed();
  }

  const unsubscribe = options.cache.onChange((change: CacheChange) => {
    if (change.type === 'upsert') view.upsert(change.object);
    else view.delete(change.ref.uid);
    changed();
  });
  reset();

  return {
    view,
    recompute,
    changed,
    reset,
    stop() {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      view.clear();
    },
  };
}
