/**
 * Overview rows of custom resources, beside the workload rows (workloads.ts): the object's state
 * from the generic desired-vs-actual rule (shared/object-status.ts, the same the engine uses),
 * with the cluster's own reason and message. A custom resource has no replica counts here, so
 * those fields are null and the table shows "—"; a failed or drifting one carries a Drift, so
 * "Drifting only" and the drift badge treat it like a workload.
 */
import { BUILTIN_RESOLVER, type KindResolver } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { readConditions, type ConditionView } from '../../../shared/conditions.ts';
import type { ObjectState } from '../../../shared/contracts/status-rules.ts';
import { tryParseApiVersion } from '../../../shared/kinds.ts';
import { objectStatus, type ObjectStatusOptions, type StatusSubject } from '../../../shared/object-status.ts';
import { parseTime } from './format.ts';
import { WORKLOAD_KINDS, workloadRow, type Drift, type Tone, type WorkloadRow } from './workloads.ts';

/** The state as the Status column says it. */
export const STATE_LABELS: Readonly<Record<ObjectState, string>> = {
  terminating: 'Terminating',
  unobserved: 'Unobserved',
  progressing: 'Progressing',
  drifting: 'Drifting',
  failed: 'Failed',
  suspended: 'Suspended',
  current: 'Current',
  // Neutral on purpose: no signal is not health (issue #17; Headlamp paints these green).
  none: 'No status',
};

export interface CustomRow {
  uid: string;
  /** The kind key (`certificates.cert-manager.io`). */
  kind: string;
  /** The object's Kubernetes kind, as shown (`Certificate`). */
  kindName: string;
  /** The API group (`cert-manager.io`). */
  group: string;
  namespace: string;
  name: string;
  desired: null;
  ready: null;
  available: null;
  upToDate: null;
  /** STATE_LABELS of the state. */
  status: string;
  tone: Tone;
  state: ObjectState;
  /** The cluster's words: a condition's reason and message verbatim ('' when it said nothing). */
  reason: string;
  message: string;
  drift: Drift | null;
  conditions: ConditionView[];
  managed: false;
  /** creationTimestamp in ms (NaN when unknown). */
  created: number;
  /** Lower-cased "kind key namespace/name state reason" for the text search. */
  search: string;
  custom: true;
}

/** A row of the Overview: a workload or a custom resource. */
export type OverviewRow = WorkloadRow | CustomRow;

export function isCustomRow(row: OverviewRow): row is CustomRow {
  return 'custom' in row;
}

/** The reason and message in one line, for the Why cell and its tooltip. */
export function verdictText(row: Pick<CustomRow, 'reason' | 'message'>): string {
  if (row.reason && row.message) return `${row.reason}: ${row.message}`;
  return row.message || row.reason;
}

/** States that mean desired and actual disagree with no controller closing the gap right now. */
function driftOf(state: ObjectState, reason: string, message: string): Drift | null {
  if (state !== 'failed' && state !== 'drifting' && state !== 'unobserved') return null;
  const summary = reason || STATE_LABELS[state];
  return { severity: state === 'failed' ? 'danger' : 'warning', reasons: [verdictText({ reason, message }) || summary], summary };
}

/** One Overview row from a custom resource of kind `kind` (its key). */
export function customRow(object: SlimObject, kind: string, options: ObjectStatusOptions = {}): CustomRow {
  const verdict = objectStatus(object as unknown as StatusSubject, options);
  const namespace = object.metadata.namespace ?? '';
  const group = tryParseApiVersion(object.apiVersion)?.group ?? '';
  const status = STATE_LABELS[verdict.state];
  return {
    uid: object.metadata.uid,
    kind,
    kindName: object.kind,
    group,
    namespace,
    name: object.metadata.name,
    desired: null,
    ready: null,
    available: null,
    upToDate: null,
    status,
    tone: verdict.tone,
    state: verdict.state,
    reason: verdict.reason,
    message: verdict.message,
    drift: driftOf(verdict.state, verdict.reason, verdict.message),
    conditions: readConditions((object as { status?: { conditions?: unknown } }).status),
    managed: false,
    created: parseTime(object.metadata.creationTimestamp),
    search: `${object.kind} ${kind} ${namespace}/${object.metadata.name} ${status} ${verdict.reason}`.toLowerCase(),
    custom: true,
  };
}

const WORKLOAD_KEYS: ReadonlySet<string> = new Set(WORKLOAD_KINDS);

/**
 * The row builder of the Overview: workload rows for the built-in workload kinds, custom rows for
 * the kinds `resolver` knows (discovery's custom kinds). An object of a kind neither knows is
 * named by its group and kind, as kubectl would (`Widget.example.com`).
 */
export function overviewRowBuilder(resolver: KindResolver, options: ObjectStatusOptions = {}): (object: SlimObject) => OverviewRow {
  return (object) => {
    const builtin = BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind);
    if (builtin !== undefined && WORKLOAD_KEYS.has(builtin)) return workloadRow(object);
    const group = tryParseApiVersion(object.apiVersion)?.group ?? '';
    return customRow(object, resolver.keyOf(object.apiVersion, object.kind) ?? (group ? `${object.kind}.${group}` : object.kind), options);
  };
}
