/**
 * Job spec reading and status writing as the job-controller of Kubernetes 1.31+ shows them:
 * terminal conditions come in pairs (SuccessCriteriaMet then Complete, FailureTarget then
 * Failed), `ready` and `terminating` are always present, `uncountedTerminatedPods` is `{}`.
 */
import type { KubeObject } from '../types.ts';
import { getCondition, timestamp, type Condition } from './conditions.ts';
import type { PodTemplate } from './pods.ts';

/** Held on every Job pod until the controller has counted it. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** Pod label naming the Job (legacy spelling: `job-name`). */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
/** Pod label with the Job's uid, what the generated selector matches (legacy: `controller-uid`). */
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';

/** A Job's spec with the API defaults applied. */
export interface JobView {
  parallelism: number;
  /** Undefined for work-queue Jobs (completions unset): done when any pod succeeds. */
  completions: number | undefined;
  backoffLimit: number;
  suspend: boolean;
  activeDeadlineSeconds: number | undefined;
  onFailure: boolean;
  template: PodTemplate;
}

/** Reads a Job's spec, defaulting what the API would. */
export function jobView(job: KubeObject): JobView {
  const spec = (job['spec'] as Record<string, unknown> | undefined) ?? {};
  const template = (spec['template'] as PodTemplate | undefined) ?? {};
  const completions = typeof spec['completions'] === 'number' ? spec['completions'] : spec['parallelism'] === undefined ? 1 : undefined;
  return {
    parallelism: typeof spec['parallelism'] === 'number' ? spec['parallelism'] : 1,
    completions,
    backoffLimit: typeof spec['backoffLimit'] === 'number' ? spec['backoffLimit'] : 6,
    suspend: spec['suspend'] === true,
    activeDeadlineSeconds: typeof spec['activeDeadlineSeconds'] === 'number' ? spec['activeDeadlineSeconds'] : undefined,
    onFailure: (template.spec?.['restartPolicy'] as string | undefined) === 'OnFailure',
    template,
  };
}

/** The labels every pod of the Job carries, new and legacy spellings (generateSelector). */
export function jobPodLabels(job: KubeObject): Record<string, string> {
  return {
    [CONTROLLER_UID_LABEL]: job.metadata.uid,
    [JOB_NAME_LABEL]: job.metadata.name,
    'controller-uid': job.metadata.uid,
    'job-name': job.metadata.name,
  };
}

/** The Job's terminal condition type, if it has finished. */
export function jobFinished(job: KubeObject): 'Complete' | 'Failed' | undefined {
  if (getCondition(job['status'], 'Complete')?.status === 'True') return 'Complete';
  if (getCondition(job['status'], 'Failed')?.status === 'True') return 'Failed';
  return undefined;
}

/** When the Job finished (completionTime, or the Failed condition's transition). */
export function jobFinishTime(job: KubeObject): number | undefined {
  const status = (job['status'] as { completionTime?: string } | undefined) ?? {};
  const at = status.completionTime ?? getCondition(job['status'], 'Failed')?.lastTransitionTime;
  return at ? Date.parse(at) : undefined;
}

/** A Job condition as the job-controller writes them: both timestamps set to now. */
export function jobCondition(type: string, status: 'True' | 'False', reason: string, message: string, now: number): Condition {
  return { type, status, lastProbeTime: timestamp(now), lastTransitionTime: timestamp(now), reason, message };
}

/** Replaces (or appends) the condition of the same type; keeps the transition time when unchanged. */
export function putCondition(conditions: Condition[], next: Condition): Condition[] {
  const index = conditions.findIndex((c) => c.type === next.type);
  if (index < 0) return [...conditions, next];
  const current = conditions[index] as Condition;
  if (current.status === next.status && current.reason === next.reason) return conditions;
  const out = [...conditions];
  out[index] = next;
  return out;
}

/** The pod counts a Job status reports. */
export interface JobCounts {
  active: number;
  succeeded: number;
  failed: number;
  terminating: number;
  ready: number;
}

/** JobStatus in upstream's field order, zero counters omitted where upstream omits them. */
export function jobStatus(previous: Record<string, unknown>, counts: JobCounts, fields: { conditions: Condition[]; startTime?: string; completionTime?: string }): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  if (fields.conditions.length > 0) status['conditions'] = fields.conditions;
  if (fields.startTime) status['startTime'] = fields.startTime;
  if (fields.completionTime) status['completionTime'] = fields.completionTime;
  if (counts.active) status['active'] = counts.active;
  if (counts.succeeded) status['succeeded'] = counts.succeeded;
  if (counts.failed) status['failed'] = counts.failed;
  status['terminating'] = counts.terminating;
  status['uncountedTerminatedPods'] = previous['uncountedTerminatedPods'] ?? {};
  status['ready'] = counts.ready;
  return status;
}
