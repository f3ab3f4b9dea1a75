/**
 * For built-in kinds, objectStatus must agree with the rules the Overview and the graph use
 * today (workloadState, podStatus/podTone), over the project's existing workload and pod
 * fixtures. The only differences allowed are kstatus' order: deletion and an unobserved spec
 * are decided before any kind's rule.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { podStatus, podTone, type PodStatusView } from '../../../../shared/kube-status.ts';
import { objectStatus, type ObjectStatus } from '../../../../shared/object-status.ts';
import { workloadState } from '../../../../shared/workload-status.ts';
import { patched, reportJob, runningPod, shop, web } from '../../engine/graph/fixtures.ts';
import { deployment as historyDeployment } from '../../engine/history/fixtures.ts';
import { CRONJOB } from '../../engine/informers/fixtures/objects.ts';

type State = ObjectStatus['state'];

const CHECKOUT = JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/manifests/live-objects/checkout-deployment.json', import.meta.url)), 'utf8')) as SlimObject;
const DELETED_AT = '2025-05-01T11:00:00Z';
const STALLED = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-7c9d" has timed out progressing.', lastTransitionTime: '2025-05-01T10:10:00Z' }];
const REPLICA_FAILURE = [
  { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "web-6d8f" is progressing.' },
  { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'pods "web-6d8f-" is forbidden: exceeded quota: compute, requested: cpu=500m, used: cpu=4, limited: cpu=4' },
];
const cronJob = CRONJOB as unknown as SlimObject;
const runningJob = patched(reportJob, { status: { completionTime: undefined, succeeded: 0, active: 1, conditions: [] } });
const readyCount = (ready: number): Record<string, unknown> => ({ readyReplicas: ready, availableReplicas: ready });

/** Workloads from the existing fixtures, with the state and reason objectStatus must give. */
const WORKLOADS: Array<[string, SlimObject, State, string]> = [
  ['a caught-up Deployment', web, 'current', 'Ready'],
  ['a Deployment short of ready replicas', patched(web, { status: readyCount(1) }), 'drifting', 'Not ready'],
  ['a Deployment with more ready than desired', patched(web, { status: readyCount(4) }), 'drifting', 'Not ready'],
  ['a Deployment past its progress deadline', patched(web, { status: { ...readyCount(1), conditions: STALLED } }), 'failed', 'ProgressDeadlineExceeded'],
  ['a Deployment whose ReplicaSet cannot create pods', patched(web, { status: { ...readyCount(2), conditions: REPLICA_FAILURE } }), 'failed', 'FailedCreate'],
  ['a Deployment rolling out', patched(web, { status: { updatedReplicas: 1 } }), 'progressing', 'Rolling out'],
  ['a paused Deployment', patched(web, { spec: { paused: true } }), 'suspended', 'Paused'],
  ['a Deployment scaled to 0', patched(web, { spec: { replicas: 0 }, status: { replicas: 0, updatedReplicas: 0, ...readyCount(0) } }), 'current', 'Scaled to 0'],
  ['a history Deployment timed out', historyDeployment('api', 'd-1', { ready: 1, progressing: { status: 'False', reason: 'ProgressDeadlineExceeded' } }), 'failed', 'ProgressDeadlineExceeded'],
  ['a history Deployment scaling up', historyDeployment('api', 'd-2', { replicas: 4, current: 2, ready: 2, updated: 4 }), 'progressing', 'Scaling'],
  ['the live checkout Deployment', CHECKOUT, 'current', 'Ready'],
  ['a Job still running', runningJob, 'progressing', 'Running'],
  ['a Job past its backoff limit', patched(runningJob, { status: { active: 0, failed: 7, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }] } }), 'failed', 'BackoffLimitExceeded'],
  ['a suspended Job', patched(runningJob, { status: { active: 0, conditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }] } }), 'suspended', 'JobSuspended'],
  ['a scheduled CronJob', cronJob, 'current', 'Scheduled'],
  ['a suspended CronJob', patched(cronJob, { spec: { suspend: true } }), 'suspended', 'Suspended'],
  ['a CronJob with a running Job', patched(cronJob, { status: { active: [{ kind: 'Job', name: 'report-29100180', namespace: 'default', uid: 'j-1' }] } }), 'progressing', 'Active (1)'],
  ...shop()
    .filter((object) => object.apiVersion === 'apps/v1' || object.apiVersion === 'batch/v1')
    .map((object): [string, SlimObject, State, string] => {
      const scaledDown = object.kind === 'ReplicaSet' && object.metadata.name !== 'web-7d9f8c6b5d';
      const reason = object.kind === 'Job' ? 'Complete' : object.kind === 'CronJob' ? 'Scheduled' : scaledDown ? 'Scaled to 0' : 'Ready';
      return [`the shop's ${object.kind} ${object.metadata.name}`, object, 'current', reason];
    }),
];

/** Pods from the existing fixtures. */
const PODS: Array<[string, SlimObject]> = [
  ...shop()
    .filter((object) => object.kind === 'Pod')
    .map((object): [string, SlimObject] => [`the shop's pod ${object.metadata.name}`, object]),
  ['a crash-looping pod', runningPod('web-x', 'p-1', { waiting: { reason: 'CrashLoopBackOff', restarts: 7 } })],
  ['a pod pulling its image', runningPod('web-y', 'p-2', { waiting: { reason: 'ContainerCreating', restarts: 0 }, phase: 'Pending' })],
  ['a running pod that is not ready', runningPod('web-z', 'p-3', { ready: false })],
  [
    'a pod waiting for its init container',
    patched(runningPod('init', 'p-4', { waiting: { reason: 'PodInitializing', restarts: 0 }, phase: 'Pending' }), {
      spec: { initContainers: [{ name: 'migrate', image: 'ghcr.io/acme/migrate:1' }] },
      status: { initContainerStatuses: [{ name: 'migrate', ready: false, restartCount: 0, state: { running: { startedAt: '2025-05-01T10:00:00Z' } } }] },
    }),
  ],
  ['a pod being deleted', patched(runningPod('old', 'p-5'), { metadata: { deletionTimestamp: DELETED_AT } })],
];

describe('objectStatus agrees with workloadState on built-in workloads', () => {
  it.each(WORKLOADS)('%s', (_name, object, state, reason) => {
    const today = workloadState(object);
    const status = objectStatus(object);
    expect(status).toMatchObject({ state, reason, source: 'built-in', tone: today.tone });
    // The reason is the Overview's status word or, when a condition decided, that condition's reason.
    const conditionReasons = today.conditions.map((condition) => condition.reason);
    expect([today.status, ...conditionReasons]).toContain(status.reason);
  });

  it('differs only where kstatus decides first: an unobserved spec, and a finished Job being deleted', () => {
    const unobserved = patched(web, { metadata: { generation: 5 }, status: { observedGeneration: 4 } });
    expect(workloadState(unobserved)).toMatchObject({ status: 'Rolling out', tone: 'pending' });
    expect(objectStatus(unobserved)).toMatchObject({ state: 'unobserved', tone: 'pending', source: 'generation' });

    const deletedRunning = patched(web, { metadata: { deletionTimestamp: DELETED_AT } });
    expect(workloadState(deletedRunning)).toMatchObject({ status: 'Terminating', tone: 'pending' });
    expect(objectStatus(deletedRunning)).toMatchObject({ state: 'terminating', tone: 'pending' });

    const deletedComplete = patched(reportJob, { metadata: { deletionTimestamp: DELETED_AT } });
    expect(workloadState(deletedComplete)).toMatchObject({ status: 'Complete', tone: 'neutral' });
    expect(objectStatus(deletedComplete)).toMatchObject({ state: 'terminating', tone: 'pending' });
  });
});

describe('objectStatus agrees with kubectl’s pod STATUS', () => {
  it.each(PODS)('%s', (_name, object) => {
    const summary = podStatus(object as unknown as PodStatusView);
    const status = objectStatus(object);
    expect(status.tone).toBe(podTone(summary.reason, summary.ready, summary.total));
    expect(status.reason).toBe(summary.reason);
    expect(status.source).toBe(object.metadata.deletionTimestamp ? 'terminating' : 'built-in');
  });

  it('maps the pod STATUS to states', () => {
    const states = Object.fromEntries(PODS.map(([name, object]) => [name, objectStatus(object).state]));
    expect(states).toMatchObject({
      "the shop's pod web-7d9f8c6b5d-4xk2p": 'current',
      "the shop's pod report-29100000-xk2p9": 'current',
      'a crash-looping pod': 'failed',
      'a pod pulling its image': 'progressing',
      'a running pod that is not ready': 'drifting',
      'a pod waiting for its init container': 'progressing',
      'a pod being deleted': 'terminating',
    });
    expect(objectStatus(runningPod('web-x', 'p-1', { waiting: { reason: 'CrashLoopBackOff', restarts: 7 } })).message).toBe('0/1 containers ready, 7 restarts');
  });
});
