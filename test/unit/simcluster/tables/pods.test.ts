import { describe, expect, it } from 'vitest';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { toTable } from '../../../../electron/engine/simcluster/tables/index.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const pods = typeById('pods')!;

/** A ReplicaSet pod as the kubelet reports it; `status` overrides the running one. */
function pod(status: Record<string, unknown>, extra: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-7d4b9c8f5-x2k9q', namespace: 'default', uid: 'u1', resourceVersion: '812', creationTimestamp: ago(3 * 60 * 60 + 5 * 60), labels: { app: 'web' }, ...extra.metadata },
    spec: { nodeName: 'worker-1', containers: [{ name: 'nginx', image: 'nginx:1.27' }], ...extra.spec },
    status,
  };
}

const running = (restartCount = 0, lastState: Record<string, unknown> = {}) => ({
  phase: 'Running',
  podIP: '10.244.1.17',
  podIPs: [{ ip: '10.244.1.17' }],
  conditions: [{ type: 'Ready', status: 'True' }],
  containerStatuses: [{ name: 'nginx', ready: true, started: true, restartCount, image: 'nginx:1.27', state: { running: { startedAt: ago(600) } }, lastState }],
});

const waiting = (reason: string, restartCount = 0, lastState: Record<string, unknown> = {}) => ({
  phase: 'Pending',
  containerStatuses: [{ name: 'nginx', ready: false, started: false, restartCount, image: 'nginx:broken', state: { waiting: { reason, message: '...' } }, lastState }],
});

function cells(object: KubeObject) {
  const [row] = toTable(pods, [object], { now: NOW }).rows;
  return row!.cells;
}

describe('Pod rows', () => {
  it('prints a ready pod as kubectl get pods -o wide does', () => {
    expect(cells(pod(running()))).toEqual(['web-7d4b9c8f5-x2k9q', '1/1', 'Running', '0', '3h5m', '10.244.1.17', 'worker-1', '<none>', '<none>']);
  });

  it('shows the waiting reason: ContainerCreating, ErrImagePull, ImagePullBackOff', () => {
    for (const reason of ['ContainerCreating', 'ErrImagePull', 'ImagePullBackOff']) {
      expect(cells(pod(waiting(reason))).slice(1, 4)).toEqual(['0/1', reason, '0']);
    }
  });

  it('shows CrashLoopBackOff with restarts and how long ago the last one ended', () => {
    const crashing = waiting('CrashLoopBackOff', 3, { terminated: { exitCode: 1, reason: 'Error', startedAt: ago(150), finishedAt: ago(125) } });
    expect(cells(pod(crashing)).slice(1, 4)).toEqual(['0/1', 'CrashLoopBackOff', '3 (2m5s ago)']);
  });

  it('keeps the restart suffix once the container runs again', () => {
    expect(cells(pod(running(1, { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: ago(45 * 60) } })))[3]).toBe('1 (45m ago)');
  });

  it('shows Pending with no IP for a pod the scheduler has not placed', () => {
    const unscheduled = pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] }, { spec: { nodeName: undefined } });
    expect(cells(unscheduled)).toEqual(['web-7d4b9c8f5-x2k9q', '0/1', 'Pending', '0', '3h5m', '<none>', '<none>', '<none>', '<none>']);
  });

  it('shows Completed and marks the row Completed for a finished Job pod', () => {
    const done = pod({ phase: 'Succeeded', containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed', finishedAt: ago(30) } } }] });
    const [row] = toTable(pods, [done], { now: NOW }).rows;
    expect(row!.cells.slice(1, 3)).toEqual(['0/1', 'Completed']);
    expect(row!.conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
  });

  it('shows Error, or ExitCode:n when the runtime gave no reason', () => {
    const failed = (terminated: Record<string, unknown>) => pod({ phase: 'Failed', containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, state: { terminated } }] });
    expect(cells(failed({ exitCode: 1, reason: 'Error' }))[2]).toBe('Error');
    expect(cells(failed({ exitCode: 2 }))[2]).toBe('ExitCode:2');
    expect(cells(failed({ exitCode: 0, signal: 9 }))[2]).toBe('Signal:9');
  });

  it('shows Terminating once deletion started, and Unknown for a pod of a lost node', () => {
    expect(cells(pod(running(), { metadata: { deletionTimestamp: ago(5) } }))[2]).toBe('Terminating');
    expect(cells(pod({ ...running(), reason: 'NodeLost' }, { metadata: { deletionTimestamp: ago(5) } }))[2]).toBe('Unknown');
  });

  it('shows Init:n/m while init containers run, and the init container failure', () => {
    const spec = { initContainers: [{ name: 'migrate', image: 'shop/migrate:4' }, { name: 'warm', image: 'shop/warm:4' }] };
    const initStatus = (state: Record<string, unknown>) => ({
      phase: 'Pending',
      initContainerStatuses: [
        { name: 'migrate', ready: true, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
        { name: 'warm', ready: false, restartCount: 2, state, lastState: { terminated: { exitCode: 1, finishedAt: ago(20) } } },
      ],
      containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }],
    });
    expect(cells(pod(initStatus({ running: {} }), { spec })).slice(1, 4)).toEqual(['0/1', 'Init:1/2', '2 (20s ago)']);
    expect(cells(pod(initStatus({ waiting: { reason: 'CrashLoopBackOff' } }), { spec }))[2]).toBe('Init:CrashLoopBackOff');
  });

  it('counts a started sidecar init container among the ready containers', () => {
    const spec = { initContainers: [{ name: 'proxy', image: 'envoy:1.31', restartPolicy: 'Always' }] };
    const status = {
      ...running(),
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
      initContainerStatuses: [{ name: 'proxy', ready: true, started: true, restartCount: 0, state: { running: {} } }],
    };
    expect(cells(pod(status, { spec })).slice(1, 3)).toEqual(['2/2', 'Running']);
  });

  it('shows readiness gates as true/total', () => {
    const status = { ...running(), conditions: [{ type: 'Ready', status: 'True' }, { type: 'example.com/lb-ready', status: 'True' }] };
    const spec = { readinessGates: [{ conditionType: 'example.com/lb-ready' }, { conditionType: 'example.com/dns-ready' }] };
    expect(cells(pod(status, { spec }))[8]).toBe('1/2');
  });
});
