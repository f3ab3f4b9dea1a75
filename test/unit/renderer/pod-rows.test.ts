import { describe, expect, it } from 'vitest';
import { podRow, podsPerNode } from '../../../renderer/stores/rows/pods.ts';
import { pod } from './cluster-fixtures.ts';

const FINISHED = '2025-05-01T10:05:00Z';
const running = (name = 'c0') => ({ name, ready: true, started: true, restartCount: 0, state: { running: { startedAt: FINISHED } } });
const waiting = (reason: string, name = 'c0', restartCount = 0) => ({ name, ready: false, started: false, restartCount, state: { waiting: { reason } } });
const terminated = (terminatedState: Record<string, unknown>, name = 'c0') => ({ name, ready: false, restartCount: 0, state: { terminated: { finishedAt: FINISHED, ...terminatedState } } });

describe('pod rows: kubectl STATUS', () => {
  const cases: Array<[string, ReturnType<typeof pod>, string, string]> = [
    ['a running, ready pod', pod('web'), 'Running', '1/1'],
    ['a pod whose readiness probe fails', pod('web', { statuses: [{ ...running(), ready: false }] }), 'Running', '0/1'],
    ['a crash-looping container', pod('web', { statuses: [waiting('CrashLoopBackOff', 'c0', 5)] }), 'CrashLoopBackOff', '0/1'],
    ['a pod being created', pod('web', { phase: 'Pending', statuses: [waiting('ContainerCreating')] }), 'ContainerCreating', '0/1'],
    [
      'the first container’s reason over a later one',
      pod('web', { containers: 2, statuses: [waiting('ImagePullBackOff', 'c0'), waiting('CrashLoopBackOff', 'c1')] }),
      'ImagePullBackOff',
      '0/2',
    ],
    [
      'an init container still running',
      pod('web', { phase: 'Pending', initContainers: [{ name: 'migrate' }, { name: 'warm' }], initStatuses: [running('migrate'), waiting('PodInitializing', 'warm')], statuses: [waiting('PodInitializing')] }),
      'Init:0/2',
      '0/1',
    ],
    [
      'a crash-looping init container',
      pod('web', { phase: 'Pending', initContainers: [{ name: 'migrate' }], initStatuses: [waiting('CrashLoopBackOff', 'migrate', 3)], statuses: [waiting('PodInitializing')] }),
      'Init:CrashLoopBackOff',
      '0/1',
    ],
    [
      'a failed init container',
      pod('web', { phase: 'Pending', initContainers: [{ name: 'migrate' }], initStatuses: [terminated({ exitCode: 1, reason: 'Error' }, 'migrate')], statuses: [waiting('PodInitializing')] }),
      'Init:Error',
      '0/1',
    ],
    [
      'an init container that exited without a reason',
      pod('web', { phase: 'Pending', initContainers: [{ name: 'migrate' }], initStatuses: [terminated({ exitCode: 2 }, 'migrate')], statuses: [] }),
      'Init:ExitCode:2',
      '0/1',
    ],
    ['a finished job pod', pod('job', { phase: 'Succeeded', statuses: [terminated({ exitCode: 0, reason: 'Completed' })] }), 'Completed', '0/1'],
    ['a failed job pod', pod('job', { phase: 'Failed', statuses: [terminated({ exitCode: 1, reason: 'Error' })] }), 'Error', '0/1'],
    ['a container killed by a signal', pod('web', { statuses: [terminated({ exitCode: 137, signal: 9 })] }), 'Signal:9', '0/1'],
    ['an evicted pod', pod('web', { phase: 'Failed', reason: 'Evicted', statuses: [] }), 'Evicted', '0/1'],
    ['a pod being deleted', pod('web', { deletionTimestamp: FINISHED }), 'Terminating', '1/1'],
    ['a pod of a lost node', pod('web', { deletionTimestamp: FINISHED, reason: 'NodeLost' }), 'Unknown', '1/1'],
    [
      'a scheduling-gated pod',
      pod('web', { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }], statuses: [] }),
      'SchedulingGated',
      '0/1',
    ],
    [
      'a running sidecar, counted as a container',
      pod('web', { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }], initStatuses: [running('proxy')], statuses: [running()] }),
      'Running',
      '2/2',
    ],
    [
      'a completed container beside a running one, pod not ready',
      pod('web', { containers: 2, conditions: [{ type: 'Ready', status: 'False' }], statuses: [running('c0'), terminated({ exitCode: 0, reason: 'Completed' }, 'c1')] }),
      'NotReady',
      '1/2',
    ],
  ];

  it.each(cases)('prints %s as kubectl does', (_, object, status, ready) => {
    const row = podRow(object);
    expect(row.status).toBe(status);
    expect(`${row.readyContainers}/${row.totalContainers}`).toBe(ready);
  });

  it('tones healthy, passing, pending and broken pods apart', () => {
    expect(podRow(cases[0]![1]).tone).toBe('ok');
    expect(podRow(cases[1]![1]).tone).toBe('warning');
    expect(podRow(cases[2]![1]).tone).toBe('danger');
    expect(podRow(cases[3]![1]).tone).toBe('pending');
    expect(podRow(cases[5]![1]).tone).toBe('pending');
    expect(podRow(cases[6]![1]).tone).toBe('danger');
    expect(podRow(cases[9]![1]).tone).toBe('neutral');
  });

  it('sums restarts and remembers when the last one happened', () => {
    const object = pod('web', {
      containers: 2,
      statuses: [
        { ...waiting('CrashLoopBackOff', 'c0', 4), lastState: { terminated: { exitCode: 1, finishedAt: '2025-05-01T11:00:00Z' } } },
        { ...running('c1'), restartCount: 1, lastState: { terminated: { exitCode: 137, finishedAt: '2025-05-01T10:30:00Z' } } },
      ],
    });
    const row = podRow(object);
    expect(row.restarts).toBe(5);
    expect(row.lastRestart).toBe(Date.parse('2025-05-01T11:00:00Z'));
  });

  it('names the controlling owner and the node', () => {
    const object = pod('web-5d8f7c9b6-x2v9q', {
      node: 'worker-7',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8f7c9b6', uid: 'rs-1', controller: true }],
    });
    const row = podRow(object);
    expect(row.controlledBy).toBe('ReplicaSet/web-5d8f7c9b6');
    expect(row.node).toBe('worker-7');
    expect(row.search).toContain('worker-7');
  });

  it('counts only unfinished pods per node', () => {
    const counts = podsPerNode([
      pod('a', { node: 'n1' }),
      pod('b', { node: 'n1' }),
      pod('c', { node: 'n2' }),
      pod('done', { node: 'n1', phase: 'Succeeded' }),
      pod('failed', { node: 'n2', phase: 'Failed' }),
    ]);
    expect(Object.fromEntries(counts)).toEqual({ n1: 2, n2: 1 });
  });
});
