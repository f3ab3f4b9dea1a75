/**
 * One object for the graph's side panel: its node (health, status), owners (present or not),
 * why it drifts, desired-vs-actual lines, the raw spec and status side by side, its conditions
 * and the recent Events about it (core/v1 and events.k8s.io/v1 both arrive as core-shaped Events).
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { GraphEvent, GraphObject } from '../../../shared/contracts/graph.ts';
import { readConditions } from '../../../shared/conditions.ts';
import { objectStatus, type StatusSubject } from '../../../shared/object-status.ts';
import { isWorkloadKind, workloadState } from '../../../shared/workload-status.ts';
import { createdMs } from './collapse.ts';
import { describeObject } from './health.ts';
import { builtinNameOf, isFallbackKey, usedKeyOf } from './kinds.ts';
import { ownersOf, type GraphIndex } from './objects.ts';
import { desiredVsActual } from './pairs.ts';

/** Events shown per object, newest first. */
export const EVENT_LIMIT = 30;

interface EventView {
  involvedObject?: { uid?: string; kind?: string; name?: string; namespace?: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  series?: { count?: number; lastObservedTime?: string };
  eventTime?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  source?: { component?: string };
  reportingComponent?: string;
}

const timeOf = (value: string | undefined): number => {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
};

/** Whether an Event is about `object` (by uid, or by kind, namespace and name when it names no uid). */
export function isAbout(event: SlimObject, object: SlimObject): boolean {
  const involved = (event as EventView).involvedObject;
  if (!involved) return false;
  if (involved.uid) return involved.uid === object.metadata.uid;
  return involved.kind === object.kind && involved.name === object.metadata.name && (involved.namespace ?? '') === (object.metadata.namespace ?? '');
}

/** The uid an Event is about, if it names one. */
export function involvedUid(event: SlimObject): string | undefined {
  return (event as EventView).involvedObject?.uid || undefined;
}

/** The Events about an object as the panel lists them: newest first, at most EVENT_LIMIT. */
export function recentEvents(events: Iterable<SlimObject>): GraphEvent[] {
  const out: GraphEvent[] = [];
  for (const event of events) {
    const view = event as EventView;
    out.push({
      type: view.type ?? 'Normal',
      reason: view.reason ?? '',
      message: view.message ?? '',
      count: view.series?.count ?? view.count ?? 1,
      last: timeOf(view.series?.lastObservedTime) || timeOf(view.lastTimestamp) || timeOf(view.eventTime) || timeOf(view.firstTimestamp),
      source: view.reportingComponent || view.source?.component || '',
    });
  }
  return out.sort((a, b) => b.last - a.last).slice(0, EVENT_LIMIT);
}

function conditionsOf(object: SlimObject): GraphObject['conditions'] {
  return readConditions((object as { status?: { conditions?: unknown } }).status).map((condition) => ({
    type: condition.type,
    status: condition.status,
    ...(condition.reason ? { reason: condition.reason } : {}),
    ...(condition.message ? { message: condition.message } : {}),
    ...(Number.isNaN(condition.lastTransition) ? {} : { lastTransition: condition.lastTransition }),
  }));
}

/** States of the one status rule that say the object is not where its spec wants it. */
const UNSETTLED = new Set(['terminating', 'unobserved', 'progressing', 'drifting', 'failed']);

/** Why it is not in sync: a built-in workload's drift reasons, any other status-bearing object's verdict. */
function reasonsOf(object: SlimObject, index: GraphIndex): string[] {
  const name = builtinNameOf(object);
  if (name !== undefined) return isWorkloadKind(name) ? (workloadState(object).drift?.reasons ?? []) : [];
  if (usedKeyOf(object)) return [];
  const verdict = objectStatus(object as unknown as StatusSubject, { userRules: index.userRules });
  if (!UNSETTLED.has(verdict.state)) return [];
  return [verdict.message !== '' ? `${verdict.reason}: ${verdict.message}` : verdict.reason];
}

/** The side panel's view of `object`, with `events` already narrowed to those about it. */
export function objectDetail(object: SlimObject, index: GraphIndex, events: Iterable<SlimObject>, at: number | null): GraphObject {
  const description = describeObject(object, index);
  const created = createdMs(object);
  const raw = object as { spec?: unknown; status?: unknown };
  const kindKey = index.keyOf(object);
  return {
    at,
    node: {
      id: object.metadata.uid,
      kind: object.kind,
      ...(kindKey !== undefined && !isFallbackKey(kindKey) ? { kindKey } : {}),
      name: object.metadata.name,
      ...(object.metadata.namespace !== undefined ? { namespace: object.metadata.namespace } : {}),
      ...description,
      ...(created !== undefined ? { created } : {}),
    },
    apiVersion: object.apiVersion,
    uid: object.metadata.uid,
    labels: object.metadata.labels ?? {},
    owners: ownersOf(object).map((owner) => ({ kind: owner.kind, name: owner.name, uid: owner.uid, present: index.owner(owner) !== undefined })),
    reasons: reasonsOf(object, index),
    pairs: desiredVsActual(object, index),
    spec: raw.spec ?? null,
    status: raw.status ?? null,
    conditions: conditionsOf(object),
    events: recentEvents(events),
  };
}
