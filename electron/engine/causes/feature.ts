/**
 * The causes feature: implements the `causes:*` channels of shared/contracts/causes.ts over the
 * live cache. It keeps its own incremental index of the cache (live-view.ts) and finds the causes
 * of every drifting workload at most once per `intervalMs` while the cluster changes — never per
 * event — pushing them on `causes:changed` when they differ from the last push. Everything starts
 * over on a context switch.
 */
import type { causesRequests, DriftingCauses } from '../../../shared/contracts/causes.ts';
import { err, ok } from '../../../shared/result.ts';
import type { EngineContext, Feature } from '../features.ts';
import type { CacheChange } from '../stream/cache.ts';
import { findCause, findCauses } from './find.ts';
import { createLiveCauseView } from './live-view.ts';
import { linkOf } from './objects.ts';

/** Least time between two recomputations of the drifting workloads' causes. */
export const CAUSES_INTERVAL_MS = 1_000;

export interface CausesFeatureOptions {
  /** Least time between two recomputations (default CAUSES_INTERVAL_MS). */
  intervalMs?: number;
}

export function createCausesFeature(context: EngineContext, options: CausesFeatureOptions = {}): Feature<typeof causesRequests> {
  const intervalMs = options.intervalMs ?? CAUSES_INTERVAL_MS;
  const view = createLiveCauseView();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = true;
  let current: DriftingCauses = { context: context.selected()?.name ?? null, revision: 0, at: context.now(), reports: [] };
  let currentJson = '';
  /** The user's status rules (Settings): a custom kind drifts by them before the built-in table. */
  const userRules = () => context.settings.get().statusRules ?? [];
  let rulesJson = JSON.stringify(userRules());

  /** Finds the causes again if anything changed; pushes them if they differ from the last ones. */
  function recompute(): DriftingCauses {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return current;
    dirty = false;
    const now = context.now();
    const reports = findCauses(view, { now, userRules: userRules() });
    const selected = context.selected()?.name ?? null;
    const json = JSON.stringify([selected, reports]);
    if (json === currentJson) return current;
    currentJson = json;
    current = { context: selected, revision: current.revision + 1, at: now, reports };
    context.hub.emit('causes:changed', current);
    return current;
  }

  function changed(): void {
    dirty = true;
    if (timer === undefined) {
      timer = setTimeout(recompute, intervalMs);
      timer.unref?.();
    }
  }

  function onChange(change: CacheChange): void {
    if (change.type === 'upsert') view.upsert(change.object);
    else view.delete(change.ref.uid);
    changed();
  }

  function reset(): void {
    view.clear();
    for (const object of context.cache.list()) view.upsert(object);
    changed();
  }

  const unsubscribe = context.cache.onChange(onChange);
  // New status rules can change which custom resources drift: find the causes again.
  const stopSettings = context.hub.listen((stream) => {
    if (stream !== 'settings:changed') return;
    const next = JSON.stringify(userRules());
    if (next === rulesJson) return;
    rulesJson = next;
    changed();
  });
  const stopContext = context.onContextChange(reset);
  reset();

  return {
    handlers: {
      'causes:for': ({ uid }) => {
        const target = view.get(uid);
        if (!target) return err('not-found', `No object with uid ${uid} is in the selected context's cache (deleted, or its kind is not watched).`);
        return ok({
          target: linkOf(target),
          causes: findCause(target, view, { now: context.now(), userRules: userRules() }),
        });
      },
      'causes:drifting': () => ok(recompute()),
    },
    dispose() {
      unsubscribe();
      stopSettings();
      stopContext();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
