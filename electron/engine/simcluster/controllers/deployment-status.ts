/**
 * Deployment status as upstream computes it (sync.go / progress.go): replica counts summed
 * over the ReplicaSets, the Available condition against maxUnavailable, and the Progressing
 * condition's life cycle (NewReplicaSetCreated / FoundNewReplicaSet -> ReplicaSetUpdated ->
 * NewReplicaSetAvailable, or ProgressDeadlineExceeded once progressDeadlineSeconds pass without
 * progress; DeploymentPaused / DeploymentResumed).
 */
import type { KubeObject } from '../types.ts';
import { getCondition, setCondition, timestamp, type Condition, type ConditionStatus } from './conditions.ts';
import type { DeploymentSync } from './deployment-sync.ts';
import { maxUnavailable, rsSpecReplicas, rsStatus } from './deployment-util.ts';

interface Counts {
  observedGeneration: number;
  replicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  unavailableReplicas: number;
}

interface NewStatus extends Counts {
  /** Holder for setCondition, which edits `conditions` in place. */
  holder: { conditions: Condition[] };
}

const COUNT_FIELDS = ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'] as const;

function countsOf(status: unknown): Counts {
  const s = (status as Record<string, number> | undefined) ?? {};
  return {
    observedGeneration: s['observedGeneration'] ?? 0,
    replicas: s['replicas'] ?? 0,
    updatedReplicas: s['updatedReplicas'] ?? 0,
    readyReplicas: s['readyReplicas'] ?? 0,
    availableReplicas: s['availableReplicas'] ?? 0,
    unavailableReplicas: s['unavailableReplicas'] ?? 0,
  };
}

/** DeploymentStatus JSON: zero counts omitted, as Go's omitempty does. */
function serialize(sync: DeploymentSync, status: NewStatus): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (status.observedGeneration) out['observedGeneration'] = status.observedGeneration;
  for (const field of COUNT_FIELDS) if (status[field]) out[field] = status[field];
  if (status.holder.conditions.length > 0) out['conditions'] = status.holder.conditions;
  const collisionCount = (sync.d['status'] as { collisionCount?: number } | undefined)?.collisionCount;
  if (collisionCount !== undefined) out['collisionCount'] = collisionCount;
  return out;
}

/** calculateStatus: counts over all ReplicaSets, and the Available condition. */
function calculateStatus(sync: DeploymentSync, allRSs: KubeObject[], newRS: KubeObject | undefined): NewStatus {
  const sum = (list: KubeObject[], pick: (rs: KubeObject) => number): number => list.reduce((total, rs) => total + pick(rs), 0);
  const available = sum(allRSs, (rs) => rsStatus(rs, 'availableReplicas'));
  const total = sum(allRSs, rsSpecReplicas);
  const conditions = structuredClone(((sync.d['status'] as { conditions?: Condition[] } | undefined)?.conditions) ?? []);
  const status: NewStatus = {
    observedGeneration: sync.d.metadata.generation ?? 0,
    replicas: sum(allRSs, (rs) => rsStatus(rs, 'replicas')),
    updatedReplicas: newRS ? rsStatus(newRS, 'replicas') : 0,
    readyReplicas: sum(allRSs, (rs) => rsStatus(rs, 'readyReplicas')),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    holder: { conditions },
  };
  const now = sync.now();
  if (available >= sync.spec.replicas - maxUnavailable(sync.spec)) {
    setDeploymentCondition(status.holder, 'Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now);
  } else {
    setDeploymentCondition(status.holder, 'Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', now);
  }
  return status;
}

/** SetDeploymentCondition: a condition with the same status and reason is left alone. */
function setDeploymentCondition(holder: { conditions: Condition[] }, type: string, status: ConditionStatus, reason: string, message: string, now: number): void {
  const current = holder.conditions.find((c) => c.type === type);
  if (current && current.status === status && current.reason === reason) return;
  setCondition(holder as unknown as Record<string, unknown>, type, status, reason, message, now, { updateTimeField: 'lastUpdateTime' });
}

/** deploymentutil.DeploymentComplete. */
function isComplete(sync: DeploymentSync, status: Counts): boolean {
  const desired = sync.spec.replicas;
  return status.updatedReplicas === desired && status.replicas === desired && status.availableReplicas === desired && status.observedGeneration >= (sync.d.metadata.generation ?? 0);
}

/** deploymentutil.DeploymentProgressing: any counted step forward since the last status. */
function isProgressing(old: Counts, next: Counts): boolean {
  return (
    next.updatedReplicas > old.updatedReplicas ||
    next.replicas - next.updatedReplicas < old.replicas - old.updatedReplicas ||
    next.readyReplicas > old.readyReplicas ||
    next.availableReplicas > old.availableReplicas
  );
}

function deadlineMs(sync: DeploymentSync): number {
  return ((sync.spec.progressDeadlineSeconds ?? 0) * 1000) / sync.options.speed;
}

function isTimedOut(sync: DeploymentSync, holder: { conditions: Condition[] }): boolean {
  const condition = holder.conditions.find((c) => c.type === 'Progressing');
  if (!condition || sync.spec.progressDeadlineSeconds === undefined) return false;
  if (condition.reason === 'NewReplicaSetAvailable') return false;
  if (condition.reason === 'ProgressDeadlineExceeded') return true;
  return Date.parse(condition.lastUpdateTime ?? '') + deadlineMs(sync) < sync.now();
}

/** syncDeploymentStatus: counts and Available only (scaling, paused, deleting). */
export function syncDeploymentStatus(sync: DeploymentSync, allRSs: KubeObject[], newRS: KubeObject | undefined): void {
  sync.writeStatus(serialize(sync, calculateStatus(sync, allRSs, newRS)));
}

/** syncRolloutStatus: counts plus the Progressing life cycle, requeueing stuck rollouts. */
export function syncRolloutStatus(sync: DeploymentSync, allRSs: KubeObject[], newRS: KubeObject | undefined): void {
  const status = calculateStatus(sync, allRSs, newRS);
  const { holder } = status;
  const hasDeadline = sync.spec.progressDeadlineSeconds !== undefined;
  if (!hasDeadline) holder.conditions = holder.conditions.filter((c) => c.type !== 'Progressing');
  const current = getCondition(sync.d['status'], 'Progressing');
  const rolloutDone = status.replicas === status.updatedReplicas && current?.reason === 'NewReplicaSetAvailable';
  const now = sync.now();
  const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${sync.d.metadata.name}"`;
  if (hasDeadline && !rolloutDone) {
    if (isComplete(sync, status)) {
      setDeploymentCondition(holder, 'Progressing', 'True', 'NewReplicaSetAvailable', `${subject} has successfully progressed.`, now);
    } else if (isProgressing(countsOf(sync.d['status']), status)) {
      // Progress refreshes lastUpdateTime even with an unchanged reason, and moves the
      // condition to the end of the list, exactly as upstream's remove-then-set does.
      const at = timestamp(now);
      holder.conditions = holder.conditions.filter((c) => c.type !== 'Progressing');
      holder.conditions.push({
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: at,
        lastTransitionTime: current?.status === 'True' && current.lastTransitionTime ? current.lastTransitionTime : at,
        reason: 'ReplicaSetUpdated',
        message: `${subject} is progressing.`,
      });
    } else if (isTimedOut(sync, holder)) {
      setDeploymentCondition(holder, 'Progressing', 'False', 'ProgressDeadlineExceeded', `${subject} has timed out progressing.`, now);
    }
  }
  copyReplicaFailure(holder, allRSs, newRS);
  const serialized = serialize(sync, status);
  if (JSON.stringify(serialized) === JSON.stringify(sync.d['status'] ?? {})) {
    requeueStuck(sync, status);
    return;
  }
  sync.writeStatus(serialized);
}

/**
 * getReplicaFailures: the new ReplicaSet's ReplicaFailure (else an old one's) becomes the
 * Deployment's, timed by the ReplicaSet's transition; none left removes it.
 */
function copyReplicaFailure(holder: { conditions: Condition[] }, allRSs: KubeObject[], newRS: KubeObject | undefined): void {
  const failure = [newRS, ...allRSs].map((rs) => (rs ? getCondition(rs['status'], 'ReplicaFailure') : undefined)).find((c) => c !== undefined);
  const current = holder.conditions.find((c) => c.type === 'ReplicaFailure');
  if (!failure) {
    holder.conditions = holder.conditions.filter((c) => c.type !== 'ReplicaFailure');
    return;
  }
  if (current && current.status === failure.status && current.reason === failure.reason) return;
  const at = failure.lastTransitionTime;
  holder.conditions = [
    ...holder.conditions.filter((c) => c.type !== 'ReplicaFailure'),
    { type: 'ReplicaFailure', status: failure.status, ...(at ? { lastUpdateTime: at, lastTransitionTime: at } : {}), ...(failure.reason ? { reason: failure.reason } : {}), ...(failure.message ? { message: failure.message } : {}) },
  ];
}

/** requeueStuckDeployment: look again when the progress deadline would pass. */
function requeueStuck(sync: DeploymentSync, status: NewStatus): void {
  const current = getCondition(sync.d['status'], 'Progressing');
  if (sync.spec.progressDeadlineSeconds === undefined || !current) return;
  if (isComplete(sync, status) || current.reason === 'ProgressDeadlineExceeded') return;
  const after = Date.parse(current.lastUpdateTime ?? '') + deadlineMs(sync) - sync.now();
  if (Number.isFinite(after)) sync.requeueAfter(Math.max(1, after + 1));
}

/** checkPausedConditions: Progressing=Unknown DeploymentPaused / DeploymentResumed. */
export function checkPausedConditions(sync: DeploymentSync): void {
  if (sync.spec.progressDeadlineSeconds === undefined) return;
  const current = getCondition(sync.d['status'], 'Progressing');
  if (current?.reason === 'ProgressDeadlineExceeded') return;
  const pausedShown = current?.reason === 'DeploymentPaused';
  if (sync.spec.paused === pausedShown) return;
  const status = sync.statusCopy();
  const opts = { updateTimeField: 'lastUpdateTime' } as const;
  if (sync.spec.paused && !pausedShown) {
    setCondition(status, 'Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', sync.now(), opts);
  } else if (!sync.spec.paused && pausedShown) {
    setCondition(status, 'Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed', sync.now(), opts);
  } else {
    return;
  }
  sync.writeStatus(status);
}
