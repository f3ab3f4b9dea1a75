import { describe, expect, it } from 'vitest';
import { applyPodDefaults } from '../../../../electron/engine/simcluster/controllers/pods.ts';
import type { IncomingObject, KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { cluster, condition, deployment, PODS, statusOf, type Cluster } from './cluster.ts';

function pod(name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): IncomingObject {
  const metadata: Record<string, unknown> = { name, namespace: 'default' };
  if (annotations) metadata['annotations'] = annotations;
  return applyPodDefaults({ apiVersion: 'v1', kind: 'Pod', metadata, spec }) as IncomingObject;
}

interface ContainerStatus {
  name: string;
  ready: boolean;
  started: boolean;
  restartCount: number;
  state: { waiting?: { reason: string; message?: string }; running?: { startedAt: string }; terminated?: { exitCode: number; reason: string } };
  lastState: { terminated?: { exitCode: number; reason: string } };
}

function container(p: KubeObject): ContainerStatus {
  return (statusOf(p)['containerStatuses'] as ContainerStatus[])[0]!;
}

function current(c: Cluster, name: string): KubeObject {
  return c.store.get(PODS, 'default', name);
}

describe('kubelet', () => {
  it('walks a pod through ContainerCreating to Running and Ready on the configured delays', () => {
    const c = cluster({ nodes: 1 });
    c.create('pods', pod('web', { containers: [{ name: 'web', image: 'nginx:1.27' }] }));
    const p0 = current(c, 'web');
    expect(statusOf(p0)).toMatchObject({ phase: 'Pending', hostIP: '172.18.0.2', startTime: '2026-01-01T12:00:00Z' });
    expect(container(p0).state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(condition(p0, 'PodReadyToStartContainers')).toMatchObject({ status: 'False' });
    expect(condition(p0, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' });

    c.advance(200); // sandbox ready (startDelay / 2): IP, image pull starts
    expect(statusOf(current(c, 'web'))['podIP']).toBe('10.244.0.2');
    c.advance(1_200); // pull done, created and started
    const running = current(c, 'web');
    expect(statusOf(running)['phase']).toBe('Running');
    expect(container(running)).toMatchObject({ ready: false, started: true, state: { running: { startedAt: '2026-01-01T12:00:01Z' } } });
    c.advance(400);
    expect(container(current(c, 'web')).ready).toBe(false);
    c.advance(100);
    expect(container(current(c, 'web')).ready).toBe(true);
    expect(condition(current(c, 'web'), 'Ready')).toEqual({ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T12:00:01Z' });
  });

  it('reuses a pulled image on the same node and honours readinessProbe.initialDelaySeconds', () => {
    const c = cluster({ nodes: 1 });
    c.create('pods', pod('a', { containers: [{ name: 'web', image: 'nginx:1.27' }] }));
    c.advance(3_000);
    c.create('pods', pod('b', { containers: [{ name: 'web', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 5 } }] }));
    c.advance(3_000);
    expect(c.events({ object: 'b', reason: 'Pulled' }).map((e) => e.message)).toEqual(['Container image "nginx:1.27" already present on machine']);
    expect(c.events({ object: 'b', reason: 'Pulling' })).toHaveLength(0);
    expect(container(current(c, 'b'))).toMatchObject({ started: true, ready: false });
    c.advance(3_000);
    expect(container(current(c, 'b')).ready).toBe(true);
  });

  it('counts crash-loop restarts with a doubling CrashLoopBackOff and aggregated BackOff events', () => {
    const c = cluster({ nodes: 1 });
    c.create('pods', pod('crasher', { containers: [{ name: 'web', image: 'example/app:crash' }] }));
    c.advance(4_000);
    // First exit restarts at once; the second one starts the 10s back-off.
    const first = container(current(c, 'crasher'));
    expect(first.restartCount).toBe(1);
    expect(first.state.waiting).toEqual({ reason: 'CrashLoopBackOff', message: `back-off 10s restarting failed container=web pod=crasher_default(${current(c, 'crasher').metadata.uid})` });
    expect(first.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(statusOf(current(c, 'crasher'))['phase']).toBe('Running');
    expect(condition(current(c, 'crasher'), 'Ready')).toMatchObject({ status: 'False' });

    // Crashes at ~2.4s, 3.6s, 14.8s, 36s, 77.2s: back-offs of 10s, 20s, 40s, then 80s.
    c.advance(120_000, 500);
    const later = container(current(c, 'crasher'));
    expect(later.restartCount).toBe(4);
    expect(later.state.waiting?.message).toMatch(/^back-off 1m20s restarting failed container=web /);
    const backOff = c.events({ object: 'crasher', reason: 'BackOff' });
    expect(backOff).toHaveLength(1);
    expect(backOff[0]).toMatchObject({ type: 'Warning', component: 'kubelet', host: 'node-1', count: 4, message: `Back-off restarting failed container web in pod crasher_default(${current(c, 'crasher').metadata.uid})` });
    expect(c.events({ object: 'crasher', reason: 'Started' })[0]?.count).toBe(5);
  });

  it('runs a restartPolicy Never pod to Succeeded, and to Failed with the exit-code annotation', () => {
    const c = cluster({ nodes: 1 });
    c.create('pods', pod('ok', { restartPolicy: 'Never', containers: [{ name: 'job', image: 'busybox:1.36' }] }));
    c.create('pods', pod('bad', { restartPolicy: 'Never', containers: [{ name: 'job', image: 'busybox:1.36' }] }, { 'simcluster.kubedrift.dev/exit-code': '3', 'simcluster.kubedrift.dev/run-seconds': '1' }));
    c.advance(8_000);
    const ok = current(c, 'ok');
    expect(statusOf(ok)['phase']).toBe('Succeeded');
    expect(container(ok)).toMatchObject({ ready: false, started: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } });
    expect(condition(ok, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(condition(ok, 'PodReadyToStartContainers')).toMatchObject({ status: 'False' });
    const bad = current(c, 'bad');
    expect(statusOf(bad)['phase']).toBe('Failed');
    expect(container(bad).state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
  });

  it('stops containers of a deleted pod with a Killing event, then removes it', () => {
    const c = cluster({ nodes: 1 });
    c.create('deployments.apps', deployment('web', { replicas: 1 }));
    c.advance(5_000);
    const victim = c.pods()[0]!;
    c.store.delete(PODS, 'default', victim.metadata.name, { gracePeriodSeconds: 30 });
    c.settle();
    const terminating = current(c, victim.metadata.name);
    expect(terminating.metadata.deletionTimestamp).toBe('2026-01-01T12:00:35Z');
    expect(terminating.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(c.events({ object: victim.metadata.name, reason: 'Killing' })).toEqual([expect.objectContaining({ message: 'Stopping container web', component: 'kubelet', host: 'node-1' })]);
    // The ReplicaSet does not count a terminating pod: its replacement is already there.
    expect(c.pods().filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(1);
    c.advance(1_000);
    expect(c.store.find(PODS, 'default', victim.metadata.name)).toBeUndefined();
  });
});
