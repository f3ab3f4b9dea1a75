import { describe, expect, it } from 'vitest';
import { createJobController } from '../../../../electron/engine/simcluster/controllers/job.ts';
import { createTtlAfterFinishedController } from '../../../../electron/engine/simcluster/controllers/ttl-after-finished.ts';
import { defaultJob } from '../../../../electron/engine/simcluster/defaults/workloads.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { harness, PODS, reapPods, setPods, T, type Harness } from './harness.ts';

const JOBS = T('jobs.batch');

function createJob(h: Harness, spec: Record<string, unknown> = {}): KubeObject {
  const job = h.store.create(
    JOBS,
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi', namespace: 'default' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34.0', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] }] } }, ...spec },
    },
    {
      admit: (object) => {
        defaultJob(object as Parameters<typeof defaultJob>[0]);
        return object;
      },
    },
  );
  h.settle();
  return job;
}

const job = (h: Harness) => h.store.find(JOBS, 'default', 'pi') as KubeObject;
const status = (h: Harness) => job(h)['status'] as Record<string, unknown>;
const running = (h: Harness) => h.pods().filter((p) => !p.metadata.deletionTimestamp && ['Pending', 'Running'].includes((p['status'] as { phase: string }).phase));
const at = (h: Harness) => new Date(h.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('job-controller', () => {
  it('runs parallelism pods with the job labels and tracking finalizer', () => {
    const h = harness([createJobController()]);
    const created = createJob(h, { completions: 3, parallelism: 2 });
    expect(running(h)).toHaveLength(2);
    const pod = running(h)[0] as KubeObject;
    expect(pod.metadata.generateName).toBe('pi-');
    expect(pod.metadata.labels).toEqual({
      'batch.kubernetes.io/controller-uid': created.metadata.uid,
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': created.metadata.uid,
      'job-name': 'pi',
    });
    expect(pod.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(status(h)).toEqual({ startTime: at(h), active: 2, terminating: 0, uncountedTerminatedPods: {}, ready: 0 });
    setPods(h, 'ready');
    expect(status(h)).toMatchObject({ active: 2, ready: 2 });
    expect(h.events({ reason: 'SuccessfulCreate' })[0]).toMatch(/^SuccessfulCreate: Created pod: pi-[a-z0-9]{5}$/);
  });

  it('completes after `completions` pods succeed, with SuccessCriteriaMet and Complete', () => {
    const h = harness([createJobController()]);
    createJob(h, { completions: 3, parallelism: 2 });
    const started = at(h);
    h.advance(5_000);
    setPods(h, 'succeeded', { names: [running(h)[0]?.metadata.name ?? ''] });
    expect(running(h)).toHaveLength(2);
    setPods(h, 'succeeded', { names: running(h).map((p) => p.metadata.name) });
    const done = at(h);
    const condition = (type: string) => ({ type, status: 'True', lastProbeTime: done, lastTransitionTime: done, reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' });
    expect(status(h)).toEqual({
      conditions: [condition('SuccessCriteriaMet'), condition('Complete')],
      startTime: started,
      completionTime: done,
      succeeded: 3,
      terminating: 0,
      uncountedTerminatedPods: {},
      ready: 0,
    });
    expect(h.pods().every((p) => p.metadata.finalizers === undefined)).toBe(true);
    expect(h.events({ reason: 'Completed' })).toEqual(['Completed: Job completed']);
    expect(h.events({ reason: 'SuccessfulCreate' })).toHaveLength(3);
  });

  it('replaces failed pods after an exponential back-off and fails past backoffLimit', () => {
    const h = harness([createJobController()]);
    createJob(h, { backoffLimit: 2 });
    setPods(h, 'failed');
    expect(running(h)).toHaveLength(0);
    h.advance(9_000);
    expect(running(h)).toHaveLength(0);
    h.advance(1_000);
    expect(running(h)).toHaveLength(1);
    setPods(h, 'failed', { names: running(h).map((p) => p.metadata.name) });
    h.advance(19_000);
    expect(running(h)).toHaveLength(0);
    h.advance(1_000);
    setPods(h, 'failed', { names: running(h).map((p) => p.metadata.name) });
    expect(status(h)['failed']).toBe(3);
    const conditions = status(h)['conditions'] as Array<{ type: string; reason: string; message: string }>;
    expect(conditions.map((c) => [c.type, c.reason, c.message])).toEqual([
      ['FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
      ['Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    ]);
    expect(status(h)['completionTime']).toBeUndefined();
    expect(h.events({ reason: 'BackoffLimitExceeded' })).toEqual(['BackoffLimitExceeded: Job has reached the specified backoff limit']);
    h.advance(60_000);
    expect(running(h)).toHaveLength(0);
  });

  it('fails with DeadlineExceeded after activeDeadlineSeconds and stops its pods', () => {
    const h = harness([createJobController()]);
    createJob(h, { activeDeadlineSeconds: 30 });
    setPods(h, 'ready');
    h.advance(30_000);
    expect(status(h)['conditions']).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Failed', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' })]));
    expect(running(h)).toHaveLength(0);
    expect(h.events({ reason: 'SuccessfulDelete' })).toHaveLength(1);
  });

  it('counts a pod deleted mid-run as failed and replaces it after the back-off', () => {
    const h = harness([createJobController()]);
    createJob(h);
    setPods(h, 'ready');
    const first = running(h)[0] as KubeObject;
    h.store.delete(PODS, 'default', first.metadata.name, { gracePeriodSeconds: 30 });
    h.settle();
    expect(status(h)).toEqual(expect.objectContaining({ failed: 1, terminating: 1, ready: 0 }));
    expect(status(h)['active']).toBeUndefined();
    expect(h.store.get(PODS, 'default', first.metadata.name).metadata.finalizers).toBeUndefined();
    reapPods(h);
    expect(h.store.find(PODS, 'default', first.metadata.name)).toBeUndefined();
    h.advance(10_000);
    expect(status(h)).toMatchObject({ failed: 1, active: 1, terminating: 0 });
  });

  it('releases the tracking finalizer of pods whose Job is gone', () => {
    const h = harness([createJobController()]);
    createJob(h, { parallelism: 2, completions: 2 });
    h.store.delete(JOBS, 'default', 'pi');
    h.settle();
    expect(h.pods()).toHaveLength(2);
    expect(h.pods().every((p) => p.metadata.finalizers === undefined)).toBe(true);
  });

  it('deletes a finished Job ttlSecondsAfterFinished later, in the foreground', () => {
    const h = harness([createJobController(), createTtlAfterFinishedController()]);
    createJob(h, { ttlSecondsAfterFinished: 60 });
    setPods(h, 'succeeded');
    h.advance(59_000);
    expect(job(h).metadata.deletionTimestamp).toBeUndefined();
    h.advance(1_000);
    expect(job(h).metadata.deletionTimestamp).toBe(at(h));
    expect(job(h).metadata.finalizers).toEqual(['foregroundDeletion']);
  });

  it('suspends and resumes', () => {
    const h = harness([createJobController()]);
    createJob(h);
    h.store.mutate(JOBS, 'default', 'pi', (copy) => {
      (copy['spec'] as { suspend: boolean }).suspend = true;
    });
    h.settle();
    expect(running(h)).toHaveLength(0);
    expect(status(h)['conditions']).toEqual([expect.objectContaining({ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' })]);
    expect(status(h)['startTime']).toBeUndefined();
    h.store.mutate(JOBS, 'default', 'pi', (copy) => {
      (copy['spec'] as { suspend: boolean }).suspend = false;
    });
    h.settle();
    expect(running(h)).toHaveLength(1);
    expect(status(h)['conditions']).toEqual([expect.objectContaining({ type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed' })]);
  });
});
