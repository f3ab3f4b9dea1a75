/**
 * What controllers say about the objects they run, in their words: a Deployment past its
 * progress deadline or paused, a ReplicaSet (or any pod-making controller) refused by quota, a
 * limit range or an admission webhook, a Job past its backoffLimit, an HPA that cannot get
 * metrics or scale, and any other object's failing condition (custom resources).
 */
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { findCondition, readConditions, type ConditionView } from '../../../shared/conditions.ts';
import { objectStatus } from '../../../shared/object-status.ts';
import { eventsOf } from './events.ts';
import { linkOf, section } from './objects.ts';
import type { Cause, CauseCode, ObjectLink } from './types.ts';
import type { FinderContext } from './pods.ts';

function conditionsOf(object: SlimObject): ConditionView[] {
  return readConditions(section(object, 'status') as { conditions?: unknown });
}

const conditionText = (condition: ConditionView): string => `${condition.type}=${condition.status}${condition.reason ? ` (${condition.reason})` : ''}${condition.message ? `: ${condition.message}` : ''}`;

function verdict(object: SlimObject, chain: ObjectLink[], code: CauseCode, sentence: string, detail: string, since?: number): Cause {
  return { code, sentence, evidence: [{ ...linkOf(object), detail }], ...(since !== undefined && Number.isFinite(since) ? { since } : {}), chain };
}

const title = (object: SlimObject): string => `${object.kind} ${object.metadata.name}`;

/** Progressing=False (ProgressDeadlineExceeded or another reason) and a paused rollout. */
export function deploymentVerdicts(deployment: SlimObject, chain: ObjectLink[]): Cause[] {
  const out: Cause[] = [];
  const conditions = conditionsOf(deployment);
  const progressing = findCondition(conditions, 'Progressing');
  if (progressing?.status === 'False') {
    const words = progressing.message ?? progressing.reason ?? 'Progressing=False';
    if (progressing.reason === 'ProgressDeadlineExceeded') {
      out.push(verdict(deployment, chain, 'progress-deadline', `${title(deployment)} exceeded its progress deadline: ${words}`, conditionText(progressing), progressing.lastTransition));
    } else {
      out.push(verdict(deployment, chain, 'condition', `${title(deployment)} stopped progressing (${progressing.reason ?? 'no reason'}): ${words}`, conditionText(progressing), progressing.lastTransition));
    }
  }
  if (section(deployment, 'spec')['paused'] === true) {
    const paused = progressing?.reason === 'DeploymentPaused' ? progressing : undefined;
    const words = paused?.message ?? 'spec.paused is true';
    out.push(verdict(deployment, chain, 'rollout-paused', `${title(deployment)}'s rollout is paused: ${words}`, paused ? conditionText(paused) : 'spec.paused: true', paused?.lastTransition));
  }
  return out;
}

/** What the controllers write before the API server's refusal; the refusal itself is the cause. */
const CREATE_PREFIXES = [/^Error creating: /, /^create Pod \S+ in StatefulSet \S+ failed error: /];

function refusal(message: string): string {
  for (const prefix of CREATE_PREFIXES) if (prefix.test(message)) return message.replace(prefix, '');
  return message;
}

/**
 * A controller refused when creating pods: the ReplicaFailure condition (ReplicaSets, and a
 * Deployment's copy of it), else the newest FailedCreate Event unless a pod was created after it.
 */
export function createRefused(owner: SlimObject, chain: ObjectLink[], context: FinderContext): Cause | undefined {
  const failure = findCondition(conditionsOf(owner), 'ReplicaFailure');
  if (failure?.status === 'True' && failure.message) {
    return verdict(owner, chain, 'create-refused', `${title(owner)} can't create pods: ${refusal(failure.message)}`, conditionText(failure), failure.lastTransition);
  }
  const events = eventsOf(context.view, owner.metadata.uid, context.now);
  const failed = events.find((event) => event.reason === 'FailedCreate');
  if (!failed) return undefined;
  const created = events.find((event) => event.reason === 'SuccessfulCreate');
  if (created && created.last > failed.last) return undefined;
  const times = failed.count > 1 ? ` (${failed.count} times)` : '';
  return verdict(owner, chain, 'create-refused', `${title(owner)} can't create pods: ${refusal(failed.message)}`, `FailedCreate${times}: ${failed.message}`, failed.first);
}

/** Failed=True: BackoffLimitExceeded, or another reason (DeadlineExceeded, PodFailurePolicy). */
export function jobVerdict(job: SlimObject, chain: ObjectLink[]): Cause | undefined {
  const failed = findCondition(conditionsOf(job), 'Failed');
  if (failed?.status !== 'True') return undefined;
  const words = failed.message ?? failed.reason ?? 'Failed=True';
  if (failed.reason === 'BackoffLimitExceeded') return verdict(job, chain, 'job-backoff-limit', `${title(job)} failed: ${words}`, conditionText(failed), failed.lastTransition);
  return verdict(job, chain, 'job-failed', `${title(job)} failed (${failed.reason ?? 'no reason'}): ${words}`, conditionText(failed), failed.lastTransition);
}

/**
 * ScalingActive=False (the HPA cannot get or compute its metrics; ScalingDisabled is a target
 * scaled to zero on purpose) and AbleToScale=False (it cannot read or change the target's scale).
 */
export function hpaVerdicts(hpa: SlimObject, chain: ObjectLink[]): Cause[] {
  const out: Cause[] = [];
  const conditions = conditionsOf(hpa);
  const active = findCondition(conditions, 'ScalingActive');
  if (active?.status === 'False' && active.reason !== 'ScalingDisabled') {
    const words = active.message ?? active.reason ?? 'ScalingActive=False';
    const metrics = active.reason === undefined || /Metric|Metrics/.test(active.reason);
    const sentence = metrics ? `${title(hpa)} can't get metrics: ${words}` : `${title(hpa)} is not scaling (${active.reason}): ${words}`;
    out.push(verdict(hpa, chain, metrics ? 'hpa-metrics' : 'condition', sentence, conditionText(active), active.lastTransition));
  }
  const able = findCondition(conditions, 'AbleToScale');
  if (able?.status === 'False') {
    out.push(verdict(hpa, chain, 'condition', `${title(hpa)} can't scale its target (${able.reason ?? 'no reason'}): ${able.message ?? 'AbleToScale=False'}`, conditionText(able), able.lastTransition));
  }
  return out;
}

/** States of the one status rule that mean "not converged". */
const DRIFT_STATES: ReadonlySet<string> = new Set(['failed', 'drifting', 'progressing', 'unobserved']);

/** Any other object's verdict under the one status rule, when it has not converged. */
export function statusVerdict(object: SlimObject, chain: ObjectLink[], userRules: readonly UserStatusRule[] = []): Cause | undefined {
  const status = objectStatus(object, { userRules });
  if (!DRIFT_STATES.has(status.state)) return undefined;
  const words = status.message ? `${status.reason}: ${status.message}` : status.reason;
  const since = conditionsOf(object).find((condition) => condition.reason === status.reason)?.lastTransition;
  return verdict(object, chain, 'condition', `${title(object)} is ${status.state}: ${words}`, `${status.state} (${status.source}): ${words}`, since);
}

/** Whether an object other than the built-in workloads has not converged. */
export function isStatusDrifting(object: SlimObject, userRules: readonly UserStatusRule[] = []): boolean {
  return DRIFT_STATES.has(objectStatus(object, { userRules }).state);
}
