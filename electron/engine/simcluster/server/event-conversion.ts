/**
 * events.k8s.io/v1 Events are the core/v1 Events seen through a conversion, as in
 * kube-apiserver (one stored object, two APIs). The field renames follow upstream's
 * pkg/apis/events/v1 conversion.
 */
import type { KubeObject } from '../types.ts';

/** [core/v1 field, events.k8s.io/v1 field] */
const RENAMES: Array<[string, string]> = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['reportingComponent', 'reportingController'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];

/** Fields with the same name in both versions. */
const SHARED = ['metadata', 'eventTime', 'series', 'related', 'action', 'reason', 'type', 'reportingInstance'];

function rename(object: KubeObject, apiVersion: string, pairs: Array<[string, string]>): KubeObject {
  const out: Record<string, unknown> = { kind: 'Event', apiVersion };
  for (const field of SHARED) if (object[field] !== undefined) out[field] = object[field];
  for (const [from, to] of pairs) if (object[from] !== undefined) out[to] = object[from];
  return out as KubeObject;
}

/** A stored core/v1 Event as events.k8s.io/v1 shows it. */
export function coreToEventsV1(object: KubeObject): KubeObject {
  return rename(object, 'events.k8s.io/v1', RENAMES);
}

/** An events.k8s.io/v1 Event in its stored core/v1 form. */
export function eventsV1ToCore(object: KubeObject): KubeObject {
  return rename(
    object,
    'v1',
    RENAMES.map(([core, events]) => [events, core]),
  );
}

/** Field selector names of events.k8s.io/v1 mapped onto the stored core/v1 fields. */
export function eventsV1FieldToCore(field: string): string {
  if (field.startsWith('regarding.')) return `involvedObject.${field.slice('regarding.'.length)}`;
  if (field === 'reportingController') return 'reportingComponent';
  return field;
}
