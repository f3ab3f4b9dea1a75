/**
 * What a workload's desired and actual state is, read from its slim object, per kind. Counts the
 * API server omits when zero (Go's omitempty) read as 0 for the kinds that have them; a field
 * that does not apply to a kind stays null, so its series is empty rather than a false zero.
 *
 * | kind        | desired                      | current              | ready          | available        | updated                | unavailable         |
 * |-------------|------------------------------|----------------------|----------------|------------------|------------------------|---------------------|
 * | Deployment  | spec.replicas (default 1)    | status.replicas      | readyReplicas  | availableReplicas| updatedReplicas        | unavailableReplicas |
 * | ReplicaSet  | spec.replicas (default 1)    | status.replicas      | readyReplicas  | availableReplicas| –                      | –                   |
 * | StatefulSet | spec.replicas (default 1)    | status.replicas      | readyReplicas  | availableReplicas| updatedReplicas        | –                   |
 * | DaemonSet   | desiredNumberScheduled       | currentNumberScheduled | numberReady  | numberAvailable  | updatedNumberScheduled | numberUnavailable   |
 * | Job         | spec.completions (default 1 unless parallel work queue) | active | ready | succeeded | –                | failed              |
 * | HPA         | status.desiredReplicas       | status.currentReplicas | –            | –                | –                      | –                   |
 *
 * Conditions: Available / Progressing (and Progressing's reason) for Deployments; for an HPA the
 * same two slots carry ScalingActive / AbleToScale (and AbleToScale's reason); for a Job the
 * Progressing slot carries `False` with the Failed condition's reason (BackoffLimitExceeded,
 * DeadlineExceeded...; `Failed` when it has none) once the Job failed, `True` + `Complete` once
 * it completed.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { HistoryKind } from '../../../shared/contracts/history.ts';
import { HISTORY_KINDS } from '../../../shared/contracts/history.ts';
import { EMPTY_VALUES, type SampleValues } from './sample-codec.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const HISTORY_KIND_SET: ReadonlySet<string> = new Set(HISTORY_KINDS);

export function isHistoryKind(kind: string): kind is HistoryKind {
  return HISTORY_KIND_SET.has(kind);
}

const int = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null);
const count = (value: unknown): number => int(value) ?? 0;

function conditionOf(status: Json, type: string): { status: SampleValues['availableCondition']; reason: string | null } {
  const conditions = Array.isArray(status['conditions']) ? status['conditions'] : [];
  for (const condition of conditions) {
    if (!isObject(condition) || condition['type'] !== type) continue;
    const value = condition['status'];
    const parsed = value === 'True' || value === 'False' || value === 'Unknown' ? value : null;
    return { status: parsed, reason: typeof condition['reason'] === 'string' ? condition['reason'] : null };
  }
  return { status: null, reason: null };
}

function replicaWorkload(object: SlimObject, spec: Json, status: Json, withUpdated: boolean, withUnavailable: boolean): SampleValues {
  const available = conditionOf(status, 'Available');
  const progressing = conditionOf(status, 'Progressing');
  return {
    ...EMPTY_VALUES,
    desired: int(spec['replicas']) ?? 1,
    current: count(status['replicas']),
    ready: count(status['readyReplicas']),
    available: count(status['availableReplicas']),
    updated: withUpdated ? count(status['updatedReplicas']) : null,
    unavailable: withUnavailable ? count(status['unavailableReplicas']) : null,
    generation: int(object.metadata.generation),
    observedGeneration: int(status['observedGeneration']),
    availableCondition: available.status,
    progressingCondition: progressing.status,
    progressingReason: progressing.reason,
  };
}

function daemonSet(object: SlimObject, status: Json): SampleValues {
  return {
    ...EMPTY_VALUES,
    desired: count(status['desiredNumberScheduled']),
    current: count(status['currentNumberScheduled']),
    ready: count(status['numberReady']),
    available: count(status['numberAvailable']),
    updated: count(status['updatedNumberScheduled']),
    unavailable: count(status['numberUnavailable']),
    generation: int(object.metadata.generation),
    observedGeneration: int(status['observedGeneration']),
  };
}

function job(object: SlimObject, spec: Json, status: Json): SampleValues {
  const failed = conditionOf(status, 'Failed');
  const complete = conditionOf(status, 'Complete');
  // A work-queue Job (parallelism set, completions unset) has no fixed number to reach.
  const completions = int(spec['completions']) ?? (spec['parallelism'] === undefined ? 1 : null);
  let progressingCondition: SampleValues['progressingCondition'] = null;
  let progressingReason: string | null = null;
  if (failed.status === 'True') [progressingCondition, progressingReason] = ['False', failed.reason ?? 'Failed'];
  else if (complete.status === 'True') [progressingCondition, progressingReason] = ['True', 'Complete'];
  return {
    ...EMPTY_VALUES,
    desired: completions,
    current: count(status['active']),
    ready: count(status['ready']),
    available: count(status['succeeded']),
    unavailable: count(status['failed']),
    generation: int(object.metadata.generation),
    progressingCondition,
    progressingReason,
  };
}

function hpa(object: SlimObject, status: Json): SampleValues {
  const active = conditionOf(status, 'ScalingActive');
  const able = conditionOf(status, 'AbleToScale');
  return {
    ...EMPTY_VALUES,
    desired: int(status['desiredReplicas']),
    current: int(status['currentReplicas']),
    generation: int(object.metadata.generation),
    observedGeneration: int(status['observedGeneration']),
    availableCondition: active.status,
    progressingCondition: able.status,
    progressingReason: able.reason,
  };
}

/** The sample values of a workload object of kind `kind` (a key), or null for a kind that is not recorded. */
export function sampleOf(object: SlimObject, kind: string): SampleValues | null {
  const spec = isObject(object['spec']) ? object['spec'] : {};
  const status = isObject(object['status']) ? object['status'] : {};
  switch (kind) {
    case BUILTIN_KEYS.Deployment:
      return replicaWorkload(object, spec, status, true, true);
    case BUILTIN_KEYS.StatefulSet:
      return replicaWorkload(object, spec, status, true, false);
    case BUILTIN_KEYS.ReplicaSet:
      return replicaWorkload(object, spec, status, false, false);
    case BUILTIN_KEYS.DaemonSet:
      return daemonSet(object, status);
    case BUILTIN_KEYS.Job:
      return job(object, spec, status);
    case BUILTIN_KEYS.HorizontalPodAutoscaler:
      return hpa(object, status);
    default:
      return null;
  }
}

/** The container images of a workload's pod template joined by `, ` (null for an HPA). */
export function imagesOf(object: SlimObject): string | null {
  const spec = isObject(object['spec']) ? object['spec'] : {};
  const template = isObject(spec['template']) ? spec['template'] : undefined;
  const podSpec = template && isObject(template['spec']) ? template['spec'] : undefined;
  if (!podSpec || !Array.isArray(podSpec['containers'])) return null;
  const images = podSpec['containers'].filter(isObject).map((c) => String(c['image'] ?? ''));
  return images.join(', ');
}

/** The uid of the object's controlling owner, if it has one. */
export function controllerOf(object: SlimObject): string | undefined {
  const owners = object.metadata.ownerReferences ?? [];
  return (owners.find((o) => o.controller) ?? owners[0])?.uid;
}
