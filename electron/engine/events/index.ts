/**
 * The events feature: implements the `events:*` channels of shared/contracts/events.ts. It
 * listens to the live cache: Events go into the merged store (and name the operators that
 * report them), objects into the reconcile tracker (any kind reporting observedGeneration) and
 * the lineage. Everything starts over on a context switch. Views learn that
 * something changed from `events:changed` (at most one push per `throttleMs`, plus one when an
 * ongoing reconcile turns stuck) and ask again; nothing polls.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { KindKey } from '../../../shared/cluster.ts';
import type { eventsRequests } from '../../../shared/contracts/events.ts';
import { err, ok } from '../../../shared/result.ts';
import type { EngineContext, Feature } from '../features.ts';
import type { CacheChange } from '../stream/cache.ts';
import { actionsOf } from './actions.ts';
import { createEventStore } from './event-store.ts';
import { createLineage } from './lineage.ts';
import { listEvents } from './list.ts';
import { normalizeEvent } from './normalize.ts';
import { createReconcileTracker, DEFAULT_STUCK_AFTER_MS, lagStats } from './reconciles.ts';
import { createReporterIndex } from './reporters.ts';
import { controllerSummaries, DEFAULT_BUCKETS, DEFAULT_RANGE_MS } from './summaries.ts';

export interface EventsFeatureOptions {
  /** Least time between two `events:changed` pushes (default 1 s). */
  throttleMs?: number;
  stuckAfterMs?: number;
  maxEvents?: number;
}

const DEFAULT_THROTTLE_MS = 1_000;
/** Timers further out than this are re-armed later (setTimeout's 32-bit limit, and sleep). */
const MAX_TIMER_MS = 60 * 60_000;

function rangeOf(query: { from?: number | undefined; to?: number | undefined }, now: number): { from: number; to: number } | string {
  const to = query.to ?? now;
  const from = query.from ?? to - DEFAULT_RANGE_MS;
  return from < to ? { from, to } : `The range must start before it ends (from ${new Date(from).toISOString()} is not before to ${new Date(to).toISOString()}).`;
}

export function createEventsFeature(context: EngineContext, options: EventsFeatureOptions = {}): Feature<typeof eventsRequests> {
  const throttleMs = options.throttleMs ?? DEFAULT_THROTTLE_MS;
  const stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
  const store = createEventStore(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {});
  // An operator's kind is reconciled by whoever reports Events about its objects.
  const reporters = createReporterIndex();
  const tracker = createReconcileTracker({ stuckAfterMs, controllerOf: (groupKind) => reporters.controllerFor(groupKind) });
  const lineage = createLineage();
  let revision = 0;
  let pushTimer: ReturnType<typeof setTimeout> | undefined;
  let stuckTimer: ReturnType<typeof setTimeout> | undefined;
  let stuckAt: number | null = null;

  function push(): void {
    pushTimer = undefined;
    context.hub.emit('events:changed', { revision, context: context.selected()?.name ?? null });
  }

  function changed(): void {
    revision += 1;
    if (pushTimer === undefined) {
      pushTimer = setTimeout(push, throttleMs);
      pushTimer.unref?.();
    }
  }

  /** Wakes up when the next ongoing reconcile turns stuck: nothing else would say so. */
  function armStuckTimer(): void {
    const now = context.now();
    const next = tracker.nextStuckAt(now);
    if (next === stuckAt) return;
    if (stuckTimer !== undefined) clearTimeout(stuckTimer);
    stuckTimer = undefined;
    stuckAt = next;
    if (next === null) return;
    stuckTimer = setTimeout(() => {
      stuckTimer = undefined;
      stuckAt = null;
      changed();
      armStuckTimer();
    }, Math.min(MAX_TIMER_MS, Math.max(0, next - now) + 1));
    stuckTimer.unref?.();
  }

  function onChange(change: CacheChange): void {
    const now = context.now();
    if (change.kind === BUILTIN_KEYS.Event) {
      if (change.type === 'upsert') {
        const record = normalizeEvent(change.object, now);
        store.upsert(record);
        reporters.note(record);
      } else store.expire(change.ref.uid);
      changed();
      return;
    }
    lineage.observe(change);
    if (tracker.observe(change, now)) {
      changed();
      armStuckTimer();
    }
  }

  function reset(): void {
    store.clear();
    reporters.clear();
    tracker.clear();
    lineage.clear();
    armStuckTimer();
    changed();
  }

  const unsubscribe = context.cache.onChange(onChange);
  const stopContext = context.onContextChange(reset);
  const cached = context.cache.listWithKinds();
  cached.objects.forEach((object, i) => onChange({ type: 'upsert', kind: cached.kinds[i] as KindKey, object, previous: undefined }));

  return {
    handlers: {
      'events:controllers': (query) => {
        const now = context.now();
        const range = rangeOf(query, now);
        if (typeof range === 'string') return err('invalid-request', range);
        return ok(controllerSummaries(store, tracker, { ...range, buckets: query.buckets ?? DEFAULT_BUCKETS }, now, stuckAfterMs));
      },
      'events:list': (query) => {
        if (query.from !== undefined && query.to !== undefined && query.from >= query.to) return err('invalid-request', 'The range must start before it ends.');
        return ok(listEvents(store.values(), query));
      },
      'events:reconciles': (query) => {
        const now = context.now();
        const from = query.from ?? -Infinity;
        const to = query.to ?? Infinity;
        if (from >= to) return err('invalid-request', 'The range must start before it ends.');
        const all = tracker.list({ controller: query.controller, uid: query.uid, from, to }, now);
        const completedLags = all.filter((r) => r.end !== null).map((r) => r.lagMs);
        const limit = query.limit ?? 500;
        return ok({ reconciles: all.slice(0, limit), total: all.length, lag: lagStats(completedLags) });
      },
      'events:actions': (query) => {
        if (query.from >= query.to) return err('invalid-request', 'The window must start before it ends.');
        const reconciles = tracker.list({ uid: query.uid, from: query.from, to: query.to }, context.now());
        const result = actionsOf(store.values(), lineage, query, reconciles);
        if (!result.workload) return err('not-found', `No workload with uid ${query.uid} has been seen in this context.`);
        return ok(result);
      },
    },
    dispose() {
      unsubscribe();
      stopContext();
      if (pushTimer !== undefined) clearTimeout(pushTimer);
      if (stuckTimer !== undefined) clearTimeout(stuckTimer);
    },
  };
}
