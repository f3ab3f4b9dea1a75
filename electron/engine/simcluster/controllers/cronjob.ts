/**
 * cronjob-controller (upstream's ControllerV2): on each schedule time of the injected clock,
 * creates the Job `<cronjob>-<scheduled time in minutes>` from the job template, honouring
 * suspend, startingDeadlineSeconds and the concurrency policy; tracks `status.active`,
 * `lastScheduleTime` and `lastSuccessfulTime`; prunes finished Jobs past the history limits.
 */
import type { Change } from '../changelog.ts';
import { defaultJob } from '../defaults/workloads.ts';
import type { KubeObject } from '../types.ts';
import { timestamp } from './conditions.ts';
import { CronError, parseCron, rfc3339InZone, type CronSchedule } from './cron.ts';
import { jobFinished } from './job-status.ts';
import { isControlledBy, newControllerRef, ownerKeysFor } from './owner.ts';
import { replaceStatus, type Controller, type ControllerContext, type ReconcileKey } from './runtime.ts';
import { CRONJOBS, JOBS } from './kinds.ts';

const COMPONENT = 'cronjob-controller';
/** The schedule time a Job was created for, RFC 3339 in the CronJob's time zone (1.28+). */
export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** Upstream gives up listing missed times past this many. */
const MAX_MISSED = 100;
/** Upstream wakes 100 ms after the schedule time, so the time has surely passed. */
const WAKE_SLACK_MS = 100;

interface ObjectReference {
  kind: string;
  namespace?: string;
  name: string;
  uid: string;
  apiVersion: string;
  resourceVersion: string;
}

interface CronJobView {
  schedule: string;
  timeZone: string | undefined;
  concurrencyPolicy: 'Allow' | 'Forbid' | 'Replace';
  suspend: boolean;
  startingDeadlineSeconds: number | undefined;
  successfulJobsHistoryLimit: number;
  failedJobsHistoryLimit: number;
  jobTemplate: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
}

function view(cj: KubeObject): CronJobView {
  const spec = (cj['spec'] as Record<string, unknown> | undefined) ?? {};
  const policy = spec['concurrencyPolicy'];
  return {
    schedule: String(spec['schedule'] ?? ''),
    timeZone: typeof spec['timeZone'] === 'string' ? spec['timeZone'] : undefined,
    concurrencyPolicy: policy === 'Forbid' || policy === 'Replace' ? policy : 'Allow',
    suspend: spec['suspend'] === true,
    startingDeadlineSeconds: typeof spec['startingDeadlineSeconds'] === 'number' ? spec['startingDeadlineSeconds'] : undefined,
    successfulJobsHistoryLimit: typeof spec['successfulJobsHistoryLimit'] === 'number' ? spec['successfulJobsHistoryLimit'] : 3,
    failedJobsHistoryLimit: typeof spec['failedJobsHistoryLimit'] === 'number' ? spec['failedJobsHistoryLimit'] : 1,
    jobTemplate: (spec['jobTemplate'] as CronJobView['jobTemplate'] | undefined) ?? {},
  };
}

/** `hello-28000000`: the Job for a schedule time, named by its Unix minute. */
export function cronJobJobName(cronJobName: string, scheduledMs: number): string {
  return `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;
}

function reference(job: KubeObject): ObjectReference {
  return { kind: 'Job', namespace: job.metadata.namespace, name: job.metadata.name, uid: job.metadata.uid, apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion };
}

function cronJobKey(cj: KubeObject): ReconcileKey {
  return { resource: 'cronjobs.batch', namespace: cj.metadata.namespace, name: cj.metadata.name };
}

/** The latest schedule time in (earliest, now], and how many were missed. */
function mostRecent(schedule: CronSchedule, earliest: number, now: number): { time: number | undefined; missed: number } {
  let time: number | undefined;
  let missed = 0;
  for (let t = schedule.next(earliest); t !== undefined && t <= now; t = schedule.next(t)) {
    time = t;
    missed += 1;
  }
  return { time, missed };
}

function startTimeOf(job: KubeObject): string {
  return (job['status'] as { startTime?: string } | undefined)?.startTime ?? '~';
}

/** The cronjob-controller; requeues each CronJob for its next schedule time on the injected clock. */
export function createCronJobController(): Controller {
  function warn(cj: KubeObject, reason: string, message: string, ctx: ControllerContext): void {
    ctx.events.record({ regarding: cj, type: 'Warning', reason, message, component: COMPONENT });
  }

  function deleteJob(cj: KubeObject, job: KubeObject, ctx: ControllerContext): void {
    if (!ctx.store.find(JOBS, job.metadata.namespace, job.metadata.name)) return;
    ctx.store.delete(JOBS, job.metadata.namespace, job.metadata.name, { propagationPolicy: 'Background' });
    ctx.events.record({ regarding: cj, type: 'Normal', reason: 'SuccessfulDelete', message: `Deleted job ${job.metadata.name}`, component: COMPONENT });
  }

  function createJob(cj: KubeObject, v: CronJobView, scheduled: number, ctx: ControllerContext): KubeObject | undefined {
    const name = cronJobJobName(cj.metadata.name, scheduled);
    const existing = ctx.store.find(JOBS, cj.metadata.namespace, name);
    if (existing) return isControlledBy(existing, cj) ? existing : undefined;
    const labels = v.jobTemplate.metadata?.labels;
    const annotations = { ...(v.jobTemplate.metadata?.annotations ?? {}), [SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339InZone(scheduled, v.timeZone) };
    const job = ctx.store.create(
      JOBS,
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name, namespace: cj.metadata.namespace, ...(labels ? { labels: { ...labels } } : {}), annotations, ownerReferences: [newControllerRef(cj)] },
        spec: structuredClone(v.jobTemplate.spec ?? {}),
      },
      {
        // kube-apiserver defaults the Job and generates its selector once the uid exists.
        admit: (object) => {
          defaultJob(object as Parameters<typeof defaultJob>[0]);
          return object;
        },
      },
    );
    ctx.events.record({ regarding: cj, type: 'Normal', reason: 'SuccessfulCreate', message: `Created job ${job.metadata.name}`, component: COMPONENT });
    return job;
  }

  function pruneHistory(cj: KubeObject, v: CronJobView, jobs: KubeObject[], ctx: ControllerContext): void {
    for (const [kind, limit] of [['Complete', v.successfulJobsHistoryLimit], ['Failed', v.failedJobsHistoryLimit]] as const) {
      const finished = jobs.filter((j) => jobFinished(j) === kind).sort((a, b) => (startTimeOf(a) === startTimeOf(b) ? (a.metadata.name < b.metadata.name ? -1 : 1) : startTimeOf(a) < startTimeOf(b) ? -1 : 1));
      for (const job of finished.slice(0, Math.max(0, finished.length - limit))) deleteJob(cj, job, ctx);
    }
  }

  function reconcileCronJob(cj: KubeObject, ctx: ControllerContext): number | undefined {
    const now = ctx.clock.now();
    const v = view(cj);
    const previous = (cj['status'] as { active?: ObjectReference[]; lastScheduleTime?: string; lastSuccessfulTime?: string } | undefined) ?? {};
    const jobs = ctx.store.all(JOBS, cj.metadata.namespace).filter((j) => isControlledBy(j, cj));
    let active = [...(previous.active ?? [])];
    let lastSuccessfulTime = previous.lastSuccessfulTime;
    let lastScheduleTime = previous.lastScheduleTime;

    for (const job of jobs) {
      const listed = active.some((r) => r.uid === job.metadata.uid);
      const finished = jobFinished(job);
      if (!finished && !listed) {
        warn(cj, 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name}`, ctx);
      } else if (finished) {
        if (listed) {
          active = active.filter((r) => r.uid !== job.metadata.uid);
          ctx.events.record({ regarding: cj, type: 'Normal', reason: 'SawCompletedJob', message: `Saw completed job: ${job.metadata.name}, condition: ${finished}`, component: COMPONENT });
        }
        const completed = (job['status'] as { completionTime?: string } | undefined)?.completionTime;
        if (finished === 'Complete' && completed && (!lastSuccessfulTime || Date.parse(completed) > Date.parse(lastSuccessfulTime))) lastSuccessfulTime = completed;
      }
    }
    for (const ref of active) {
      if (jobs.some((j) => j.metadata.uid === ref.uid)) continue;
      ctx.events.record({ regarding: cj, type: 'Normal', reason: 'MissingJob', message: `Active job went missing: ${ref.name}`, component: COMPONENT });
      active = active.filter((r) => r.uid !== ref.uid);
    }

    let wake: number | undefined;
    schedule: if (!v.suspend) {
      let schedule: CronSchedule;
      try {
        schedule = parseCron(v.schedule, v.timeZone ? { timeZone: v.timeZone } : {});
      } catch (error) {
        const message = error instanceof CronError ? error.message : String(error);
        if (message.startsWith('unknown time zone')) warn(cj, 'UnknownTimeZone', `invalid timeZone: "${v.timeZone}": ${message}`, ctx);
        else warn(cj, 'UnparseableSchedule', `unparseable schedule: "${v.schedule}" : ${message}`, ctx);
        break schedule;
      }
      const upcoming = schedule.next(now);
      wake = upcoming === undefined ? undefined : upcoming - now + WAKE_SLACK_MS;
      let earliest = Date.parse(lastScheduleTime ?? cj.metadata.creationTimestamp);
      if (v.startingDeadlineSeconds !== undefined) earliest = Math.max(earliest, now - v.startingDeadlineSeconds * 1000);
      const { time: scheduled, missed } = mostRecent(schedule, earliest, now);
      if (scheduled === undefined) break schedule;
      if (missed > MAX_MISSED) warn(cj, 'TooManyMissedTimes', `too many missed start times: ${missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`, ctx);
      const name = cronJobJobName(cj.metadata.name, scheduled);
      if (active.some((r) => r.name === name) || lastScheduleTime === timestamp(scheduled)) break schedule;
      if (v.concurrencyPolicy === 'Forbid' && active.length > 0) {
        ctx.events.record({ regarding: cj, type: 'Normal', reason: 'JobAlreadyActive', message: 'Not starting job because prior execution is running and concurrency policy is Forbid', component: COMPONENT });
        break schedule;
      }
      if (v.concurrencyPolicy === 'Replace') {
        for (const ref of active) {
          const job = jobs.find((j) => j.metadata.uid === ref.uid);
          if (job) deleteJob(cj, job, ctx);
        }
        active = [];
      }
      const job = createJob(cj, v, scheduled, ctx);
      if (job && !active.some((r) => r.uid === job.metadata.uid)) active.push(reference(job));
      lastScheduleTime = timestamp(scheduled);
    }

    pruneHistory(cj, v, ctx.store.all(JOBS, cj.metadata.namespace).filter((j) => isControlledBy(j, cj)), ctx);
    const status: Record<string, unknown> = {};
    if (active.length > 0) status['active'] = active;
    if (lastScheduleTime) status['lastScheduleTime'] = lastScheduleTime;
    if (lastSuccessfulTime) status['lastSuccessfulTime'] = lastSuccessfulTime;
    replaceStatus(ctx.store, CRONJOBS, cj, status);
    return wake;
  }

  return {
    name: COMPONENT,
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource === 'cronjobs.batch') return change.type === 'DELETED' ? [] : [cronJobKey(change.object)];
      if (change.resource === 'jobs.batch') return ownerKeysFor(change, 'CronJob', 'cronjobs.batch');
      return [];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      return ctx.store.all(CRONJOBS).map(cronJobKey);
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
      const cj = ctx.store.find(CRONJOBS, key.namespace, key.name);
      if (!cj || cj.metadata.deletionTimestamp) return;
      return reconcileCronJob(cj, ctx);
    },
  };
}
