/**
 * The recent Events about one object, read through the events feature's normaliser (both Event
 * APIs, both recorders), newest first. An Event object is replaced, never changed, on update, so
 * its reading is kept per object.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { eventToCore } from '../cluster/informers/slim.ts';
import { normalizeEvent, type EventRecord } from '../events/normalize.ts';
import type { CauseView } from './types.ts';

const records = new WeakMap<SlimObject, EventRecord>();

function recordOf(event: SlimObject, now: number): EventRecord {
  let record = records.get(event);
  if (!record) {
    // The cache holds the core/v1 shape; an events.k8s.io/v1 object given as listed is read as one.
    const raw = event as unknown as Record<string, unknown>;
    const core = raw['involvedObject'] === undefined && raw['regarding'] !== undefined ? ({ ...eventToCore(raw), apiVersion: event.apiVersion, kind: event.kind, metadata: event.metadata } as unknown as SlimObject) : event;
    record = normalizeEvent(core, now);
    records.set(event, record);
  }
  return record;
}

/** The Events about `uid`, newest (by last occurrence) first. */
export function eventsOf(view: CauseView, uid: string, now: number): EventRecord[] {
  const about = view.eventsAbout(uid);
  if (about.length === 0) return [];
  return about.map((event) => recordOf(event, now)).sort((a, b) => b.last - a.last);
}

/** The newest Event with one of `reasons` (and a message starting with `prefix`, when given). */
export function latestEvent(events: readonly EventRecord[], reasons: readonly string[], prefix?: string): EventRecord | undefined {
  return events.find((event) => reasons.includes(event.reason) && (prefix === undefined || event.message.startsWith(prefix)));
}

/**
 * When the first of `events` with one of `reasons` happened; `prefixes` (one per reason, when
 * given) tells a reason's meanings apart: the kubelet's BackOff is a pull back-off or a crash back-off.
 */
export function firstOf(events: readonly EventRecord[], reasons: readonly string[], prefixes?: readonly string[]): number | undefined {
  let first: number | undefined;
  for (const event of events) {
    const index = reasons.indexOf(event.reason);
    if (index < 0 || (prefixes && !event.message.startsWith(prefixes[index] ?? ''))) continue;
    if (first === undefined || event.first < first) first = event.first;
  }
  return first;
}
