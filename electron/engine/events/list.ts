/**
 * The `events:list` query: merged Events filtered by controller, range, reason, type,
 * namespace and object, newest first, one page at a time, with the values each filter can take
 * (counted within the controller and range, so picking a reason does not hide the others).
 */
import type { EventList, EventListQuery, EventObject, EventRow } from '../../../shared/contracts/events.ts';
import type { MergedEvent } from './event-store.ts';

/** Values per facet sent at most (most frequent first). */
const MAX_FACET_VALUES = 60;

export function toEventRow(event: MergedEvent): EventRow {
  const r = event.record;
  const object: EventObject = { kind: r.kind, name: r.name };
  if (r.namespace) object.namespace = r.namespace;
  if (r.objectUid) object.uid = r.objectUid;
  if (r.fieldPath) object.fieldPath = r.fieldPath;
  const row: EventRow = { id: event.id, type: r.type, reason: r.reason, message: r.message, controller: r.controller, object, first: event.first, last: event.last, count: event.count, expired: event.expired };
  if (r.instance) row.instance = r.instance;
  return row;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function facet(map: Map<string, number>): Array<{ value: string; count: number }> {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_FACET_VALUES)
    .map(([value, count]) => ({ value, count }));
}

/** Does the object filter (a substring of `Kind/name`, or the uid) match? */
export function objectMatches(event: MergedEvent, needle: string): boolean {
  const r = event.record;
  if (r.objectUid === needle) return true;
  return `${r.kind}/${r.name}`.toLowerCase().includes(needle.toLowerCase());
}

export function listEvents(events: Iterable<MergedEvent>, query: EventListQuery): EventList {
  const from = query.from ?? -Infinity;
  const to = query.to ?? Infinity;
  const reasons = new Map<string, number>();
  const namespaces = new Map<string, number>();
  const types = new Map<string, number>();
  const matches: MergedEvent[] = [];
  const needle = query.object?.trim() ?? '';
  for (const event of events) {
    const r = event.record;
    if (query.controller !== undefined && r.controller !== query.controller) continue;
    if (event.last < from || event.first > to) continue;
    bump(reasons, r.reason);
    bump(namespaces, r.namespace ?? '');
    bump(types, r.type);
    if (query.reason !== undefined && r.reason !== query.reason) continue;
    if (query.type !== undefined && r.type !== query.type) continue;
    if (query.namespace !== undefined && (r.namespace ?? '') !== query.namespace) continue;
    if (needle && !objectMatches(event, needle)) continue;
    matches.push(event);
  }
  matches.sort((a, b) => b.last - a.last || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    total: matches.length,
    offset: query.offset,
    events: matches.slice(query.offset, query.offset + query.limit).map(toEventRow),
    facets: { reasons: facet(reasons), namespaces: facet(namespaces), types: facet(types) },
  };
}
