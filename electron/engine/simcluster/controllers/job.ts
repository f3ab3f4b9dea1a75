/**
 * job-controller: runs `parallelism` pods until `completions` succeed, replaces failed pods with
 * exponential back-off, fails the Job past `backoffLimit` or `activeDeadlineSeconds`, and counts
 * finished pods through the `batch.kubernetes.io/job-tracking` finalizer exactly once.
 */
import type { Change } from '../changelog.ts';
import { ApiError } from '../errors.ts';
import type { KubeObject } from '../types.ts';
import { getCondition, timestamp, type Condition } from './conditions.ts';
import { JOBS, PODS } from './kinds.ts';
import { isControlledBy, ownerKeysFor } from './owner.ts';
import { deletePod, isPodReady, podFromTemplate, podPhase } from './pods.ts';
import { admitPodQuota } from './resourcequota.ts';
import { replaceStatus, type Controller, type ControllerContext, type ReconcileKey } from './runtime.ts';
import { JOB_TRACKING_FINALIZER, jobCondition, jobFinished, jobPodLabels, jobStatus, jobView, putCondition, type JobView } from './job-status.ts';

const COMPONENT = 'job-controller';
/** A failed sync (a refused pod create) is retried after DefaultJobApiBackOff. */
const CREATE_RETRY_MS = 1_000;

/** Options of `createJobController`. */
export interface JobControllerOptions {
  /** First replacement delay after a pod failure (upstream: 10 s), doubled per failure. */
  backoffBaseMs?: number;
  /** Cap of the replacement delay (upstream: 6 min). */
  backoffMaxMs?: number;
  /** Simulation speed: back-off delays and activeDeadlineSeconds are divided by it. Default 1. */
  speed?: number;
}

const hasFinalizer = (pod: KubeObject) => (pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

function jobKey(job: KubeObject): ReconcileKey {
  return { resource: 'jobs.batch', namespace: job.metadata.namespace, name: job.metadata.name };
}

function restartCount(pod: KubeObject): number {
  const status = (pod['status'] as { containerStatuses?: Array<{ restartCount?: number }>; initContainerStatuses?: Array<{ restartCount?: number }> } | undefined) ?? {};
  return [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])].reduce((sum, c) => sum + (c.restartCount ?? 0), 0);
}

/** The job-controller; wakes on Jobs and their pods. */
export function createJobController(options: JobControllerOptions = {}): Controller {
  const speed = options.speed ?? 1;
  const backoffBaseMs = (options.backoffBaseMs ?? 10_000) / speed;
  const backoffMaxMs = (options.backoffMaxMs ?? 360_000) / speed;
  /** Job uid -> when its latest failure was counted, for the replacement back-off. */
  const lastFailure = new Map<string, number>();

  function dropFinalizer(pod: KubeObject, ctx: ControllerContext): void {
    if (!hasFinalizer(pod) || !ctx.store.find(PODS, pod.metadata.namespace, pod.metadata.name)) return;
    ctx.store.mutate(PODS, pod.metadata.namespace, pod.metadata.name, (copy) => {
      copy.metadata.finalizers = (copy.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER);
      if (copy.metadata.finalizers.length === 0) delete copy.metadata.finalizers;
    });
  }

  function removePod(job: KubeObject, pod: KubeObject, ctx: ControllerContext): void {
    if (pod.metadata.deletionTimestamp || !deletePod(ctx.store, pod)) return;
    ctx.events.record({ regarding: job, type: 'Normal', reason: 'SuccessfulDelete', message: `Deleted pod: ${pod.metadata.name}`, component: COMPONENT });
  }

  /** Creates one pod; false when the API server refused it (quota admission), recorded as FailedCreate. */
  function createPod(job: KubeObject, v: JobView, ctx: ControllerContext): boolean {
    const pod = podFromTemplate(job, v.template, { labels: jobPodLabels(job) });
    const meta = pod['metadata'] as { finalizers?: string[] };
    meta.finalizers = [...(meta.finalizers ?? []), JOB_TRACKING_FINALIZER];
    try {
      const created = ctx.store.create(PODS, pod, { admit: (named) => (admitPodQuota(ctx.store, named), named) });
      ctx.events.record({ regarding: job, type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${created.metadata.name}`, component: COMPONENT });
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.events.record({ regarding: job, type: 'Warning', reason: 'FailedCreate', message: `Error creating: ${error.message}`, component: COMPONENT });
      return false;
    }
  }

  /** The Job is gone: release its pods' finalizers so they can be deleted. */
  function releaseOrphans(key: ReconcileKey, ctx: ControllerContext): void {
    for (const pod of ctx.store.all(PODS, key.namespace)) {
      const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Job' && r.name === key.name);
      if (owner && hasFinalizer(pod) && !ctx.store.all(JOBS, key.namespace).some((j) => j.metadata.uid === owner.uid)) dropFinalizer(pod, ctx);
    }
  }

  function reconcileJob(job: KubeObject, ctx: ControllerContext): number | undefined {
    const now = ctx.clock.now();
    const v = jobView(job);
    const previous = (job['status'] as Record<string, unknown> | undefined) ?? {};
    const pods = ctx.store.all(PODS, job.metadata.namespace).filter((p) => isControlledBy(p, job));
    const finished = jobFinished(job);

    // Count pods that finished since the last pass; their finalizer goes once counted.
    const counted: KubeObject[] = [];
    let newSucceeded = 0;
    let newFailed = 0;
    for (const pod of pods) {
      if (!hasFinalizer(pod)) continue;
      if (!finished) {
        const phase = podPhase(pod);
        if (phase === 'Succeeded') newSucceeded += 1;
        // A pod deleted before it finished counts as failed, as upstream's isPodFailed has it.
        else if (phase === 'Failed' || pod.metadata.deletionTimestamp) newFailed += 1;
        else continue;
      }
      counted.push(pod);
    }
    if (newFailed > 0) lastFailure.set(job.metadata.uid, now);
    const succeeded = Number(previous['succeeded'] ?? 0) + newSucceeded;
    const failed = Number(previous['failed'] ?? 0) + newFailed;
    let conditions = (previous['conditions'] as Condition[] | undefined) ?? [];
    let startTime = previous['startTime'] as string | undefined;
    let completionTime = previous['completionTime'] as string | undefined;
    let wake: number | undefined;
    const active = pods.filter((p) => !p.metadata.deletionTimestamp && podPhase(p) !== 'Succeeded' && podPhase(p) !== 'Failed');

    if (!finished && v.suspend) {
      // Pods stopped by suspension are released without counting as failures.
      for (const pod of active) removePod(job, pod, ctx);
      counted.push(...active);
      if (getCondition(previous, 'Suspended')?.status !== 'True') {
        conditions = putCondition(conditions, jobCondition('Suspended', 'True', 'JobSuspended', 'Job suspended', now));
        ctx.events.record({ regarding: job, type: 'Normal', reason: 'Suspended', message: 'Job suspended', component: COMPONENT });
      }
      startTime = undefined;
    } else if (!finished) {
      if (getCondition(previous, 'Suspended')?.status === 'True') {
        conditions = putCondition(conditions, jobCondition('Suspended', 'False', 'JobResumed', 'Job resumed', now));
        ctx.events.record({ regarding: job, type: 'Normal', reason: 'Resumed', message: 'Job resumed', component: COMPONENT });
      }
      startTime ??= timestamp(now);
      const deadline = v.activeDeadlineSeconds === undefined ? undefined : Date.parse(startTime) + (v.activeDeadlineSeconds * 1000) / speed;
      const restarts = v.onFailure ? active.reduce((sum, p) => sum + restartCount(p), 0) : 0;
      let failure: { reason: string; message: string } | undefined;
      if (failed > v.backoffLimit || (v.onFailure && (v.backoffLimit === 0 ? restarts > 0 : restarts >= v.backoffLimit))) {
        failure = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
      } else if (deadline !== undefined && now >= deadline) {
        failure = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
      }
      const complete = v.completions !== undefined ? succeeded >= v.completions : succeeded > 0 && active.length === 0;
      if (failure || complete) {
        for (const pod of active) removePod(job, pod, ctx);
        // Pods stopped because the Job is done are released without being counted.
        for (const pod of pods) if (!counted.includes(pod) && hasFinalizer(pod)) counted.push(pod);
      }
      if (failure) {
        conditions = putCondition(conditions, jobCondition('FailureTarget', 'True', failure.reason, failure.message, now));
        conditions = putCondition(conditions, jobCondition('Failed', 'True', failure.reason, failure.message, now));
        ctx.events.record({ regarding: job, type: 'Warning', reason: failure.reason, message: failure.message, component: COMPONENT });
      } else if (complete) {
        const message = 'Reached expected number of succeeded pods';
        conditions = putCondition(conditions, jobCondition('SuccessCriteriaMet', 'True', 'CompletionsReached', message, now));
        conditions = putCondition(conditions, jobCondition('Complete', 'True', 'CompletionsReached', message, now));
        completionTime = timestamp(now);
        ctx.events.record({ regarding: job, type: 'Normal', reason: 'Completed', message: 'Job completed', component: COMPONENT });
      } else {
        const want = v.completions !== undefined ? Math.min(v.parallelism, v.completions - succeeded) : succeeded > 0 ? 0 : v.parallelism;
        const excess = active.length - want;
        if (excess > 0) {
          const newest = [...active].sort((a, b) => (a.metadata.creationTimestamp < b.metadata.creationTimestamp ? 1 : -1));
          for (const pod of newest.slice(0, excess)) removePod(job, pod, ctx);
          counted.push(...newest.slice(0, excess));
        }
        const since = lastFailure.get(job.metadata.uid);
        const delay = failed > 0 && since !== undefined ? Math.min(backoffBaseMs * 2 ** (failed - 1), backoffMaxMs) - (now - since) : 0;
        if (want > active.length && delay > 0) wake = delay;
        else {
          for (let i = active.length; i < want; i += 1) {
            if (createPod(job, v, ctx)) continue;
            // The sync failed: retried after the work queue's back-off.
            wake = CREATE_RETRY_MS / speed;
            break;
          }
        }
        if (deadline !== undefined) wake = Math.min(wake ?? Infinity, deadline - now);
      }
    }
    for (const pod of counted) dropFinalizer(pod, ctx);

    const live = ctx.store.all(PODS, job.metadata.namespace).filter((p) => isControlledBy(p, job));
    const running = live.filter((p) => !p.metadata.deletionTimestamp && podPhase(p) !== 'Succeeded' && podPhase(p) !== 'Failed');
    const counts = {
      active: running.length,
      succeeded,
      failed,
      terminating: live.filter((p) => p.metadata.deletionTimestamp && podPhase(p) !== 'Succeeded' && podPhase(p) !== 'Failed').length,
      ready: running.filter(isPodReady).length,
    };
    const status = jobStatus(previous, counts, { conditions, ...(startTime ? { startTime } : {}), ...(completionTime ? { completionTime } : {}) });
    replaceStatus(ctx.store, JOBS, job, status);
    return wake;
  }

  return {
    name: COMPONENT,
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource === 'jobs.batch') return [jobKey(change.object)];
      if (change.resource === 'pods') return ownerKeysFor(change, 'Job', 'jobs.batch');
      return [];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      return ctx.store.all(JOBS).map(jobKey);
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
      const job = ctx.store.find(JOBS, key.namespace, key.name);
      if (!job) {
        releaseOrphans(key, ctx);
        return;
      }
      if (job.metadata.deletionTimestamp) {
        for (const pod of ctx.store.all(PODS, key.namespace)) if (isControlledBy(pod, job)) dropFinalizer(pod, ctx);
        return;
      }
      return reconcileJob(job, ctx);
    },
  };
}
