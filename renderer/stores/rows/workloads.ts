/**
 * Overview rows: one per workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job,
 * CronJob) with its desired and actual replica counts and whether the two have drifted apart
 * (the rule itself lives in shared/workload-status.ts, which the graph shares). ReplicaSets run
 * by a Deployment are `managed`: their drift is the Deployment's, so the "All" view leaves them
 * out and the ReplicaSets filter shows them (as Lens keeps them on their own page).
 */
import { BUILTIN_KEYS, BUILTIN_RESOLVER } from '../../../shared/builtin-kinds.ts';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { ConditionView } from '../../../shared/conditions.ts';
import { workloadState, type Drift, type Tone } from '../../../shared/workload-status.ts';
import { parseTime } from './format.ts';

export type { Drift, Tone };

/** The workload kinds, by kind key. */
export const WORKLOAD_KINDS = [
  BUILTIN_KEYS.Deployment,
  BUILTIN_KEYS.StatefulSet,
  BUILTIN_KEYS.DaemonSet,
  BUILTIN_KEYS.ReplicaSet,
  BUILTIN_KEYS.Job,
  BUILTIN_KEYS.CronJob,
] as const satisfies readonly KindKey[];
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export interface WorkloadRow {
  uid: string;
  /** The kind key. */
  kind: WorkloadKind;
  /** The object's Kubernetes kind, as shown (`Deployment`). */
  kindName: string;
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

/** One Overview row from a workload object (of one of WORKLOAD_KINDS, by its group and kind). */
export function workloadRow(object: SlimObject): WorkloadRow {
  const { counts: c, conditions, drift, status, tone } = workloadState(object);
  const namespace = object.metadata.namespace ?? '';
  return {
    uid: object.metadata.uid,
    kind: BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind) as WorkloadKind,
    kindName: object.kind,
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
