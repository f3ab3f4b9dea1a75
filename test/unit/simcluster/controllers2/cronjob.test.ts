import { describe, expect, it } from 'vitest';
import { createCronJobController } from '../../../../electron/engine/simcluster/controllers/cronjob.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { harness, T, type Harness } from './harness.ts';

const CRONJOBS = T('cronjobs.batch');
const JOBS = T('jobs.batch');
const MINUTE = 60_000;

function createCronJob(h: Harness, spec: Record<string, unknown> = {}): KubeObject {
  return h.create('cronjobs.batch', {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hello', namespace: 'default' },
    spec: {
      schedule: '*/5 * * * *',
      jobTemplate: {
        metadata: { labels: { app: 'hello' } },
        spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36', command: ['date'] }] } } },
      },
      ...spec,
    },
  });
}

const jobs = (h: Harness) => h.store.all(JOBS, 'default');
const jobNames = (h: Harness) => jobs(h).map((j) => j.metadata.name).sort();
const status = (h: Harness) => h.store.get(CRONJOBS, 'default', 'hello')['status'] as Record<string, unknown>;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const nameAt = (ms: number) => `hello-${ms / MINUTE}`;

function finish(h: Harness, name: string, type: 'Complete' | 'Failed'): void {
  const now = iso(h.clock.now());
  h.store.mutate(JOBS, 'default', name, (copy) => {
    copy['status'] = {
      conditions: [{ type, status: 'True', lastProbeTime: now, lastTransitionTime: now }],
      startTime: (copy['status'] as { startTime?: string } | undefined)?.startTime ?? now,
      ...(type === 'Complete' ? { completionTime: now, succeeded: 1 } : { failed: 1 }),
    };
  }, { subresource: 'status' });
  h.settle();
}

describe('cronjob-controller', () => {
  it('creates <cronjob>-<minutes> at the schedule time from the job template', () => {
    const h = harness([createCronJobController()]);
    const start = h.clock.now();
    const cj = createCronJob(h);
    h.advance(5 * MINUTE - 1_000);
    expect(jobs(h)).toHaveLength(0);
    // The controller wakes 100 ms after the schedule time, as upstream does.
    h.advance(2_000);
    const scheduled = start + 5 * MINUTE;
    expect(jobNames(h)).toEqual([nameAt(scheduled)]);
    expect(nameAt(scheduled)).toMatch(/^hello-\d{8}$/);
    const job = jobs(h)[0] as KubeObject;
    expect(job.metadata.labels).toEqual({ app: 'hello' });
    expect(job.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': iso(scheduled) });
    expect(job.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect((job['spec'] as { selector: unknown }).selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': job.metadata.uid } });
    expect(status(h)).toEqual({
      active: [{ kind: 'Job', namespace: 'default', name: job.metadata.name, uid: job.metadata.uid, apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion }],
      lastScheduleTime: iso(scheduled),
    });
    expect(h.events({ reason: 'SuccessfulCreate' })).toEqual([`SuccessfulCreate: Created job ${nameAt(scheduled)}`]);
  });

  it('notices a finished job and records lastSuccessfulTime', () => {
    const h = harness([createCronJobController()]);
    createCronJob(h);
    const start = h.clock.now();
    h.advance(5 * MINUTE + 1_000);
    const [name] = jobNames(h);
    h.advance(30_000);
    finish(h, name ?? '', 'Complete');
    expect(status(h)).toEqual({ lastScheduleTime: iso(start + 5 * MINUTE), lastSuccessfulTime: iso(h.clock.now()) });
    expect(h.events({ reason: 'SawCompletedJob' })).toEqual([`SawCompletedJob: Saw completed job: ${name}, condition: Complete`]);
  });

  it('runs overlapping jobs with Allow', () => {
    const h = harness([createCronJobController()]);
    createCronJob(h);
    h.advance(10 * MINUTE + 1_000);
    expect(jobNames(h)).toHaveLength(2);
    expect((status(h)['active'] as unknown[]).length).toBe(2);
  });

  it('skips a run while one is active with Forbid', () => {
    const h = harness([createCronJobController()]);
    createCronJob(h, { concurrencyPolicy: 'Forbid' });
    h.advance(10 * MINUTE + 1_000);
    expect(jobNames(h)).toHaveLength(1);
    expect(h.events({ reason: 'JobAlreadyActive' })).toEqual(['JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid']);
  });

  it('deletes the active job and starts a new one with Replace', () => {
    const h = harness([createCronJobController()]);
    const start = h.clock.now();
    createCronJob(h, { concurrencyPolicy: 'Replace' });
    h.advance(10 * MINUTE + 1_000);
    expect(jobNames(h)).toEqual([nameAt(start + 10 * MINUTE)]);
    expect(h.events({ reason: 'SuccessfulDelete' })).toEqual([`SuccessfulDelete: Deleted job ${nameAt(start + 5 * MINUTE)}`]);
  });

  it('creates nothing while suspended, and resumes on the next schedule time', () => {
    const h = harness([createCronJobController()]);
    createCronJob(h, { suspend: true });
    h.advance(20 * MINUTE);
    expect(jobs(h)).toHaveLength(0);
    h.store.mutate(CRONJOBS, 'default', 'hello', (copy) => {
      (copy['spec'] as { suspend: boolean }).suspend = false;
    });
    h.settle();
    expect(jobs(h)).toHaveLength(1);
  });

  it('keeps only successfulJobsHistoryLimit finished jobs', () => {
    const h = harness([createCronJobController()]);
    createCronJob(h, { successfulJobsHistoryLimit: 2, concurrencyPolicy: 'Forbid' });
    const created: string[] = [];
    h.advance(1_000);
    for (let i = 0; i < 4; i += 1) {
      h.advance(5 * MINUTE);
      const running = jobNames(h).find((n) => !created.includes(n)) ?? '';
      created.push(running);
      finish(h, running, 'Complete');
    }
    expect(jobNames(h)).toEqual(created.slice(2).sort());
    expect(h.events({ reason: 'SuccessfulDelete' })).toEqual([`SuccessfulDelete: Deleted job ${created[0]}`, `SuccessfulDelete: Deleted job ${created[1]}`]);
  });

  it('warns about an unparseable schedule and creates nothing', () => {
    const h = harness([createCronJobController()]);
    createCronJob(h, { schedule: '61 * * * *' });
    h.advance(2 * 60 * MINUTE, 5 * MINUTE);
    expect(jobs(h)).toHaveLength(0);
    expect(h.events({ reason: 'UnparseableSchedule' })).toEqual(['UnparseableSchedule: unparseable schedule: "61 * * * *" : end of range (61) above maximum (59): 61']);
  });

  it('skips a run missed by more than startingDeadlineSeconds', () => {
    const h = harness([createCronJobController()]);
    createCronJob(h, { schedule: '0 * * * *', startingDeadlineSeconds: 60 });
    h.manager.stop();
    h.clock.advance(65 * MINUTE);
    h.manager.start();
    h.settle();
    expect(jobs(h)).toHaveLength(0);
    h.advance(60 * MINUTE, 1_000);
    expect(jobs(h)).toHaveLength(1);
  });
});
