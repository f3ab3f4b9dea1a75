/**
 * Overview rows: one per workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job,
 * CronJob) with its desired and actual replica counts and whether the two have drifted apart
 * (the rule itself lives in shared/workload-status.ts, which the graph shares). ReplicaSets run
 * by a Deployment are `managed`: their drift is the Deployment's, so the "All" view leaves them
 * out and the ReplicaSets filter shows them (as Lens keeps them on their own page).
 */
import type { Kind, SlimObject } from '../../../shared/cluster.ts';
import type { ConditionView } from '../../../shared/conditions.ts';
import { workloadState, type Drift, type Tone } from '../../../shared/workload-status.ts';
import { parseTime } from './format.ts';

export type { Drift, Tone };

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob'] as const satisfies readonly Kind[];
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export interface WorkloadRow {
  uid: string;
  kind: WorkloadKind;
  namespace: string;
  name: string;
  /** null where the kind has no such number (a CronJob's replicas, a ReplicaSet's up-to-date). */
  desired: number | null;
  ready: number | null;
  available: number | null;
  upToDate: number | null;
  /** Short state in the kubectl spirit: Ready, Rolling out, Stalled, Complete, Suspended... */
  status: string;
  tone: Tone;
  drift: Drift | null;
  conditions: ConditionView[];
  /** A ReplicaSet controlled by a Deployment. */
  managed: boolean;
  /** creationTimestamp in ms (NaN when unknown). */
  created: number;
  /** Lower-cased "kind namespace/name" for the text search. */
  search: string;
}

function isManaged(object: SlimObject): boolean {
  return object.kind === 'ReplicaSet' && (object.metadata.ownerReferences ?? []).some((owner) => owner.kind === 'Deployment' && owner.controller !== false);
}

/** One Overview row from a workload object. */
export function workloadRow(object: SlimObject): WorkloadRow {
  const { counts: c, conditions, drift, status, tone } = workloadState(object);
  const namespace = object.metadata.namespace ?? '';
  return {
    uid: object.metadata.uid,
    kind: object.kind as WorkloadKind,
    namespace,
    name: object.metadata.name,
    desired: c.desired,
    ready: c.ready,
    available: c.available,
    upToDate: c.upToDate,
    status,
    tone,
    drift,
    conditions,
    managed: isManaged(object),
    created: parseTime(object.metadata.creationTimestamp),
    search: `${object.kind} ${namespace}/${object.metadata.name}`.toLowerCase(),
  };
}
