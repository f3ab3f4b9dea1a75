import { describe, expect, it } from 'vitest';
import { createStatefulSetController } from '../../../../electron/engine/simcluster/controllers/statefulset.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { harness, setPods, T, template, type Harness } from './harness.ts';

const STS = T('statefulsets.apps');

function statefulSet(extra: Record<string, unknown> = {}, replicas = 3) {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }), ...extra },
  };
}

const names = (h: Harness) => h.pods().filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name).sort();
const sts = (h: Harness) => h.store.get(STS, 'default', 'web');
const status = (h: Harness) => sts(h)['status'] as Record<string, unknown>;

function setImage(h: Harness, image: string): void {
  h.store.mutate(STS, 'default', 'web', (copy) => {
    ((copy['spec'] as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0] as { image: string }).image = image;
  });
  h.settle();
}

describe('statefulset-controller', () => {
  it('creates web-0 first and web-1 only once web-0 is Running and Ready', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet());
    expect(names(h)).toEqual(['web-0']);
    setPods(h, 'running', { names: ['web-0'] });
    expect(names(h)).toEqual(['web-0']);
    setPods(h, 'ready', { names: ['web-0'] });
    expect(names(h)).toEqual(['web-0', 'web-1']);
    setPods(h, 'ready', { names: ['web-1'] });
    setPods(h, 'ready', { names: ['web-2'] });
    expect(names(h)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(h.events({ reason: 'SuccessfulCreate' })).toEqual([
      'SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
      'SuccessfulCreate: create Pod web-1 in StatefulSet web successful',
      'SuccessfulCreate: create Pod web-2 in StatefulSet web successful',
    ]);
  });

  it('gives pods a stable identity and the revision label', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] }, 1));
    const pod = h.store.get(T('pods'), 'default', 'web-0');
    const revision = status(h)['updateRevision'] as string;
    expect(revision).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(pod.metadata.labels).toEqual({ app: 'web', 'controller-revision-hash': revision, 'apps.kubernetes.io/pod-index': '0', 'statefulset.kubernetes.io/pod-name': 'web-0' });
    expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: sts(h).metadata.uid, controller: true, blockOwnerDeletion: true }]);
    const spec = pod['spec'] as { hostname: string; subdomain: string; volumes: Array<{ name: string; persistentVolumeClaim?: { claimName: string } }> };
    expect(spec.hostname).toBe('web-0');
    expect(spec.subdomain).toBe('web');
    expect(spec.volumes[0]).toEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } });
  });

  it('reports the status fields a real StatefulSet has once all replicas are ready', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet());
    for (let i = 0; i < 3; i += 1) setPods(h, 'ready', { names: [`web-${i}`] });
    const revision = status(h)['updateRevision'];
    expect(status(h)).toEqual({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
      availableReplicas: 3,
    });
  });

  it('creates every pod at once with podManagementPolicy Parallel', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet({ podManagementPolicy: 'Parallel' }));
    expect(names(h)).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it('scales down from the highest ordinal', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet());
    for (let i = 0; i < 3; i += 1) setPods(h, 'ready', { names: [`web-${i}`] });
    h.store.mutate(STS, 'default', 'web', (copy) => {
      (copy['spec'] as { replicas: number }).replicas = 1;
    });
    h.settle();
    expect(names(h)).toEqual(['web-0']);
    expect(h.events({ reason: 'SuccessfulDelete' })).toEqual([
      'SuccessfulDelete: delete Pod web-2 in StatefulSet web successful',
      'SuccessfulDelete: delete Pod web-1 in StatefulSet web successful',
    ]);
  });

  it('does not scale down while a lower ordinal is unhealthy (OrderedReady)', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet());
    for (let i = 0; i < 3; i += 1) setPods(h, 'ready', { names: [`web-${i}`] });
    setPods(h, 'running', { names: ['web-0'] });
    h.store.mutate(STS, 'default', 'web', (copy) => {
      (copy['spec'] as { replicas: number }).replicas = 2;
    });
    h.settle();
    expect(names(h)).toEqual(['web-0', 'web-1', 'web-2']);
    setPods(h, 'ready', { names: ['web-0'] });
    expect(names(h)).toEqual(['web-0', 'web-1']);
  });

  it('rolls a new image from the highest ordinal down, one pod at a time', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet());
    for (let i = 0; i < 3; i += 1) setPods(h, 'ready', { names: [`web-${i}`] });
    const oldRevision = status(h)['currentRevision'];
    setImage(h, 'nginx:1.27.3');
    const newRevision = status(h)['updateRevision'];
    expect(newRevision).not.toBe(oldRevision);
    const revisionOf = (name: string) => h.store.get(T('pods'), 'default', name).metadata.labels?.['controller-revision-hash'];
    expect([revisionOf('web-0'), revisionOf('web-1'), revisionOf('web-2')]).toEqual([oldRevision, oldRevision, newRevision]);
    expect(status(h)).toMatchObject({ currentRevision: oldRevision, updateRevision: newRevision, currentReplicas: 2, updatedReplicas: 1, readyReplicas: 2 });
    setPods(h, 'ready', { names: ['web-2'] });
    expect([revisionOf('web-0'), revisionOf('web-1'), revisionOf('web-2')]).toEqual([oldRevision, newRevision, newRevision]);
    setPods(h, 'ready', { names: ['web-1'] });
    setPods(h, 'ready', { names: ['web-0'] });
    expect(status(h)).toMatchObject({ currentRevision: newRevision, updateRevision: newRevision, currentReplicas: 3, updatedReplicas: 3, readyReplicas: 3 });
  });

  it('stops the rollout at the partition', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }));
    for (let i = 0; i < 3; i += 1) setPods(h, 'ready', { names: [`web-${i}`] });
    const oldRevision = status(h)['currentRevision'];
    setImage(h, 'nginx:1.27.3');
    setPods(h, 'ready', { names: ['web-2'] });
    h.settle();
    const revisions = h.pods().map((p: KubeObject) => p.metadata.labels?.['controller-revision-hash']);
    expect(revisions.filter((r) => r === oldRevision)).toHaveLength(2);
    expect(status(h)).toMatchObject({ currentRevision: oldRevision, updatedReplicas: 1, currentReplicas: 2 });
  });

  it('recreates a failed pod with a RecreatingFailedPod warning', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet({}, 1));
    setPods(h, 'ready', { names: ['web-0'] });
    const uid = h.store.get(T('pods'), 'default', 'web-0').metadata.uid;
    setPods(h, 'failed', { names: ['web-0'] });
    const pod = h.store.get(T('pods'), 'default', 'web-0');
    expect(pod.metadata.uid).not.toBe(uid);
    expect((pod['status'] as { phase: string }).phase).toBe('Pending');
    expect(h.events({ reason: 'RecreatingFailedPod' })).toEqual(['RecreatingFailedPod: StatefulSet default/web is recreating failed Pod web-0']);
  });
});
