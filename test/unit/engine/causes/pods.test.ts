import { describe, expect, it } from 'vitest';
import { createCauseView, findCause } from '../../../../electron/engine/causes/index.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { at, deployment, event, eventV1, IMAGE, ms, node, pod, replicaSet, type PodOptions } from './fixtures.ts';

const PULL_FAILED = `Failed to pull image "${IMAGE}": rpc error: code = NotFound desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": ${IMAGE}: not found`;
const SCHEDULER = '0/4 nodes are available: 2 Insufficient cpu, 2 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.';

function waitingPod(owner: SlimObject, suffix: string, reason: string, message: string | undefined, extra: PodOptions = {}): SlimObject {
  return pod(owner, suffix, {
    ready: false,
    phase: 'Pending',
    containerStatuses: [{ name: 'catalog', image: extra.image ?? IMAGE, imageID: '', ready: false, restartCount: 0, started: false, state: { waiting: { reason, ...(message ? { message } : {}) } } }],
    ...extra,
  });
}

function unscheduled(owner: SlimObject, suffix: string, message: string | undefined): SlimObject {
  return pod(owner, suffix, {
    node: null,
    phase: 'Pending',
    ready: false,
    conditions: [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: at(20), reason: 'Unschedulable', ...(message ? { message } : {}) }],
    containerStatuses: [],
  });
}

describe('causes found on pods', () => {
  it('says which image 2 new pods cannot pull, in the kubelet words of the Failed Event', () => {
    const catalog = deployment('catalog', { status: { replicas: 6, updatedReplicas: 2, readyReplicas: 4 } });
    const old = replicaSet(catalog, 1);
    const current = replicaSet(catalog, 2, { replicas: 2, status: { readyReplicas: 0, availableReplicas: 0 } });
    const oldPods = ['a1', 'a2', 'a3', 'a4'].map((suffix) => pod(old, suffix));
    const broken = ['b1', 'b2'].map((suffix) => waitingPod(current, suffix, 'ImagePullBackOff', `Back-off pulling image "${IMAGE}"`));
    const events = broken.flatMap((p, i) => [
      event(p, 'Failed', PULL_FAILED, { first: 40 + i, count: 4, fieldPath: 'spec.containers{catalog}' }),
      event(p, 'BackOff', `Back-off pulling image "${IMAGE}"`, { type: 'Normal', first: 42 + i, count: 9 }),
    ]);
    const view = createCauseView([catalog, old, current, ...oldPods, ...broken, ...events]);
    const [cause, ...rest] = findCause(catalog, view);
    expect(rest).toEqual([]);
    expect(cause?.code).toBe('image-pull');
    expect(cause?.sentence).toBe(`2 new pods can't pull ${IMAGE}: not found`);
    expect(cause?.evidence.map((e) => e.name)).toEqual(broken.map((p) => p.metadata.name));
    expect(cause?.evidence[0]?.detail).toBe(`container catalog: ${PULL_FAILED}`);
    expect(cause?.chain.map((link) => `${link.kind}/${link.name}`)).toEqual(['Deployment/catalog', `ReplicaSet/${current.metadata.name}`]);
    expect(cause?.since).toBe(ms(40));
  });

  it('reads the registry answer from an ErrImagePull status when the Events are gone', () => {
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 1 });
    const message = `rpc error: code = Unknown desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`;
    const view = createCauseView([catalog, rs, waitingPod(rs, 'x', 'ErrImagePull', message)]);
    expect(findCause(catalog, view)[0]?.sentence).toBe(`1 pod can't pull ${IMAGE}: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`);
  });

  it("reads the Failed Event of the container's own image in a pod of several containers", () => {
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 1 });
    const sidecar = 'registry.example.com/tools/proxy:9.9';
    const broken = waitingPod(rs, 'x', 'ImagePullBackOff', `Back-off pulling image "${IMAGE}"`);
    const other = event(broken, 'Failed', `Failed to pull image "${sidecar}": rpc error: code = Unknown desc = failed to pull and unpack image "${sidecar}": failed to resolve reference "${sidecar}": unexpected status from HEAD request to https://registry.example.com/v2/tools/proxy/manifests/9.9: 503 Service Unavailable`, { first: 50 });
    const own = event(broken, 'Failed', PULL_FAILED, { first: 40 });
    expect(findCause(catalog, createCauseView([catalog, rs, broken, other, own]))[0]?.sentence).toBe(`1 pod can't pull ${IMAGE}: not found`);
  });

  it('says what it could not see when only the back-off is left, and does not guess why the pull failed', () => {
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 1 });
    const view = createCauseView([catalog, rs, waitingPod(rs, 'x', 'ImagePullBackOff', `Back-off pulling image "${IMAGE}"`)]);
    const [cause] = findCause(catalog, view);
    expect(cause?.code).toBe('image-pull');
    expect(cause?.sentence).toBe(`1 pod can't pull ${IMAGE}; no Events left for this pod; kubelet reported ImagePullBackOff: Back-off pulling image "${IMAGE}"`);
    expect(cause?.since).toBeUndefined();
  });

  it('quotes the parse error of an invalid image name', () => {
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 1 });
    const message = 'Failed to apply default image tag "Registry.example.com/catalog": couldn\'t parse image reference "Registry.example.com/catalog": invalid reference format: repository name must be lowercase';
    const bad = waitingPod(rs, 'x', 'InvalidImageName', message, { image: 'Registry.example.com/catalog' });
    const [cause] = findCause(catalog, createCauseView([catalog, rs, bad]));
    expect(cause?.code).toBe('invalid-image');
    expect(cause?.sentence).toBe("1 pod can't start: image Registry.example.com/catalog is not a valid name: invalid reference format: repository name must be lowercase");
  });

  it('names the crash-looping container, its last exit code and reason, and the restarts across 3 pods', () => {
    const catalog = deployment('catalog', { replicas: 3, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 3 });
    const crashing = [4, 7, 5].map((restarts, i) =>
      pod(rs, `c${i}`, {
        ready: false,
        containerStatuses: [
          {
            name: 'catalog',
            image: IMAGE,
            ready: false,
            restartCount: restarts,
            started: false,
            state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 2m40s restarting failed container=catalog pod=catalog-c${i}_storefront(8f0e)` } },
            lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: at(300), finishedAt: at(302), containerID: 'containerd://9a1b' } },
          },
        ],
      }),
    );
    const backOff = event(crashing[0] as SlimObject, 'BackOff', 'Back-off restarting failed container catalog in pod catalog-c0_storefront(8f0e)', { first: 60, count: 30 });
    const [cause] = findCause(catalog, createCauseView([catalog, rs, ...crashing, backOff]));
    expect(cause?.code).toBe('crash-loop');
    expect(cause?.sentence).toBe('3 pods are crash-looping: container catalog last exited with code 137 (OOMKilled), restarted 4–7 times');
    expect(cause?.evidence[1]?.detail).toBe(`container catalog last exited with code 137 (OOMKilled); 7 restarts, last at ${at(302)}`);
    expect(cause?.since).toBe(ms(60));
  });

  it('gives one sentence with a count for 3 pods the scheduler cannot place, without its preemption report', () => {
    const catalog = deployment('catalog', { replicas: 3, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 3 });
    const pending = ['p1', 'p2', 'p3'].map((suffix) => unscheduled(rs, suffix, SCHEDULER));
    const [cause, ...rest] = findCause(catalog, createCauseView([catalog, rs, ...pending]));
    expect(rest).toEqual([]);
    expect(cause?.code).toBe('unschedulable');
    expect(cause?.sentence).toBe("3 pods can't be scheduled: 0/4 nodes are available: 2 Insufficient cpu, 2 node(s) had untolerated taint {node.kubernetes.io/unreachable: }.");
    expect(cause?.evidence.every((e) => e.detail === SCHEDULER)).toBe(true);
    expect(cause?.since).toBe(ms(20));
  });

  it("takes the scheduler's words from a FailedScheduling Event (events.k8s.io) when the condition has none", () => {
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 1 });
    const pending = unscheduled(rs, 'p1', undefined);
    const failed = eventV1(pending, 'FailedScheduling', '0/4 nodes are available: 4 node(s) didn\'t match Pod\'s node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.', { controller: 'default-scheduler', count: 3 });
    expect(findCause(catalog, createCauseView([catalog, rs, pending, failed]))[0]?.sentence).toBe("1 pod can't be scheduled: 0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector.");
    expect(findCause(catalog, createCauseView([catalog, rs, pending]))[0]?.sentence).toBe("1 pod can't be scheduled (Unschedulable); no Events left for this pod and the PodScheduled condition holds no message");
  });

  it('names the unreachable node the pods are on, with its taints as evidence, and the pods on a node asked about', () => {
    const worker2 = node('worker-2', { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }, [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: at(200) },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at(205) },
    ]);
    const catalog = deployment('catalog', { replicas: 3, status: { readyReplicas: 1 } });
    const rs = replicaSet(catalog, 2, { replicas: 3 });
    const stranded = ['n1', 'n2'].map((suffix) => pod(rs, suffix, { node: 'worker-2', ready: false }));
    const view = createCauseView([worker2, catalog, rs, ...stranded, pod(rs, 'ok')]);
    const [cause] = findCause(catalog, view);
    expect(cause?.code).toBe('node-not-ready');
    expect(cause?.sentence).toBe('2 pods are on node worker-2, which is unreachable: Kubelet stopped posting node status.');
    expect(cause?.evidence.at(-1)).toMatchObject({ kind: 'Node', name: 'worker-2', detail: 'Ready=Unknown (NodeStatusUnknown): Kubelet stopped posting node status.; taint node.kubernetes.io/unreachable:NoSchedule; taint node.kubernetes.io/unreachable:NoExecute' });
    expect(cause?.since).toBe(ms(200));
    expect(findCause(worker2, view)[0]?.sentence).toBe(`Node worker-2 is unreachable: Kubelet stopped posting node status.; 2 pods on it: ${stranded.map((p) => p.metadata.name).join(', ')}`);
  });

  it('calls a node whose kubelet says it is not ready NotReady, in the kubelet words', () => {
    const worker3 = node('worker-3', { status: 'False', reason: 'KubeletNotReady', message: 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized' });
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 1 });
    const [cause] = findCause(catalog, createCauseView([worker3, catalog, rs, pod(rs, 'n1', { node: 'worker-3', ready: false })]));
    expect(cause?.sentence).toBe('1 pod is on node worker-3, which is NotReady: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized');
  });

  it('quotes the failing readiness probe once for pods whose messages differ only by address', () => {
    const catalog = deployment('catalog', { replicas: 2, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 2 });
    const running = ['r1', 'r2'].map((suffix) => pod(rs, suffix, { ready: false }));
    const probes = running.map((p, i) => event(p, 'Unhealthy', `Readiness probe failed: Get "http://10.244.1.${7 + i}:8080/healthz": dial tcp 10.244.1.${7 + i}:8080: connect: connection refused`, { first: 50 + i, count: 12, fieldPath: 'spec.containers{catalog}' }));
    const [cause, ...rest] = findCause(catalog, createCauseView([catalog, rs, ...running, ...probes]));
    expect(rest).toEqual([]);
    expect(cause?.code).toBe('readiness-probe');
    expect(cause?.sentence).toBe('2 pods are Running but not Ready: Readiness probe failed: Get "http://10.244.1.7:8080/healthz": dial tcp 10.244.1.7:8080: connect: connection refused');
    expect(cause?.evidence[1]?.detail).toBe('Readiness probe failed: Get "http://10.244.1.8:8080/healthz": dial tcp 10.244.1.8:8080: connect: connection refused (12 times)');
  });

  it('quotes a failing startup probe, and dates a crash loop from the restart back-off, not an earlier pull back-off', () => {
    const catalog = deployment('catalog', { replicas: 2, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 2 });
    const starting = pod(rs, 's1', { ready: false });
    const startup = event(starting, 'Unhealthy', 'Startup probe failed: HTTP probe failed with statuscode: 500', { first: 70, count: 5 });
    expect(findCause(catalog, createCauseView([catalog, rs, starting, startup]))[0]?.sentence).toBe('1 pod is Running but not Ready: Startup probe failed: HTTP probe failed with statuscode: 500');
    const crashing = pod(rs, 'c1', { ready: false, containerStatuses: [{ name: 'catalog', image: IMAGE, ready: false, restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error' } } }] });
    const pulling = event(crashing, 'BackOff', `Back-off pulling image "${IMAGE}"`, { type: 'Normal', first: 10 });
    const restarting = event(crashing, 'BackOff', 'Back-off restarting failed container catalog in pod catalog-c1_storefront(8f0e)', { first: 60 });
    expect(findCause(catalog, createCauseView([catalog, rs, crashing, pulling, restarting]))[0]).toMatchObject({ code: 'crash-loop', since: ms(60) });
  });

  it('points at a Pending claim and the provisioner words instead of the scheduler message', () => {
    const web = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'storefront', uid: 'sts-web', resourceVersion: '9', generation: 1 }, spec: { replicas: 1 }, status: { observedGeneration: 1, replicas: 1, readyReplicas: 0 } } as SlimObject;
    const claim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-web-0', namespace: 'storefront', uid: 'pvc-web-0', resourceVersion: '10', labels: { app: 'web' } }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast-ssd', resources: { requests: { storage: '10Gi' } } }, status: { phase: 'Pending' } } as SlimObject;
    const waiting = pod(web, '0', { node: null, phase: 'Pending', ready: false, containerStatuses: [], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }], conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.', lastTransitionTime: at(20) }] });
    const provisioning = event(claim, 'ProvisioningFailed', 'storageclass.storage.k8s.io "fast-ssd" not found', { component: 'persistentvolume-controller', first: 15, count: 8 });
    const [cause] = findCause(web, createCauseView([web, claim, waiting, provisioning]));
    expect(cause?.code).toBe('pvc-pending');
    expect(cause?.sentence).toBe('1 pod is waiting for PersistentVolumeClaim data-web-0, which is Pending: storageclass.storage.k8s.io "fast-ssd" not found');
    expect(cause?.evidence.at(-1)).toMatchObject({ kind: 'PersistentVolumeClaim', name: 'data-web-0', detail: 'Pending; ProvisioningFailed: storageclass.storage.k8s.io "fast-ssd" not found' });
    expect(cause?.since).toBe(ms(15));
    const second = pod(web, '1', { node: null, phase: 'Pending', ready: false, containerStatuses: [], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } }] });
    const claim1 = { ...claim, metadata: { ...claim.metadata, name: 'data-web-1', uid: 'pvc-web-1' } } as SlimObject;
    expect(findCause(web, createCauseView([web, claim, claim1, waiting, second]))[0]?.sentence).toBe('2 pods are waiting for PersistentVolumeClaims data-web-0, data-web-1, which are Pending; no Events left for these claims');
  });

  it('quotes a container that cannot be created for a missing secret', () => {
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 1 });
    const stuck = waitingPod(rs, 's1', 'CreateContainerConfigError', 'secret "catalog-db" not found');
    expect(findCause(catalog, createCauseView([catalog, rs, stuck]))[0]).toMatchObject({ code: 'container-waiting', sentence: '1 pod is waiting: container catalog CreateContainerConfigError: secret "catalog-db" not found' });
  });

  it('tells the causes of one owner apart, the most fundamental first', () => {
    const catalog = deployment('catalog', { replicas: 3, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 3 });
    const objects = [catalog, rs, waitingPod(rs, 'i1', 'ImagePullBackOff', `Back-off pulling image "${IMAGE}"`), unscheduled(rs, 'u1', SCHEDULER)];
    expect(findCause(catalog, createCauseView(objects)).map((c) => c.code)).toEqual(['unschedulable', 'image-pull']);
  });
});
