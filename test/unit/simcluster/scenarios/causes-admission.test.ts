/**
 * Refusals and waits outside the kubelet: ResourceQuota admission refusing the pods of each
 * pod-making controller, and a PersistentVolumeClaim no storage class can provision; the
 * objects and Events the simulator writes, and the causes the finder reads from them.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { conditionOf, deployment, HEADER, start, target, T } from './causes-harness.ts';

describe('the simulator refuses and holds pods in the API server\'s and controllers\' words', () => {
  it('refused by quota: ResourceQuota admission forbids the pod; ReplicaFailure=True FailedCreate and the FailedCreate Event', () => {
    const quota = `---
apiVersion: v1
kind: ResourceQuota
metadata: { name: compute, namespace: shop }
spec:
  hard: { requests.cpu: "1", pods: "10" }
`;
    const sim = start(HEADER + quota + deployment('web', { cpu: '500m', replicas: 2 }));
    sim.advance(5_000);
    expect(sim.get('resourcequotas', 'compute')['status']).toEqual({ hard: { pods: '10', 'requests.cpu': '1' }, used: { pods: '2', 'requests.cpu': '1' } });
    sim.act({ type: 'scale', target: target('deployments.apps', 'web'), namespace: 'shop', replicas: 3 });
    sim.advance(5_000);
    const [rs] = sim.store.all(T('replicasets.apps'), 'shop');
    const failure = conditionOf(rs as KubeObject, 'ReplicaFailure');
    expect(failure).toMatchObject({ status: 'True', reason: 'FailedCreate' });
    expect(String(failure?.['message'])).toMatch(/^pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: compute, requested: requests\.cpu=500m, used: requests\.cpu=1, limited: requests\.cpu=1$/);
    // Each retry is refused anew, for a pod of another generated name: one Event per refusal.
    const refusals = sim.events(rs as KubeObject, 'FailedCreate');
    expect(refusals[0]).toMatchObject({ type: 'Warning', component: 'replicaset-controller', message: `Error creating: ${String(failure?.['message'])}` });
    expect(refusals.length).toBeGreaterThan(1);
    expect(conditionOf(sim.get('deployments.apps', 'web'), 'ReplicaFailure')).toMatchObject({ status: 'True', reason: 'FailedCreate', message: failure?.['message'] });

    const [cause] = sim.causes(sim.get('deployments.apps', 'web'));
    expect(cause?.code).toBe('create-refused');
    expect(cause?.sentence).toBe(`ReplicaSet ${(rs as KubeObject).metadata.name} can't create pods: ${String(failure?.['message'])}`);

    // Room in the quota again: the next retry creates the pod and the failure is gone.
    sim.act({ type: 'apply', manifest: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute', namespace: 'shop' }, spec: { hard: { 'requests.cpu': '2', pods: '10' } } } });
    sim.advance(20_000);
    expect(sim.pods('web')).toHaveLength(3);
    expect(conditionOf(sim.store.all(T('replicasets.apps'), 'shop')[0] as KubeObject, 'ReplicaFailure')).toBeUndefined();
    expect(conditionOf(sim.get('deployments.apps', 'web'), 'ReplicaFailure')).toBeUndefined();
    sim.stop();
  });
  it('pending PVC: a claim of an unknown StorageClass stays Pending with ProvisioningFailed; its pod is unschedulable', () => {
    const claim = `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: { name: uploads, namespace: shop }
spec:
  storageClassName: fast
  accessModes: [ReadWriteOnce]
  resources: { requests: { storage: 10Gi } }
`;
    const volume = '      volumes: [{ name: uploads, persistentVolumeClaim: { claimName: uploads } }]\n';
    const sim = start(HEADER + claim + deployment('media', { replicas: 1 }).replace('      containers:\n', `${volume}      containers:\n`));
    sim.advance(20_000);
    const pvc = sim.get('persistentvolumeclaims', 'uploads');
    expect(pvc['status']).toEqual({ phase: 'Pending' });
    const [failed] = sim.events(pvc, 'ProvisioningFailed');
    expect(failed).toMatchObject({ type: 'Warning', component: 'persistentvolume-controller', message: 'storageclass.storage.k8s.io "fast" not found' });
    expect(failed?.count).toBeGreaterThanOrEqual(2);
    const pod = sim.pods('media')[0] as KubeObject;
    const message = '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..';
    expect(conditionOf(pod, 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable', message });
    expect(sim.events(pod, 'FailedScheduling').map((e) => e.message)).toEqual([message]);

    const [cause] = sim.causes(sim.get('deployments.apps', 'media'));
    expect(cause?.code).toBe('pvc-pending');
    expect(cause?.sentence).toBe('1 pod is waiting for PersistentVolumeClaim uploads, which is Pending: storageclass.storage.k8s.io "fast" not found');

    // A claim naming no class says so instead (FailedBinding, a Normal Event).
    sim.act({ type: 'apply', manifest: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'scratch', namespace: 'shop' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } });
    sim.advance(1_000);
    expect(sim.events(sim.get('persistentvolumeclaims', 'scratch'), 'FailedBinding')).toEqual([
      expect.objectContaining({ type: 'Normal', component: 'persistentvolume-controller', message: 'no persistent volumes available for this claim and no storage class is set' }),
    ]);
    sim.stop();
  });
  it('refused by quota for StatefulSets and Jobs too: their controllers\' FailedCreate Events in their own words', () => {
    const manifests = `---
apiVersion: v1
kind: ResourceQuota
metadata: { name: pods, namespace: shop }
spec:
  hard: { pods: "1" }
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: shop }
spec:
  replicas: 2
  serviceName: db
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      containers: [{ name: db, image: postgres:16.4 }]
---
apiVersion: batch/v1
kind: Job
metadata: { name: export, namespace: shop }
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{ name: export, image: ghcr.io/acme/export:v1 }]
`;
    const sim = start(HEADER + manifests);
    sim.advance(10_000);
    const sts = sim.get('statefulsets.apps', 'db');
    const job = sim.get('jobs.batch', 'export');
    const stsRefusal = sim.events(sts, 'FailedCreate')[0];
    expect(stsRefusal).toMatchObject({ type: 'Warning', component: 'statefulset-controller', message: 'create Pod db-1 in StatefulSet db failed error: pods "db-1" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1' });
    // Each retry is refused for a pod of another generated name; the finder quotes the newest.
    const jobRefusal = sim.events(job, 'FailedCreate').at(-1);
    expect(jobRefusal).toMatchObject({ type: 'Warning', component: 'job-controller' });
    expect(jobRefusal?.message).toMatch(/^Error creating: pods "export-[a-z0-9]{5}" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1$/);

    const [stsCause] = sim.causes(sts);
    expect(stsCause?.code).toBe('create-refused');
    expect(stsCause?.sentence).toBe('StatefulSet db can\'t create pods: pods "db-1" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1');
    const [jobCause] = sim.causes(job);
    expect(jobCause?.code).toBe('create-refused');
    expect(jobCause?.sentence).toBe(`Job export can't create pods: ${String(jobRefusal?.message).replace('Error creating: ', '')}`);
    sim.stop();
  });
});
