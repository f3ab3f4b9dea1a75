/**
 * Per reporting controller over a time range: how many Events, how often over time (the
 * sparkline's buckets), which reasons, how many Warnings. One pass over the merged Events.
 *
 * A repeated Event is one object with a count and a first/last time, not one entry per
 * occurrence, so its occurrences are spread: the first at `first`, the other count - 1 evenly
 * over first..last. A crash loop's BackOff then shows as a steady rate rather than one spike,
 * and a range that cuts a series gets its share of it.
 */
import type { EventType, ReasonCount } from '../../../shared/contracts/events.ts';
import type { MergedEvent } from './event-store.ts';

export interface TimeBuckets {
  from: number;
  to: number;
  count: number;
  bucketMs: number;
}

/** What grouping finds for one controller (its reconcile lag is added by the feature). */
export interface EventGroup {
  name: string;
  events: number;
  occurrences: number;
  warnings: number;
  rate: number[];
  warningRate: number[];
  reasons: Map<string, { reason: string; type: EventType; count: number }>;
  lastEventAt: number | null;
}

export function timeBuckets(from: number, to: number, count: number): TimeBuckets {
  const span = Math.max(1, to - from);
  return { from, to: from + span, count, bucketMs: span / count };
}

function newGroup(name: string, buckets: number): EventGroup {
  return {
    name,
    events: 0,
    occurrences: 0,
    warnings: 0,
    rate: new Array<number>(buckets).fill(0),
    warningRate: new Array<number>(buckets).fill(0),
    reasons: new Map(),
    lastEventAt: null,
  };
}

function bucketOf(t: number, b: TimeBuckets): number {
  return Math.min(b.count - 1, Math.max(0, Math.floor((t - b.from) / b.bucketMs)));
}

/** Adds `weight` spread evenly over [start, end) (start < end, clipped to the range) into `rate`. */
function spread(rate: number[], start: number, end: number, weight: number, b: TimeBuckets): void {
  const span = end - start;
  for (let index = bucketOf(start, b); index < b.count; index += 1) {
    const lo = Math.max(start, b.from + index * b.bucketMs);
    const hi = Math.min(end, b.from + (index + 1) * b.bucketMs);
    if (hi <= lo) break;
    rate[index] = (rate[index] ?? 0) + (weight * (hi - lo)) / span;
  }
}

/**
 * Occurrences of one Event inside the range and where they fall; adds them to `rates` (one or
 * two arrays, e.g. all and Warning-only). Returns the number of occurrences in the range.
 */
export function addOccurrences(event: Pick<MergedEvent, 'first' | 'last' | 'count'>, b: TimeBuckets, rates: readonly number[][]): number {
  let total = 0;
  if (event.first >= b.from && event.first <= b.to) {
    const index = bucketOf(event.first, b);
    for (const rate of rates) rate[index] = (rate[index] ?? 0) + 1;
    total += 1;
  }
  const repeats = event.count - 1;
  if (repeats <= 0) return total;
  const span = event.last - event.first;
  if (span <= 0) {
    // All repeats at one instant (a series seen once): they belong where the first one is.
    if (event.first < b.from || event.first > b.to) return total;
    const index = bucketOf(event.first, b);
    for (const rate of rates) rate[index] = (rate[index] ?? 0) + repeats;
    return total + repeats;
  }
  const start = Math.max(event.first, b.from);
  const end = Math.min(event.last, b.to);
  if (end <= start) return total;
  const weight = (repeats * (end - start)) / span;
  for (const rate of rates) spread(rate, start, end, weight, b);
  return total + weight;
}

/** Groups merged Events by reporting controller over `buckets`. Controllers without any in range are left out. */
export function groupByController(events: Iterable<MergedEvent>, b: TimeBuckets): Map<string, EventGroup> {
  const groups = new Map<string, EventGroup>();
  for (const event of events) {
    if (event.last < b.from || event.first > b.to) continue;
    const { record } = event;
    let group = groups.get(record.controller);
    if (!group) {
      group = newGroup(record.controller, b.count);
      groups.set(record.controller, group);
    }
    const warning = record.type === 'Warning';
    const occurrences = addOccurrences(event, b, warning ? [group.rate, group.warningRate] : [group.rate]);
    if (occurrences <= 0) continue;
    group.events += 1;
    group.occurrences += occurrences;
    if (warning) group.warnings += occurrences;
    const key = `${record.type}\u0001${record.reason}`;
    const reason = group.reasons.get(key);
    if (reason) reason.count += occurrences;
    else group.reasons.set(key, { reason: record.reason, type: record.type, count: occurrences });
    const lastInRange = Math.min(event.last, b.to);
    if (group.lastEventAt === null || lastInRange > group.lastEventAt) group.lastEventAt = lastInRange;
  }
  return groups;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The most frequent reasons first (Warnings before Normal on a tie), at most `limit`. */
export function topReasons(group: EventGroup, limit = 8): ReasonCount[] {
  return [...group.reasons.values()]
    .sort((a, b) => b.count - a.count || (a.type === b.type ? a.reason.localeCompare(b.reason) : a.type === 'Warning' ? -1 : 1))
    .slice(0, limit)
    .map((reason) => ({ ...reason, count: round2(reason.count) }));
}

/** Rounds the sparkline values for the wire (fractions come from spread series). */
export const roundRate = (rate: readonly number[]): number[] => rate.map(round2);
export { round2 };
