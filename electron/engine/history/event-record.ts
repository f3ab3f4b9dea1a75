/**
 * An Event (core/v1 shape: the cache keeps events.k8s.io/v1 Events in that shape too) as the
 * history keeps it. Its times come from the Event itself (lastTimestamp, the series' last
 * observation, eventTime), not from when the engine saw it, so a relist after a reconnect does
 * not move old Events to "now"; only an Event with no time at all takes the time it was seen.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { HistoryEvent } from '../../../shared/contracts/history.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function time(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** What the writer stores for one Event. */
export type EventRecord = HistoryEvent & { firstAt: number; objectUid: string | null };

export function eventRecord(object: SlimObject, seenAt: number): EventRecord {
  const event = object as SlimObject & Json;
  const involved = isObject(event['involvedObject']) ? event['involvedObject'] : {};
  const series = isObject(event['series']) ? event['series'] : {};
  const source = isObject(event['source']) ? event['source'] : {};
  const firstAt = time(event['firstTimestamp']) ?? time(event['eventTime']) ?? time(object.metadata.creationTimestamp) ?? seenAt;
  const lastAt = Math.max(firstAt, time(event['lastTimestamp']) ?? time(series['lastObservedTime']) ?? time(event['eventTime']) ?? firstAt);
  const rawCount = typeof series['count'] === 'number' ? series['count'] : event['count'];
  const namespace = text(involved['namespace']);
  return {
    uid: object.metadata.uid,
    at: lastAt,
    firstAt,
    type: text(event['type']) || 'Normal',
    reason: text(event['reason']),
    message: text(event['message']),
    count: typeof rawCount === 'number' && Number.isFinite(rawCount) ? Math.max(1, Math.trunc(rawCount)) : 1,
    source: text(source['component']) || text(event['reportingComponent']),
    object: { kind: text(involved['kind']), ...(namespace ? { namespace } : {}), name: text(involved['name']) },
    objectUid: text(involved['uid']) || null,
  };
}
