/**
 * The causes feature: implements the `causes:*` channels of shared/contracts/causes.ts over the
 * live cache. Its tracker (tracker.ts) keeps an incremental index of the cache and finds the
 * causes of every drifting workload at most once per `intervalMs` while the cluster changes —
 * never per event — pushed on `causes:changed` when they differ from the last push. Everything
 * starts over on a context switch.
 */
import type { causesRequests, DriftingCauses } from '../../../shared/contracts/causes.ts';
import { err, ok } from '../../../shared/result.ts';
import type { EngineContext, Feature } from '../features.ts';
import { findCause } from './find.ts';
import { linkOf } from './objects.ts';
import { createCauseTracker } from './tracker.ts';

/** Least time between two recomputations of the drifting workloads' causes. */
export const CAUSES_INTERVAL_MS = 1_000;

export interface CausesFeatureOptions {
  /** Least time between two recomputations (default CAUSES_INTERVAL_MS). */
  intervalMs?: number;
}

export function createCausesFeature(context: EngineContext, options: CausesFeatureOptions = {}): Feature<typeof causesRequests> {
  let current: DriftingCauses = { context: context.selected()?.name ?? null, revision: 0, at: context.now(), reports: [] };
  /** The user's status rules (Settings): a custom kind drifts by them before the built-in table. */
  const userRules = () => context.settings.get().statusRules ?? [];
  let rulesJson = JSON.stringify(userRules());
  const selectedName = () => context.selected()?.name ?? null;
  const tracker = createCauseTracker({
    cache: context.cache,
    intervalMs: options.intervalMs ?? CAUSES_INTERVAL_MS,
    now: context.now,
    userRules,
    key: selectedName,
    onReports(reports, at) {
      current = { context: selectedName(), revision: current.revision + 1, at, reports };
      context.hub.emit('causes:changed', current);
    },
  });

  /** Finds the causes again if anything changed (pushed if they differ from the last ones). */
  function recompute(): DriftingCauses {
    tracker.recompute();
    return current;
  }

  // New status rules can change which custom resources drift: find the causes again.
  const stopSettings = context.hub.listen((stream) => {
    if (stream !== 'settings:changed') return;
    const next = JSON.stringify(userRules());
    if (next === rulesJson) return;
    rulesJson = next;
    tracker.changed();
  });
  const stopContext = context.onContextChange(() => tracker.reset());

  return {
    handlers: {
      'causes:for': ({ uid }) => {
        const target = tracker.view.get(uid);
        if (!target) return err('not-found', `No object with uid ${uid} is in the selected context's cache (deleted, or its kind is not watched).`);
        return ok({
          target: linkOf(target),
          causes: findCause(target, tracker.view, { now: context.now(), userRules: userRules() }),
        });
      },
      'causes:drifting': () => ok(recompute()),
    },
    dispose() {
      stopSettings();
      stopContext();
      tracker.stop();
    },
  };
}
