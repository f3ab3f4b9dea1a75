/**
 * Every drift cause the cause finder knows, made to happen in the simulator by a scenario's
 * objects and timeline actions: the objects, conditions and Events the simulated components
 * write (in the real components' words), and the cause the finder reads from that state. The
 * two agreeing is the point: the finder is fed nothing but what the simulator produced.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { conditionOf, containerOf, deployment, HEADER, start, target, T } from './causes-harness.ts';

describe('the simulator makes every drift cause happen, in the words the cause finder reads', () => {
  it('image pull failure: ErrImagePull then ImagePullBackOff, with the kubelet\'s Failed and BackOff Events', () => {
    const sim = start(HEADER + deployment('catalog', { image: 'registry.example.com/storefront/catalog:broken' }));
    sim.advance(15_000);
    const [pod] = sim.pods('catalog');
    expect(containerOf(pod as KubeObject)['state']).toEqual({ waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "registry.example.com/storefront/catalog:broken"' } });
    const failed = sim.events(pod as KubeObject, 'Failed').map((e) => e.message);
    expect(failed).toContain('Failed to pull image "registry.example.com/storefront/catalog:broken": failed to pull and unpack image "registry.example.com/storefront/catalog:broken": failed to resolve reference "registry.example.com/storefront/catalog:broken": registry.example.com/storefront/catalog:broken: not found');
    expect(sim.events(pod as KubeObject, 'BackOff').map((e) => e.message)).toEqual(['Back-off pulling image "registry.example.com/storefront/catalog:broken"']);

    const [cause] = sim.causes(sim.get('deployments.apps', 'catalog'));
    expect(cause?.code).toBe('image-pull');
    expect(cause?.sentence).toBe("2 pods can't pull registry.example.com/storefront/catalog:broken: not found");
    sim.stop();
  });

  it('crash loop: an OOMKilled container (exit 137) in CrashLoopBackOff, its restarts and the BackOff Event', () => {
    const sim = start(HEADER + deployment('search', { image: 'ghcr.io/acme/search:oom', replicas: 1 }));
    sim.advance(30_000);
    const pod = sim.pods('search')[0] as KubeObject;
    const status = containerOf(pod) as unknown as { state: { waiting?: { reason: string } }; lastState: { terminated: { exitCode: number; reason: string } }; restartCount: number };
    expect(status.lastState.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    expect(status.restartCount).toBeGreaterThanOrEqual(2);
    expect(sim.events(pod, 'BackOff').map((e) => e.message)).toContain(`Back-off restarting failed container search in pod ${pod.metadata.name}_shop(${pod.metadata.uid})`);

    // The finder reads the pod in CrashLoopBackOff (between restarts).
    for (let i = 0; i < 60 && containerOf(sim.pods('search')[0] as KubeObject)['state']?.['waiting']?.['reason'] !== 'CrashLoopBackOff'; i += 1) sim.advance(500);
    const [cause] = sim.causes(sim.get('deployments.apps', 'search'));
    expect(cause?.code).toBe('crash-loop');
    expect(cause?.sentence).toMatch(/^1 pod is crash-looping: container search last exited with code 137 \(OOMKilled\), restarted \d+ times$/);
    sim.stop();
  });

  it('unschedulable: PodScheduled=False Unschedulable and the scheduler\'s FailedScheduling message', () => {
    const sim = start(HEADER + deployment('reports', { cpu: '16', replicas: 1 }));
    sim.advance(3_000);
    const pod = sim.pods('reports')[0] as KubeObject;
    expect(conditionOf(pod, 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    const [event] = sim.events(pod, 'FailedScheduling');
    expect(event).toMatchObject({ type: 'Warning', component: 'default-scheduler' });
    expect(event?.message).toMatch(/^0\/2 nodes are available: 2 Insufficient cpu\. preemption: /);

    const [cause] = sim.causes(sim.get('deployments.apps', 'reports'));
    expect(cause?.code).toBe('unschedulable');
    expect(cause?.sentence).toBe("1 pod can't be scheduled: 0/2 nodes are available: 2 Insufficient cpu.");
    sim.stop();
  });

  it('node NotReady: the node goes unreachable with its taints and its pods stop being Ready', () => {
    const sim = start(HEADER + deployment('cart', { replicas: 4 }));
    sim.advance(10_000);
    sim.act({ type: 'nodeNotReady', node: 'node-1' });
    sim.advance(45_000);
    const node = sim.get('nodes', 'node-1', undefined);
    expect(conditionOf(node, 'Ready')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect((node['spec'] as { taints: Array<{ key: string }> }).taints.map((t) => t.key)).toContain('node.kubernetes.io/unreachable');
    const onNode = sim.pods('cart').filter((p) => (p['spec'] as { nodeName: string }).nodeName === 'node-1');
    expect(onNode.length).toBeGreaterThan(0);
    for (const pod of onNode) expect(conditionOf(pod, 'Ready')).toMatchObject({ status: 'False' });

    const [cause] = sim.causes(sim.get('deployments.apps', 'cart'));
    expect(cause?.code).toBe('node-not-ready');
    expect(cause?.sentence).toBe(`${onNode.length} ${onNode.length === 1 ? 'pod is' : 'pods are'} on node node-1, which is unreachable: Kubelet stopped posting node status.`);
    expect(cause?.evidence.map((e) => e.name)).toContain('node-1');
    sim.stop();
  });

  it('failing readiness probe: Running but not Ready, with the prober\'s Unhealthy Events', () => {
    const probe = '          readinessProbe: { httpGet: { path: /healthz, port: 8080 }, periodSeconds: 5 }\n';
    const sim = start(HEADER + deployment('checkout', { image: 'ghcr.io/acme/checkout:unready', probe }));
    sim.advance(20_000);
    const pod = sim.pods('checkout')[0] as KubeObject;
    expect((pod['status'] as { phase: string }).phase).toBe('Running');
    expect(conditionOf(pod, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
    const [unhealthy] = sim.events(pod, 'Unhealthy');
    expect(unhealthy).toMatchObject({ type: 'Warning', component: 'kubelet', message: 'Readiness probe failed: HTTP probe failed with statuscode: 503' });
    expect(unhealthy?.count).toBeGreaterThanOrEqual(3);

    const [cause] = sim.causes(sim.get('deployments.apps', 'checkout'));
    expect(cause?.code).toBe('readiness-probe');
    expect(cause?.sentence).toBe('2 pods are Running but not Ready: Readiness probe failed: HTTP probe failed with statuscode: 503');

    // A fixed image rolls out and gets ready: the probe no longer fails.
    sim.act({ type: 'setImage', target: target('deployments.apps', 'checkout'), namespace: 'shop', container: 'checkout', image: 'ghcr.io/acme/checkout:v2' });
    sim.advance(30_000);
    expect(sim.causes(sim.get('deployments.apps', 'checkout'))).toEqual([]);
    sim.stop();
  });

  it('HPA unable to get metrics: ScalingActive=False FailedGetResourceMetric and its Event', () => {
    const hpa = `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: frontend, namespace: shop }
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: frontend }
  minReplicas: 2
  maxReplicas: 6
  metrics:
    - type: Resource
      resource: { name: cpu, target: { type: Utilization, averageUtilization: 70 } }
`;
    const sim = start(`${HEADER}  timeline:\n    - { at: 1s, setLoad: { namespace: shop, target: deployment/frontend, cpu: 50 } }\n${deployment('frontend')}${hpa}`);
    sim.advance(20_000);
    expect(conditionOf(sim.get('horizontalpodautoscalers.autoscaling', 'frontend'), 'ScalingActive')).toMatchObject({ status: 'True', reason: 'ValidMetricFound' });
    sim.act({ type: 'metricsUnavailable', target: target('deployments.apps', 'frontend'), namespace: 'shop' });
    sim.advance(16_000);
    const object = sim.get('horizontalpodautoscalers.autoscaling', 'frontend');
    const why = 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    expect(conditionOf(object, 'ScalingActive')).toMatchObject({ status: 'False', reason: 'FailedGetResourceMetric', message: `the HPA was unable to compute the replica count: ${why}` });
    expect(sim.events(object, 'FailedGetResourceMetric')).toEqual([expect.objectContaining({ type: 'Warning', component: 'horizontal-pod-autoscaler', message: why })]);

    const [cause] = sim.causes(object);
    expect(cause?.code).toBe('hpa-metrics');
    expect(cause?.sentence).toBe(`HorizontalPodAutoscaler frontend can't get metrics: the HPA was unable to compute the replica count: ${why}`);
    sim.stop();
  });

  it('paused rollout: a template change on a paused Deployment makes no new ReplicaSet; Progressing=Unknown DeploymentPaused', () => {
    const sim = start(HEADER + deployment('gateway'));
    sim.advance(10_000);
    sim.act({ type: 'pauseRollout', target: target('deployments.apps', 'gateway'), namespace: 'shop' });
    sim.act({ type: 'setImage', target: target('deployments.apps', 'gateway'), namespace: 'shop', container: 'gateway', image: 'ghcr.io/acme/gateway:v2' });
    sim.advance(5_000);
    const object = sim.get('deployments.apps', 'gateway');
    expect(conditionOf(object, 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    expect(sim.store.all(T('replicasets.apps'), 'shop')).toHaveLength(1);

    const [cause] = sim.causes(object);
    expect(cause?.code).toBe('rollout-paused');
    expect(cause?.sentence).toBe("Deployment gateway's rollout is paused: Deployment is paused");

    sim.act({ type: 'resumeRollout', target: target('deployments.apps', 'gateway'), namespace: 'shop' });
    sim.advance(20_000);
    expect(conditionOf(sim.get('deployments.apps', 'gateway'), 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
    expect(() => sim.act({ type: 'pauseRollout', target: target('statefulsets.apps', 'gateway'), namespace: 'shop' })).toThrow('statefulsets.apps "gateway" pausing is not supported');
    sim.stop();
  });

  it('exceeded progress deadline: Progressing=False ProgressDeadlineExceeded, with the pods that cannot pull underneath', () => {
    const sim = start(HEADER + deployment('payments', { extraSpec: '  progressDeadlineSeconds: 10\n' }));
    sim.advance(10_000);
    sim.act({ type: 'setImage', target: target('deployments.apps', 'payments'), namespace: 'shop', container: 'payments', image: 'ghcr.io/acme/payments:broken' });
    sim.advance(20_000);
    const object = sim.get('deployments.apps', 'payments');
    const progressing = conditionOf(object, 'Progressing');
    expect(progressing).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded' });
    expect(String(progressing?.['message'])).toMatch(/^ReplicaSet "payments-[a-z0-9]+" has timed out progressing\.$/);

    const [cause] = sim.causes(object);
    expect(cause?.code).toBe('progress-deadline');
    expect(cause?.sentence).toBe(`Deployment payments exceeded its progress deadline: ${String(progressing?.['message'])}`);
    expect(cause?.underneath?.[0]?.code).toBe('image-pull');
    sim.stop();
  });

  it('Job past its backoffLimit: Failed=True BackoffLimitExceeded "Job has reached the specified backoff limit"', () => {
    const job = `---
apiVersion: batch/v1
kind: Job
metadata: { name: migrate, namespace: shop }
spec:
  backoffLimit: 1
  template:
    metadata: { annotations: { simcluster.kubedrift.dev/exit-code: "1" } }
    spec:
      restartPolicy: Never
      containers: [{ name: migrate, image: ghcr.io/acme/migrate:v1 }]
`;
    const sim = start(HEADER + job);
    sim.advance(90_000, 1_000);
    const object = sim.get('jobs.batch', 'migrate');
    expect(conditionOf(object, 'Failed')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(sim.events(object, 'BackoffLimitExceeded')).toEqual([expect.objectContaining({ type: 'Warning', component: 'job-controller', message: 'Job has reached the specified backoff limit' })]);

    const [cause] = sim.causes(object);
    expect(cause?.code).toBe('job-backoff-limit');
    expect(cause?.sentence).toBe('Job migrate failed: Job has reached the specified backoff limit');
    sim.stop();
  });
});
