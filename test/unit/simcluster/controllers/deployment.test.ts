import { describe, expect, it } from 'vitest';
import { cluster, condition, deployment, DEPLOYMENTS, isReady, setImage, statusOf, type Cluster } from './cluster.ts';

function rolloutComplete(c: Cluster, name: string): boolean {
  const d = c.get('deployments.apps', name);
  const s = statusOf(d) as Record<string, number>;
  const desired = (d['spec'] as { replicas: number }).replicas;
  const ownedOld = c.replicaSets().filter((rs) => (statusOf(rs)['replicas'] as number) > 0).length;
  return (s['observedGeneration'] ?? 0) >= (d.metadata.generation ?? 0) && s['updatedReplicas'] === desired && s['replicas'] === desired && s['availableReplicas'] === desired && ownedOld === 1;
}

describe('deployment-controller', () => {
  it('brings a Deployment of 3 to three running, ready pods and reports Available', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web'));
    c.advance(5_000);

    const [rs, ...others] = c.replicaSets();
    expect(others).toHaveLength(0);
    expect(rs?.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    const hash = rs?.metadata.labels?.['pod-template-hash'];
    expect(rs?.metadata.name).toBe(`web-${hash}`);
    expect(rs?.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' });
    expect(rs?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Deployment', name: 'web', controller: true, blockOwnerDeletion: true })]);
    expect((rs?.['spec'] as { selector: unknown }).selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } });
    expect(statusOf(rs!)).toEqual({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });

    const pods = c.pods();
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.metadata.name).toMatch(new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      const status = statusOf(pod);
      expect(status['phase']).toBe('Running');
      expect(status['podIP']).toMatch(/^10\.244\.\d+\.\d+$/);
      expect(status['hostIP']).toMatch(/^172\.18\.0\.\d+$/);
      expect((status['conditions'] as Array<{ type: string; status: string }>).map((x) => `${x.type}=${x.status}`)).toEqual([
        'PodReadyToStartContainers=True',
        'Initialized=True',
        'Ready=True',
        'ContainersReady=True',
        'PodScheduled=True',
      ]);
      expect(status['containerStatuses']).toEqual([
        expect.objectContaining({ name: 'web', ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:1.27', state: { running: { startedAt: expect.any(String) } }, lastState: {} }),
      ]);
    }
    // Three nodes, three pods: least-allocated scoring spreads them.
    expect(new Set(pods.map((p) => (p['spec'] as { nodeName: string }).nodeName)).size).toBe(3);

    const d = c.get('deployments.apps', 'web');
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    const status = statusOf(d);
    expect(status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(status['unavailableReplicas']).toBeUndefined();
    expect(condition(d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    expect(condition(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rs?.metadata.name}" has successfully progressed.` });
    expect(rolloutComplete(c, 'web')).toBe(true);
  });

  it('emits the scaling, creation, scheduling and container events with their real components', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web', { replicas: 2 }));
    c.advance(5_000);
    const rsName = c.replicaSets()[0]?.metadata.name;
    const pod = c.pods()[0]!;
    const node = (pod['spec'] as { nodeName: string }).nodeName;

    expect(c.events({ reason: 'ScalingReplicaSet' })).toEqual([expect.objectContaining({ component: 'deployment-controller', object: 'web', message: `Scaled up replica set ${rsName} from 0 to 2` })]);
    expect(c.events({ reason: 'SuccessfulCreate' }).map((e) => [e.component, e.message])).toEqual(c.pods().map(() => ['replicaset-controller', expect.stringMatching(new RegExp(`^Created pod: ${rsName}-\\w{5}$`))]));
    const forPod = c.events({ object: pod.metadata.name });
    expect(forPod.map((e) => [e.component, e.reason])).toEqual([
      ['default-scheduler', 'Scheduled'],
      ['kubelet', 'Pulling'],
      ['kubelet', 'Pulled'],
      ['kubelet', 'Created'],
      ['kubelet', 'Started'],
    ]);
    expect(forPod[0]?.message).toBe(`Successfully assigned default/${pod.metadata.name} to ${node}`);
    expect(forPod[1]).toMatchObject({ message: 'Pulling image "nginx:1.27"', host: node, fieldPath: 'spec.containers{web}' });
    expect(forPod[2]?.message).toMatch(/^Successfully pulled image "nginx:1\.27" in 1s \(1s including waiting\)\. Image size: \d+ bytes\.$/);
    expect(forPod[3]?.message).toBe('Created container: web');
    expect(forPod[4]?.message).toBe('Started container web');
  });

  it('never drops below three ready pods in a maxSurge 1 / maxUnavailable 0 rolling update', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    c.advance(5_000);
    const [oldRS] = c.replicaSets();
    setImage(c, 'web', 'nginx:1.28');
    let minReady = Infinity;
    let maxPods = 0;
    c.advance(30_000, 100, () => {
      const live = c.pods().filter((p) => !p.metadata.deletionTimestamp);
      minReady = Math.min(minReady, live.filter(isReady).length);
      maxPods = Math.max(maxPods, live.length);
    });
    expect(minReady).toBe(3);
    expect(maxPods).toBe(4);

    const rsAfter = c.replicaSets();
    expect(rsAfter).toHaveLength(2);
    const old = rsAfter.find((rs) => rs.metadata.uid === oldRS?.metadata.uid)!;
    const next = rsAfter.find((rs) => rs.metadata.uid !== oldRS?.metadata.uid)!;
    expect((old['spec'] as { replicas: number }).replicas).toBe(0);
    expect(statusOf(old)).toEqual({ replicas: 0, observedGeneration: old.metadata.generation });
    expect(old.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(next.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    const d = c.get('deployments.apps', 'web');
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(c.pods().map((p) => (p['spec'] as { containers: Array<{ image: string }> }).containers[0]?.image)).toEqual(['nginx:1.28', 'nginx:1.28', 'nginx:1.28']);
    expect(rolloutComplete(c, 'web')).toBe(true);
    const scaling = c.events({ reason: 'ScalingReplicaSet' }).map((e) => e.message);
    expect(scaling).toContain(`Scaled up replica set ${next.metadata.name} from 0 to 1`);
    expect(scaling).toContain(`Scaled down replica set ${old.metadata.name} from 1 to 0`);
  });

  it('scales the old ReplicaSet to zero and waits for its pods before starting a Recreate rollout', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web', { strategy: { type: 'Recreate' } }));
    c.advance(5_000);
    const [oldRS] = c.replicaSets();
    setImage(c, 'web', 'nginx:1.28');
    let overlap = false;
    let sawTerminatingOnly = false;
    c.advance(20_000, 100, () => {
      const images = new Set(c.pods().map((p) => (p['spec'] as { containers: Array<{ image: string }> }).containers[0]?.image));
      if (images.size > 1) overlap = true;
      if (c.pods().length > 0 && c.pods().every((p) => p.metadata.deletionTimestamp)) sawTerminatingOnly = true;
    });
    // No moment with old and new pods side by side, and a moment with only old ones stopping.
    expect(overlap).toBe(false);
    expect(sawTerminatingOnly).toBe(true);
    const old = c.replicaSets().find((rs) => rs.metadata.uid === oldRS?.metadata.uid)!;
    expect((old['spec'] as { replicas: number }).replicas).toBe(0);
    const scaling = c.events({ reason: 'ScalingReplicaSet' }).map((e) => e.message);
    const down = scaling.indexOf(`Scaled down replica set ${old.metadata.name} from 3 to 0`);
    const up = scaling.findIndex((m) => m.startsWith('Scaled up') && !m.includes(old.metadata.name));
    expect(down).toBeGreaterThan(0);
    expect(up).toBeGreaterThan(down);
    expect(rolloutComplete(c, 'web')).toBe(true);
  });

  it('marks a rollout stuck on a broken image ProgressDeadlineExceeded once the deadline passes', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web', { progressDeadlineSeconds: 60 }));
    c.advance(5_000);
    setImage(c, 'web', 'nginx:broken');
    c.advance(30_000, 500);
    const newRS = c.replicaSets().find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '2')!;
    expect(condition(c.get('deployments.apps', 'web'), 'Progressing')).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated' });
    c.advance(40_000, 500);

    const d = c.get('deployments.apps', 'web');
    expect(condition(d, 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${newRS.metadata.name}" has timed out progressing.` });
    expect(condition(d, 'Available')).toMatchObject({ status: 'True' });
    // maxUnavailable 25% of 3 rounds down to 0: the old pods keep serving.
    expect(statusOf(d)).toMatchObject({ replicas: 4, updatedReplicas: 1, availableReplicas: 3, unavailableReplicas: 1 });

    const broken = c.pods().find((p) => p.metadata.labels?.['pod-template-hash'] === newRS.metadata.labels?.['pod-template-hash'])!;
    const state = (statusOf(broken)['containerStatuses'] as Array<{ state: { waiting?: { reason: string; message: string } } }>)[0]?.state;
    expect(state?.waiting?.reason).toMatch(/^(ImagePullBackOff|ErrImagePull)$/);
    const failed = c.events({ object: broken.metadata.name, reason: 'Failed' });
    expect(failed.map((e) => e.type)).toEqual(['Warning', 'Warning', 'Warning']);
    expect(failed[0]?.message).toBe('Failed to pull image "nginx:broken": failed to pull and unpack image "docker.io/library/nginx:broken": failed to resolve reference "docker.io/library/nginx:broken": docker.io/library/nginx:broken: not found');
    expect(failed[0]?.count).toBeGreaterThanOrEqual(3);
    expect(failed.map((e) => e.message).slice(1)).toEqual(['Error: ErrImagePull', 'Error: ImagePullBackOff']);
    expect(c.events({ object: broken.metadata.name, reason: 'BackOff' })[0]).toMatchObject({ type: 'Normal', message: 'Back-off pulling image "nginx:broken"' });
  });

  it('scales a settled Deployment with one ScalingReplicaSet event and counts minReadySeconds', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web', { replicas: 2, minReadySeconds: 10 }));
    c.advance(5_000);
    const before = statusOf(c.get('deployments.apps', 'web'));
    expect(before).toMatchObject({ readyReplicas: 2, unavailableReplicas: 2 });
    expect(before['availableReplicas']).toBeUndefined();
    c.advance(10_000);
    expect(statusOf(c.get('deployments.apps', 'web'))).toMatchObject({ readyReplicas: 2, availableReplicas: 2 });

    c.store.mutate(DEPLOYMENTS, 'default', 'web', (copy) => {
      (copy['spec'] as { replicas: number }).replicas = 5;
    });
    c.advance(20_000);
    const rs = c.replicaSets()[0]!;
    expect(c.events({ reason: 'ScalingReplicaSet' }).map((e) => e.message)).toEqual([`Scaled up replica set ${rs.metadata.name} from 0 to 2`, `Scaled up replica set ${rs.metadata.name} from 2 to 5`]);
    expect(rs.metadata.annotations?.['deployment.kubernetes.io/desired-replicas']).toBe('5');
    expect(rs.metadata.annotations?.['deployment.kubernetes.io/max-replicas']).toBe('7');
    expect(rolloutComplete(c, 'web')).toBe(true);
  });

  it('keeps only revisionHistoryLimit old ReplicaSets', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web', { replicas: 1, revisionHistoryLimit: 1 }));
    c.advance(5_000);
    for (const tag of ['1.28', '1.29', '1.30']) {
      setImage(c, 'web', `nginx:${tag}`);
      c.advance(10_000, 200);
    }
    const revisions = c.replicaSets().map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']).sort();
    expect(revisions).toEqual(['3', '4']);
  });

  it('holds a paused Deployment, still scales it, and rolls out once resumed', () => {
    const c = cluster();
    c.create('deployments.apps', deployment('web', { replicas: 2 }));
    c.advance(5_000);
    const edit = (fn: (spec: Record<string, unknown>) => void): void => {
      c.store.mutate(DEPLOYMENTS, 'default', 'web', (copy) => {
        fn(copy['spec'] as Record<string, unknown>);
      });
      c.settle();
    };
    edit((spec) => (spec['paused'] = true));
    setImage(c, 'web', 'nginx:1.28');
    edit((spec) => (spec['replicas'] = 3));
    c.advance(5_000);
    expect(c.replicaSets()).toHaveLength(1);
    expect(c.pods()).toHaveLength(3);
    expect(condition(c.get('deployments.apps', 'web'), 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });

    edit((spec) => delete spec['paused']);
    c.advance(15_000);
    expect(c.replicaSets()).toHaveLength(2);
    expect(rolloutComplete(c, 'web')).toBe(true);
    expect(condition(c.get('deployments.apps', 'web'), 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
  });
});
