/**
 * The `events:controllers` answer: every controller that reported Events in the range or
 * reconciled a workload, with its event counts and sparkline, reasons, Warning ratio, and its
 * reconcile lag and stuck reconciles. Busiest first.
 */
import type { ControllerSummary, ControllersResult } from '../../../shared/contracts/events.ts';
import type { EventStore } from './event-store.ts';
import { groupByController, round2, roundRate, timeBuckets, topReasons, type EventGroup } from './group.ts';
import type { ReconcileTracker } from './reconciles.ts';

export const DEFAULT_RANGE_MS = 60 * 60_000;
export const DEFAULT_BUCKETS = 30;

export interface ControllersQuery {
  from: number;
  to: number;
  buckets: number;
}

export function controllerSummaries(store: EventStore, tracker: ReconcileTracker, query: ControllersQuery, now: number, stuckAfterMs: number): ControllersResult {
  const buckets = timeBuckets(query.from, query.to, query.buckets);
  const groups = groupByController(store.values(), buckets);
  const empty = (name: string): EventGroup => ({ name, events: 0, occurrences: 0, warnings: 0, rate: new Array<number>(buckets.count).fill(0), warningRate: new Array<number>(buckets.count).fill(0), reasons: new Map(), lastEventAt: null });
  const names = new Set([...groups.keys(), ...tracker.controllers()]);
  const controllers: ControllerSummary[] = [...names].map((name) => {
    const group = groups.get(name) ?? empty(name);
    return {
      name,
      events: group.events,
      occurrences: round2(group.occurrences),
      warnings: round2(group.warnings),
      warningRatio: group.occurrences > 0 ? round2(group.warnings / group.occurrences) : 0,
      rate: roundRate(group.rate),
      warningRate: roundRate(group.warningRate),
      reasons: topReasons(group),
      lag: tracker.lag(name, query.from, query.to),
      ...tracker.ongoing(name, now),
      lastEventAt: group.lastEventAt,
    };
  });
  controllers.sort((a, b) => b.occurrences - a.occurrences || b.stuck - a.stuck || a.name.localeCompare(b.name));
  return { from: buckets.from, to: buckets.to, bucketMs: buckets.bucketMs, controllers, totalEvents: store.size(), since: store.since(), stuckAfterMs };
}
