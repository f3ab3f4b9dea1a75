/**
 * When a workload drifts, per kind, and when a rollout is over. A workload drifts while what the
 * cluster runs does not match what its spec asks for:
 *
 * - `generation`: the controller has not seen the latest spec (observedGeneration < generation).
 * - `ready`: the ready count differs from the desired count (too few, or too many while surplus
 *   pods wind down). For an HPA: its current replicas differ from the replicas it wants.
 * - `progressing`: the spec is still rolling out — fewer (or more) pods run the new template than
 *   desired (updated != desired; Deployments, StatefulSets, DaemonSets) while the controller is
 *   still at it. A rollout stuck on a bad image keeps the old pods ready and would hide behind
 *   `ready` alone; this is what shows it. For a Job: it is retrying after failed pods.
 * - `stalled`: the controller gave up — Progressing=False (ProgressDeadlineExceeded, a
 *   ReplicaSet it could not create); a Job that failed (BackoffLimitExceeded, its deadline); an
 *   HPA with ScalingActive=False (it cannot compute a replica count, e.g. metrics are missing).
 *   Only this is a failure: a scale-up or a first rollout is `progressing`, never `stalled`.
 *
 * A running Job that has not completed yet is not drift: it is doing what it was asked to.
 * The gap is |desired - ready| (HPA: |desired - current|; Job: completions not yet succeeded).
 *
 * Any other kind recorded (a custom resource) drifts by its status rule's state (custom-sample.ts).
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { DriftReason } from '../../../shared/contracts/history.ts';
import { customDrift, customRolloutComplete } from './custom-sample.ts';
import type { SampleValues } from './sample-codec.ts';
import { isHistoryKind } from './sample.ts';

export interface Drift {
  reasons: DriftReason[];
  gap: number;
}

export const NO_DRIFT: Drift = { reasons: [], gap: 0 };

const differs = (a: number | null, b: number | null): boolean => a !== null && b !== null && a !== b;

function generationBehind(values: SampleValues): boolean {
  return values.generation !== null && values.observedGeneration !== null && values.observedGeneration < values.generation;
}

function replicaDrift(kind: string, values: SampleValues): Drift {
  const reasons: DriftReason[] = [];
  if (generationBehind(values)) reasons.push('generation');
  if (differs(values.ready, values.desired)) reasons.push('ready');
  const stalled = values.progressingCondition === 'False';
  if (stalled) reasons.push('stalled');
  else if (kind !== BUILTIN_KEYS.ReplicaSet && differs(values.updated, values.desired)) reasons.push('progressing');
  return { reasons, gap: Math.abs((values.desired ?? 0) - (values.ready ?? 0)) };
}

function jobDrift(values: SampleValues): Drift {
  const failed = values.progressingCondition === 'False';
  const complete = values.progressingCondition === 'True';
  const retrying = !complete && (values.unavailable ?? 0) > 0;
  if (!failed && !retrying) return NO_DRIFT;
  return { reasons: [failed ? 'stalled' : 'progressing'], gap: Math.max(0, (values.desired ?? 0) - (values.available ?? 0)) };
}

function hpaDrift(values: SampleValues): Drift {
  const reasons: DriftReason[] = [];
  if (generationBehind(values)) reasons.push('generation');
  if (differs(values.current, values.desired)) reasons.push('ready');
  if (values.availableCondition === 'False') reasons.push('stalled');
  return { reasons, gap: Math.abs((values.desired ?? 0) - (values.current ?? 0)) };
}

/** Whether (and why, and by how much) a workload of `kind` (a key) with these values drifts. */
export function driftOf(kind: string, values: SampleValues): Drift {
  if (!isHistoryKind(kind)) return customDrift(values);
  switch (kind) {
    case BUILTIN_KEYS.Job:
      return jobDrift(values);
    case BUILTIN_KEYS.HorizontalPodAutoscaler:
      return hpaDrift(values);
    default:
      return replicaDrift(kind, values);
  }
}

/**
 * Whether the rollout of `generation` is over: the controller has caught up and, per kind, the
 * new spec runs everywhere — a Deployment has all replicas updated and available, no surplus,
 * and (when it has a progress deadline) reports Progressing=True NewReplicaSetAvailable; a StatefulSet or DaemonSet
 * has every pod updated and ready; a ReplicaSet, Job or HPA only needs to have observed it.
 */
export function rolloutComplete(kind: string, values: SampleValues, generation: number): boolean {
  if (!isHistoryKind(kind)) return customRolloutComplete(values, generation);
  const observed = values.observedGeneration;
  if (kind !== BUILTIN_KEYS.Job && (observed === null || observed < generation)) return false;
  switch (kind) {
    case BUILTIN_KEYS.Deployment: {
      // The condition can still carry the previous rollout's NewReplicaSetAvailable for one
      // status write; the counts (upstream's DeploymentComplete) settle that.
      const settled = values.updated === values.desired && values.available === values.desired && values.current === values.desired;
      if (values.progressingCondition === null) return settled;
      return settled && values.progressingCondition === 'True' && values.progressingReason === 'NewReplicaSetAvailable';
    }
    case BUILTIN_KEYS.StatefulSet:
    case BUILTIN_KEYS.DaemonSet:
      return values.updated === values.desired && values.ready === values.desired;
    default:
      return true;
  }
}
