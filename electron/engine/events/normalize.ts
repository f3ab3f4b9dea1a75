/**
 * One cached Event (slim, core/v1 shape: the informers turn events.k8s.io/v1 objects into it)
 * as a flat record: who reported it, about what, when, how often. The two APIs and the two
 * client-go recorders fill different fields for the same thing, so every value has a fallback
 * chain: the new recorder leaves firstTimestamp/lastTimestamp/count empty and sets eventTime and
 * series; the legacy one does the opposite; both may set reportingComponent.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { EventType } from '../../../shared/contracts/events.ts';

/** Who reported an Event that names no component at all. */
export const UNKNOWN_CONTROLLER = '(unknown)';

/** The longest message kept (kubelet and scheduler messages can run to kilobytes). */
export const MAX_MESSAGE_CHARS = 1_000;

export interface EventRecord {
  uid: string;
  type: EventType;
  reason: string;
  message: string;
  controller: string;
  instance: string | undefined;
  /** The API group of the object (from its apiVersion; '' for the core group or when absent). */
  group: string;
  kind: string;
  namespace: string | undefined;
  name: string;
  objectUid: string | undefined;
  fieldPath: string | undefined;
  first: number;
  last: number;
  count: number;
  /**
   * Same object, type, reason, reporter and message, first seen in the same second: the same
   * occurrence, even as two Event objects (one per recorder). The legacy recorder would have
   * aggregated two such Events into one with a count, so they never are two real occurrences.
   */
  fingerprint: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A Kubernetes timestamp (RFC 3339, second or microsecond precision) in ms, or undefined. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

/** reportingController (events.k8s.io) = reportingComponent (core), then the legacy source.component. */
export function reporterOf(event: Json): { controller: string; instance: string | undefined } {
  const source = isObject(event['source']) ? event['source'] : {};
  return {
    controller: text(event['reportingComponent']) ?? text(source['component']) ?? UNKNOWN_CONTROLLER,
    instance: text(event['reportingInstance']) ?? text(source['host']),
  };
}

function times(event: Json, metadata: Json, fallback: number): { first: number; last: number; count: number } {
  const series = isObject(event['series']) ? event['series'] : {};
  const eventTime = parseTime(event['eventTime']);
  const firstTimestamp = parseTime(event['firstTimestamp']);
  const first = firstTimestamp ?? eventTime ?? parseTime(metadata['creationTimestamp']) ?? fallback;
  let last = first;
  for (const candidate of [parseTime(series['lastObservedTime']), parseTime(event['lastTimestamp']), eventTime]) {
    if (candidate !== undefined && candidate > last) last = candidate;
  }
  // series.count counts every occurrence (client-go starts a series at 2); a legacy count too.
  const count = Math.max(positiveInt(series['count']) ?? 1, positiveInt(event['count']) ?? 1);
  return { first, last, count };
}

/** The record of one slim Event; `now` dates an Event that carries no time at all. */
export function normalizeEvent(object: SlimObject, now: number): EventRecord {
  const event = object as unknown as Json;
  const metadata = object.metadata as unknown as Json;
  const regarding = isObject(event['involvedObject']) ? event['involvedObject'] : {};
  const { controller, instance } = reporterOf(event);
  const { first, last, count } = times(event, metadata, now);
  const rawMessage = typeof event['message'] === 'string' ? event['message'] : '';
  const message = rawMessage.length > MAX_MESSAGE_CHARS ? `${rawMessage.slice(0, MAX_MESSAGE_CHARS - 1)}…` : rawMessage;
  const kind = text(regarding['kind']) ?? '';
  const apiVersion = text(regarding['apiVersion']) ?? '';
  const slash = apiVersion.indexOf('/');
  const namespace = text(regarding['namespace']) ?? object.metadata.namespace;
  const name = text(regarding['name']) ?? '';
  const objectUid = text(regarding['uid']);
  const type: EventType = event['type'] === 'Warning' ? 'Warning' : 'Normal';
  const reason = text(event['reason']) ?? '';
  const objectKey = objectUid ?? `${kind}/${namespace ?? ''}/${name}`;
  return {
    uid: object.metadata.uid,
    type,
    reason,
    message,
    controller,
    instance,
    group: slash < 0 ? '' : apiVersion.slice(0, slash),
    kind,
    namespace,
    name,
    objectUid,
    fieldPath: text(regarding['fieldPath']),
    first,
    last,
    count,
    fingerprint: `${objectKey}\u0001${type}\u0001${reason}\u0001${controller}\u0001${Math.floor(first / 1000)}\u0001${rawMessage}`,
  };
}
