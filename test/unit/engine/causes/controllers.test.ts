import { describe, expect, it } from 'vitest';
import { createCauseView, findCause } from '../../../../electron/engine/causes/index.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { at, deployment, event, IMAGE, ms, NS, owner, pod, replicaSet, uid } from './fixtures.ts';

const QUOTA = 'pods "catalog-7d9f8b6c2d-x7k2p" is forbidden: exceeded quota: compute, requested: cpu=500m, used: cpu=2, limited: cpu=2';
const METRICS = 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';

function pullingPod(rs: SlimObject, suffix: string): SlimObject {
  return pod(rs, suffix, { ready: false, phase: 'Pending', containerStatuses: [{ name: 'catalog', image: IMAGE, ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` } } }] });
}

function statefulSet(name: string, status: Record<string, unknown>): SlimObject {
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: NS, uid: uid(), resourceVersion: '7', generation: 1 }, spec: { replicas: 3, serviceName: name }, status: { observedGeneration: 1, replicas: 0, readyReplicas: 0, currentReplicas: 0, ...status } } as SlimObject;
}

function hpa(target: { apiVersion?: string; kind: string; name: string }, conditions: Record<string, unknown>[]): SlimObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: target.name, namespace: NS, uid: uid(), resourceVersion: '11' },
    spec: { scaleTargetRef: target, minReplicas: 2, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] },
    status: { currentReplicas: 4, desiredReplicas: 4, currentMetrics: null, conditions },
  } as SlimObject;
}

describe('causes controllers state', () => {
  it("quotes the quota refusal of a Deployment's ReplicaSet (ReplicaFailure FailedCreate), chained Deployment -> ReplicaSet", () => {
    const catalog = deployment('catalog', { status: { readyReplicas: 2, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: QUOTA, lastUpdateTime: at(30), lastTransitionTime: at(30) }] } });
    const rs = replicaSet(catalog, 2, { status: { replicas: 2, readyReplicas: 2, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: QUOTA, lastTransitionTime: at(31) }] } });
    const [cause, ...rest] = findCause(catalog, createCauseView([catalog, rs, pod(rs, 'a'), pod(rs, 'b')]));
    expect(rest).toEqual([]);
    expect(cause).toMatchObject({ code: 'create-refused', sentence: `ReplicaSet ${rs.metadata.name} can't create pods: ${QUOTA}`, since: ms(31) });
    expect(cause?.chain.map((link) => link.kind)).toEqual(['Deployment', 'ReplicaSet']);
    expect(cause?.evidence[0]).toMatchObject({ kind: 'ReplicaSet', detail: `ReplicaFailure=True (FailedCreate): ${QUOTA}` });
  });

  it("quotes a StatefulSet's FailedCreate Event (a limit range), unless a pod was created after it", () => {
    const web = statefulSet('web', {});
    const limit = 'create Pod web-0 in StatefulSet web failed error: pods "web-0" is forbidden: maximum cpu usage per Container is 1, but limit is 2';
    const refused = event(web, 'FailedCreate', limit, { component: 'statefulset-controller', first: 20, last: 80, count: 9 });
    const [cause] = findCause(web, createCauseView([web, refused]));
    expect(cause?.sentence).toBe('StatefulSet web can\'t create pods: pods "web-0" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    expect(cause?.evidence[0]?.detail).toBe(`FailedCreate (9 times): ${limit}`);
    const created = event(web, 'SuccessfulCreate', 'create Pod web-0 in StatefulSet web successful', { type: 'Normal', component: 'statefulset-controller', first: 90 });
    expect(findCause(web, createCauseView([web, refused, created])).map((c) => c.code)).not.toContain('create-refused');
  });

  it('quotes an admission webhook that denies a DaemonSet its pods', () => {
    const agent = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'log-agent', namespace: NS, uid: uid(), resourceVersion: '3', generation: 1 }, spec: {}, status: { observedGeneration: 1, desiredNumberScheduled: 4, currentNumberScheduled: 0, numberReady: 0 } } as SlimObject;
    const denied = 'Error creating: admission webhook "validate.kyverno.svc-fail" denied the request: resource DaemonSet/storefront/log-agent was blocked due to the following policies: disallow-host-path: host-path: HostPath volumes are forbidden.';
    const [cause] = findCause(agent, createCauseView([agent, event(agent, 'FailedCreate', denied, { component: 'daemonset-controller' })]));
    expect(cause?.sentence).toBe(`DaemonSet log-agent can't create pods: ${denied.slice('Error creating: '.length)}`);
  });

  it('says a paused rollout is paused, in the Deployment controller words', () => {
    const catalog = deployment('catalog', { generation: 3, spec: { paused: true }, status: { observedGeneration: 3, updatedReplicas: 0, conditions: [{ type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused', lastTransitionTime: at(70) }] } });
    const rs = replicaSet(catalog, 1);
    const [cause] = findCause(catalog, createCauseView([catalog, rs, ...['a', 'b', 'c', 'd'].map((s) => pod(rs, s))]));
    expect(cause).toMatchObject({ code: 'rollout-paused', sentence: "Deployment catalog's rollout is paused: Deployment is paused", since: ms(70) });
  });

  it('heads an exceeded progress deadline with the leaf cause underneath it: Deployment -> newest ReplicaSet -> pods', () => {
    const progressing = { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "catalog-7d9f8b6c2d" has timed out progressing.', lastUpdateTime: at(610), lastTransitionTime: at(610) };
    const catalog = deployment('catalog', { status: { replicas: 6, updatedReplicas: 2, readyReplicas: 4, unavailableReplicas: 2, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }, progressing] } });
    const old = replicaSet(catalog, 1);
    const current = replicaSet(catalog, 2, { replicas: 2, status: { readyReplicas: 0 } });
    const broken = [pullingPod(current, 'x1'), pullingPod(current, 'x2')];
    const failed = broken.map((p) => event(p, 'Failed', `Failed to pull image "${IMAGE}": rpc error: code = NotFound desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": ${IMAGE}: not found`));
    const view = createCauseView([catalog, old, current, ...['a', 'b', 'c', 'd'].map((s) => pod(old, s)), ...broken, ...failed]);
    const [cause, ...rest] = findCause(catalog, view);
    expect(rest).toEqual([]);
    expect(cause).toMatchObject({ code: 'progress-deadline', sentence: 'Deployment catalog exceeded its progress deadline: ReplicaSet "catalog-7d9f8b6c2d" has timed out progressing.', since: ms(610) });
    expect(cause?.chain.map((link) => link.name)).toEqual(['catalog']);
    expect(cause?.underneath?.map((leaf) => leaf.sentence)).toEqual([`2 new pods can't pull ${IMAGE}: not found`]);
    expect(cause?.underneath?.[0]?.chain.map((link) => link.name)).toEqual(['catalog', current.metadata.name]);
  });

  it('puts the counts under an exceeded progress deadline when the pods say nothing (their Events expired)', () => {
    const progressing = { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "catalog-7d9f8b6c2d" has timed out progressing.', lastTransitionTime: at(610) };
    const catalog = deployment('catalog', { replicas: 2, status: { readyReplicas: 0, conditions: [progressing] } });
    const rs = replicaSet(catalog, 2, { replicas: 2, status: { readyReplicas: 0 } });
    const unready = ['u1', 'u2'].map((suffix) => pod(rs, suffix, { ready: false }));
    const [cause] = findCause(catalog, createCauseView([catalog, rs, ...unready]));
    expect(cause?.code).toBe('progress-deadline');
    expect(cause?.underneath?.map((leaf) => leaf.sentence)).toEqual([`2 of 2 replicas not ready; pods ${unready.map((p) => p.metadata.name).join(', ')} Running but not Ready (no Events left for these pods)`]);
  });

  it('says a Job reached its backoffLimit, with the exit of its failed pods underneath', () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: NS, uid: uid(), resourceVersion: '21', generation: 1 },
      spec: { backoffLimit: 2, completions: 1, parallelism: 1 },
      status: { failed: 3, startTime: at(0), conditions: [{ type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: at(90) }, { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: at(91) }] },
    } as SlimObject;
    const failedPods = ['a', 'b', 'c'].map((suffix) =>
      pod(job, suffix, { phase: 'Failed', ready: false, container: 'migrate', containerStatuses: [{ name: 'migrate', image: 'registry.example.com/storefront/migrate:4', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error', startedAt: at(10), finishedAt: at(12) } } }] }),
    );
    const [cause] = findCause(job, createCauseView([job, ...failedPods]));
    expect(cause).toMatchObject({ code: 'job-backoff-limit', sentence: 'Job migrate failed: Job has reached the specified backoff limit', since: ms(91) });
    expect(cause?.underneath?.map((leaf) => leaf.sentence)).toEqual(['3 pods failed: container migrate exited with code 1 (Error)']);
  });

  it("says an HPA can't get metrics, in the HPA controller's words", () => {
    const catalog = deployment('catalog');
    const scaler = hpa({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'catalog' }, [
      { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: 'the HPA controller was able to get the target\'s current scale', lastTransitionTime: at(0) },
      { type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', message: METRICS, lastTransitionTime: at(45) },
    ]);
    const [cause, ...rest] = findCause(scaler, createCauseView([catalog, scaler]));
    expect(rest).toEqual([]);
    expect(cause).toMatchObject({ code: 'hpa-metrics', sentence: `HorizontalPodAutoscaler catalog can't get metrics: ${METRICS}`, since: ms(45) });
    expect(cause?.underneath).toBeUndefined();
  });

  it("walks from an HPA to its drifting target, matched by the target's group", () => {
    const catalog = deployment('catalog', { replicas: 2, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 2 });
    const scaler = hpa({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'catalog' }, [{ type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)' }]);
    const view = createCauseView([catalog, rs, pullingPod(rs, 'p1'), pullingPod(rs, 'p2'), scaler]);
    const [cause] = findCause(scaler, view);
    expect(cause?.code).toBe('hpa-target');
    expect(cause?.sentence).toBe(`HorizontalPodAutoscaler catalog's target Deployment catalog drifts: 2 pods can't pull ${IMAGE}; no Events left for these pods; kubelet reported ImagePullBackOff: Back-off pulling image "${IMAGE}"`);
    expect(cause?.underneath?.[0]?.chain.map((link) => link.kind)).toEqual(['HorizontalPodAutoscaler', 'Deployment', 'ReplicaSet']);
  });

  it('says when an HPA target is not in the cache, naming its group, rather than picking another kind of that name', () => {
    const lookalike = { apiVersion: 'example.com/v1', kind: 'Deployment', metadata: { name: 'catalog', namespace: NS, uid: uid(), resourceVersion: '1' } } as SlimObject;
    const scaler = hpa({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'catalog' }, []);
    const [cause] = findCause(scaler, createCauseView([lookalike, scaler]));
    expect(cause).toMatchObject({ code: 'not-in-cache', sentence: "HorizontalPodAutoscaler catalog's target Deployment.apps catalog is not in the cache" });
  });
});

describe('causes of a custom resource', () => {
  const group = 'databases.example.com';

  function database(conditions: Record<string, unknown>[]): SlimObject {
    return { apiVersion: `${group}/v1`, kind: 'Database', metadata: { name: 'orders', namespace: NS, uid: uid(), resourceVersion: '5', generation: 4 }, spec: { replicas: 2 }, status: { observedGeneration: 4, conditions } } as SlimObject;
  }

  it('walks to what it owns (a StatefulSet, then its pods) and puts the leaf under its own condition', () => {
    const db = database([{ type: 'Ready', status: 'False', reason: 'StatefulSetNotReady', message: 'statefulset orders has 0 of 2 ready replicas', lastTransitionTime: at(100) }]);
    const sts = { ...statefulSet('orders', { replicas: 2 }), metadata: { name: 'orders', namespace: NS, uid: uid(), resourceVersion: '8', generation: 1, ownerReferences: [owner(db)] } } as SlimObject;
    const crashing = ['0', '1'].map((n) =>
      pod(sts, n, { ready: false, container: 'postgres', containerStatuses: [{ name: 'postgres', image: 'postgres:17', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=postgres' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: at(90) } } }] }),
    );
    const [cause] = findCause(db, createCauseView([db, sts, ...crashing]));
    expect(cause).toMatchObject({ code: 'condition', sentence: 'Database orders is progressing: StatefulSetNotReady: statefulset orders has 0 of 2 ready replicas', since: ms(100) });
    const [leaf] = cause?.underneath ?? [];
    expect(leaf?.sentence).toBe('2 pods are crash-looping: container postgres last exited with code 1 (Error), restarted 3 times');
    expect(leaf?.chain.map((link) => `${link.kind}/${link.name}`)).toEqual(['Database/orders', 'StatefulSet/orders']);
  });

  it('follows only ownerReferences that name its group and kind, not a uid under another kind', () => {
    const db = database([{ type: 'Ready', status: 'False', reason: 'Provisioning', message: 'waiting for storage' }]);
    const stray = pod(db, 'stray', { ready: false, phase: 'Pending', containerStatuses: [{ name: 'x', image: 'x', ready: false, restartCount: 0, state: { waiting: { reason: 'CreateContainerConfigError', message: 'secret "x" not found' } } }] });
    stray.metadata.ownerReferences = [{ apiVersion: 'other.example.com/v1', kind: 'Database', name: 'orders', uid: db.metadata.uid, controller: true }];
    const [cause] = findCause(db, createCauseView([db, stray]));
    expect(cause?.code).toBe('condition');
    expect(cause?.underneath).toBeUndefined();
  });

  it('reads a custom Job in another group by the status rule, never as a batch/v1 Job', () => {
    const job = { apiVersion: 'ci.example.com/v1', kind: 'Job', metadata: { name: 'build', namespace: NS, uid: uid(), resourceVersion: '2' }, status: { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }, { type: 'Ready', status: 'False', reason: 'BuildFailed', message: 'step compile exited 2' }] } } as SlimObject;
    const [cause] = findCause(job, createCauseView([job]));
    expect(cause).toMatchObject({ code: 'condition', sentence: 'Job build is progressing: BuildFailed: step compile exited 2' });
  });
});
