/**
 * A small shop namespace as the API server returns it (the slim form: no managedFields, pod
 * specs reduced): a Deployment mid-history (current ReplicaSet with 3 pods, two old ones scaled
 * to 0), its Service and HPA, a StatefulSet, a CronJob -> Job -> Pod chain, a pod whose
 * ReplicaSet is gone (dangling owner), an orphaned ReplicaSet, a pod owned by a custom resource,
 * a bare debug pod, two nodes (one NotReady) and Events.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';

const NS = 'shop';
const T0 = '2025-05-01T10:00:00Z';

function at(minutes: number): string {
  return new Date(Date.parse(T0) + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}

type Owner = { apiVersion: string; kind: string; name: string; uid: string };

function meta(name: string, uid: string, extra: Record<string, unknown> = {}): SlimObject['metadata'] {
  return { name, namespace: NS, uid, resourceVersion: '4711', creationTimestamp: T0, ...extra } as SlimObject['metadata'];
}

function ownedBy(owner: Owner): { ownerReferences: Array<Owner & { controller: boolean; blockOwnerDeletion: boolean }> } {
  return { ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }] };
}

export const UID = {
  web: 'a1f4e7c2-0b1d-4c55-9e8a-3f0c2d7b9e11',
  webRs3: 'b2e5f8d3-1c2e-4d66-8f9b-4a1d3e8cae22',
  webRs2: 'c3f6a9e4-2d3f-4e77-9a0c-5b2e4f9dbf33',
  webRs1: 'd4a7bafd-3e4a-4f88-8b1d-6c3f5a0ec044',
  webService: 'e5b8cb06-4f5b-4a99-9c2e-7d4a6b1fd155',
  webHpa: 'f6c9dc17-5a6c-4baa-8d3f-8e5b7c2ae266',
  db: '07daed28-6b7d-4cbb-9e4a-9f6c8d3bf377',
  report: '18ebfe39-7c8e-4dcc-8f5b-a07d9e4c0488',
  reportJob: '29fc0f4a-8d9f-4edd-9a6c-b18eaf5d1599',
  goneRs: '3a0d105b-9ea0-4fee-8b7d-c29fb06e26aa',
  orphanRs: '4b1e216c-afb1-4aff-9c8e-d3a0c17f37bb',
  rollout: '5c2f327d-b0c2-4b00-8d9f-e4b1d28048cc',
  worker1: '6d30438e-c1d3-4c11-9e0a-f5c2e39159dd',
  worker2: '7e41549f-d2e4-4d22-8f1b-06d3f4a26aee',
} as const;

const WEB: Owner = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: UID.web };

export const web: SlimObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: meta('web', UID.web, { generation: 3, labels: { 'app.kubernetes.io/name': 'web' }, annotations: { 'deployment.kubernetes.io/revision': '3' } }),
  spec: {
    replicas: 3,
    selector: { matchLabels: { 'app.kubernetes.io/name': 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: { metadata: { labels: { 'app.kubernetes.io/name': 'web' } }, spec: { containers: [{ name: 'web', image: 'ghcr.io/acme/web:v3.1.0', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }] }] } },
  },
  status: {
    observedGeneration: 3,
    replicas: 3,
    updatedReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    conditions: [
      { type: 'Available', status: 'True', lastUpdateTime: at(2), lastTransitionTime: at(2), reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
      { type: 'Progressing', status: 'True', lastUpdateTime: at(9), lastTransitionTime: at(1), reason: 'NewReplicaSetAvailable', message: 'ReplicaSet "web-7d9f8c6b5d" has successfully progressed.' },
    ],
  },
};

function webReplicaSet(name: string, uid: string, revision: number, replicas: number, minutes: number): SlimObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta(name, uid, {
      creationTimestamp: at(minutes),
      generation: 1,
      labels: { 'app.kubernetes.io/name': 'web', 'pod-template-hash': name.slice(4) },
      annotations: { 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4', 'deployment.kubernetes.io/revision': String(revision) },
      ...ownedBy(WEB),
    }),
    spec: { replicas, selector: { matchLabels: { 'app.kubernetes.io/name': 'web', 'pod-template-hash': name.slice(4) } }, template: { metadata: { labels: { 'app.kubernetes.io/name': 'web' } }, spec: { containers: [{ name: 'web', image: `ghcr.io/acme/web:v3.${revision - 2}.0` }] } } },
    status: replicas > 0 ? { replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: 1 } : { replicas: 0, observedGeneration: 1 },
  };
}

export const webRs3 = webReplicaSet('web-7d9f8c6b5d', UID.webRs3, 3, 3, 8);
export const webRs2 = webReplicaSet('web-5c6d7f8b94', UID.webRs2, 2, 0, 4);
export const webRs1 = webReplicaSet('web-6f7b8c9d05', UID.webRs1, 1, 0, 0);

type Section = Record<string, unknown>;

/** A copy of `object` with fields of its metadata, spec and status replaced. */
export function patched(object: SlimObject, patch: { metadata?: Section; spec?: Section; status?: Section }): SlimObject {
  const source = object as SlimObject & { spec?: Section; status?: Section };
  return {
    ...object,
    metadata: { ...object.metadata, ...patch.metadata },
    ...(patch.spec ? { spec: { ...source.spec, ...patch.spec } } : {}),
    ...(patch.status ? { status: { ...source.status, ...patch.status } } : {}),
  } as SlimObject;
}

interface PodOptions {
  owner?: Owner;
  labels?: Record<string, string>;
  node?: string;
  image?: string;
  container?: string;
  minutes?: number;
  ready?: boolean;
  phase?: string;
  /** A waiting reason (CrashLoopBackOff...) instead of running, with this many restarts. */
  waiting?: { reason: string; restarts: number };
}

/** A Running, Ready pod in the kubelet's status shape, unless told otherwise. */
export function runningPod(name: string, uid: string, options: PodOptions = {}): SlimObject {
  const ready = (options.ready ?? true) && !options.waiting;
  const container = options.container ?? 'main';
  const state = options.waiting ? { waiting: { reason: options.waiting.reason } } : { running: { startedAt: at(9) } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(name, uid, { creationTimestamp: at(options.minutes ?? 9), labels: options.labels ?? {}, ...(options.owner ? ownedBy(options.owner) : {}) }),
    spec: { nodeName: options.node ?? 'worker-1', restartPolicy: 'Always', serviceAccountName: 'default', containers: [{ name: container, image: options.image ?? 'ghcr.io/acme/web:v3.1.0', resources: { requests: { cpu: '100m' } } }] },
    status: {
      phase: options.phase ?? 'Running',
      conditions: [
        { type: 'PodReadyToStartContainers', status: 'True', lastTransitionTime: at(9) },
        { type: 'Initialized', status: 'True', lastTransitionTime: at(9) },
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: at(9) },
        { type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: at(9) },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: at(9) },
      ],
      hostIP: '10.0.1.11',
      podIP: '10.244.1.23',
      startTime: at(9),
      qosClass: 'Burstable',
      containerStatuses: [{ name: container, ready, started: true, restartCount: options.waiting?.restarts ?? 0, image: options.image ?? 'ghcr.io/acme/web:v3.1.0', state }],
    },
  };
}

const WEB_RS3: Owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5d', uid: UID.webRs3 };
const webLabels = { 'app.kubernetes.io/name': 'web', 'pod-template-hash': '7d9f8c6b5d' };
export const webPods = [
  runningPod('web-7d9f8c6b5d-4xk2p', '8f52a6b0-e3f5-4e33-9a2c-17e4a5b37bff', { owner: WEB_RS3, labels: webLabels, node: 'worker-1', minutes: 8 }),
  runningPod('web-7d9f8c6b5d-9qz7m', '90630c1a-f406-4f44-8b3d-28f5b6c48c00', { owner: WEB_RS3, labels: webLabels, node: 'worker-2', minutes: 8 }),
  runningPod('web-7d9f8c6b5d-tb8rw', 'a1741d2b-0517-4055-9c4e-3906c7d59d11', { owner: WEB_RS3, labels: webLabels, node: 'worker-1', minutes: 9 }),
];

export const webService: SlimObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: meta('web', UID.webService, { labels: { 'app.kubernetes.io/name': 'web' } }),
  spec: { type: 'ClusterIP', clusterIP: '10.96.14.7', clusterIPs: ['10.96.14.7'], ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }], selector: { 'app.kubernetes.io/name': 'web' }, sessionAffinity: 'None' },
  status: { loadBalancer: {} },
};

export const webHpa: SlimObject = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: meta('web', UID.webHpa),
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] },
  status: {
    currentReplicas: 3,
    desiredReplicas: 3,
    currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 41, averageValue: '41m' } } }],
    conditions: [
      { type: 'AbleToScale', status: 'True', lastTransitionTime: at(1), reason: 'ReadyForNewScale', message: 'recommended size matches current size' },
      { type: 'ScalingActive', status: 'True', lastTransitionTime: at(1), reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization' },
    ],
  },
};

export const db: SlimObject = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: meta('db', UID.db, { generation: 1, labels: { app: 'db' } }),
  spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'postgres', image: 'postgres:16.3' }] } }, volumeClaimTemplates: [{ metadata: { name: 'data' } }] },
  status: { observedGeneration: 1, replicas: 2, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, currentRevision: 'db-5f9c7d8b6', updateRevision: 'db-5f9c7d8b6', availableReplicas: 2 },
};
const DB: Owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: UID.db };
export const dbPods = [
  runningPod('db-0', 'b2852e3c-1628-4166-8d5f-4a17d8e6ae22', { owner: DB, labels: { app: 'db', 'controller-revision-hash': 'db-5f9c7d8b6', 'statefulset.kubernetes.io/pod-name': 'db-0' }, node: 'worker-2', image: 'postgres:16.3', minutes: 2 }),
  runningPod('db-1', 'c3963f4d-2739-4277-9e60-5b28e9f7bf33', { owner: DB, labels: { app: 'db', 'controller-revision-hash': 'db-5f9c7d8b6', 'statefulset.kubernetes.io/pod-name': 'db-1' }, node: 'worker-1', image: 'postgres:16.3', minutes: 3 }),
];

export const report: SlimObject = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: meta('report', UID.report, { generation: 1 }),
  spec: { schedule: '0 2 * * *', concurrencyPolicy: 'Forbid', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { metadata: {}, spec: { template: { metadata: {}, spec: { containers: [{ name: 'report', image: 'ghcr.io/acme/report:1.4' }], restartPolicy: 'OnFailure' } } } } },
  status: { lastScheduleTime: at(5), lastSuccessfulTime: at(6) },
};
export const reportJob: SlimObject = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: meta('report-29100000', UID.reportJob, { generation: 1, labels: { 'batch.kubernetes.io/job-name': 'report-29100000', 'job-name': 'report-29100000' }, ...ownedBy({ apiVersion: 'batch/v1', kind: 'CronJob', name: 'report', uid: UID.report }) }),
  spec: { parallelism: 1, completions: 1, backoffLimit: 6, template: { spec: { containers: [{ name: 'report', image: 'ghcr.io/acme/report:1.4' }] } } },
  status: { startTime: at(5), completionTime: at(6), succeeded: 1, ready: 0, conditions: [{ type: 'Complete', status: 'True', lastProbeTime: at(6), lastTransitionTime: at(6) }] },
};
export const reportPod: SlimObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: meta('report-29100000-xk2p9', 'd4a74a5e-384a-4388-8f71-6c39fa08c044', { creationTimestamp: at(5), labels: { 'batch.kubernetes.io/job-name': 'report-29100000', 'job-name': 'report-29100000' }, ...ownedBy({ apiVersion: 'batch/v1', kind: 'Job', name: 'report-29100000', uid: UID.reportJob }) }),
  spec: { nodeName: 'worker-2', restartPolicy: 'OnFailure', containers: [{ name: 'report', image: 'ghcr.io/acme/report:1.4' }] },
  status: { phase: 'Succeeded', containerStatuses: [{ name: 'report', ready: false, started: false, restartCount: 0, image: 'ghcr.io/acme/report:1.4', state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: at(5), finishedAt: at(6) } } }] },
};

/** Its ReplicaSet was deleted with --cascade=orphan... and then the uid vanished: the owner dangles. */
export const danglingPod = runningPod('api-6b8d9c7f4-lq2x8', 'e5b85b6f-495b-4499-9082-7d4a0b19d155', {
  owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api-6b8d9c7f4', uid: UID.goneRs },
  labels: { app: 'api', 'pod-template-hash': '6b8d9c7f4' },
  node: 'worker-2',
});

/** Its Deployment was deleted with --cascade=orphan: a controller's labels, no owner. */
export const orphanRs: SlimObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: meta('legacy-58c9d7b6f8', UID.orphanRs, { generation: 1, labels: { app: 'legacy', 'pod-template-hash': '58c9d7b6f8' } }),
  spec: { replicas: 0, selector: { matchLabels: { app: 'legacy', 'pod-template-hash': '58c9d7b6f8' } }, template: { spec: { containers: [{ name: 'legacy', image: 'legacy:1' }] } } },
  status: { replicas: 0, observedGeneration: 1 },
};

/** A pod an Argo Rollout (a custom resource the app does not watch) controls. */
export const rolloutPod = runningPod('canary-7f9c-2bq8d', 'f6c96c70-5a6c-4aaa-91a3-8e5b1c2ae266', {
  owner: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'canary', uid: UID.rollout },
  labels: { app: 'canary', 'rollouts-pod-template-hash': '7f9c' },
});

export const debugPod = runningPod('debug', '07da7d81-6b7d-4bbb-a2b4-9f6c2d3bf377', { labels: { run: 'debug' }, image: 'busybox:1.36' });

export function node(name: string, uid: string, ready: boolean): SlimObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid, resourceVersion: '900', creationTimestamp: T0, labels: { 'kubernetes.io/hostname': name, 'node-role.kubernetes.io/worker': '' } },
    spec: { podCIDR: '10.244.1.0/24' },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '3920m', memory: '15Gi', pods: '110' },
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', lastHeartbeatTime: at(9), lastTransitionTime: T0 },
        ready
          ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: at(9), lastTransitionTime: T0 }
          : { type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: at(3), lastTransitionTime: at(4) },
      ],
    },
  };
}

export const worker1 = node('worker-1', UID.worker1, true);
export const worker2 = node('worker-2', UID.worker2, false);

export function event(name: string, involved: SlimObject, fields: { reason: string; message: string; type?: string; minutes: number; count?: number; component?: string }): SlimObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: NS, uid: `ev-${name}`, resourceVersion: '5000', creationTimestamp: at(fields.minutes) },
    involvedObject: { kind: involved.kind, namespace: NS, name: involved.metadata.name, uid: involved.metadata.uid, apiVersion: involved.apiVersion, resourceVersion: '4711' },
    reason: fields.reason,
    message: fields.message,
    source: { component: fields.component ?? 'deployment-controller' },
    firstTimestamp: at(fields.minutes),
    lastTimestamp: at(fields.minutes),
    count: fields.count ?? 1,
    type: fields.type ?? 'Normal',
  } as SlimObject;
}

export const webEvents = [
  event('web.17f2a1', web, { reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-7d9f8c6b5d to 1', minutes: 8 }),
  event('web.17f2a2', web, { reason: 'ScalingReplicaSet', message: 'Scaled down replica set web-5c6d7f8b94 to 0 from 1', minutes: 9 }),
];

/** Everything above, in API order. */
export function shop(): SlimObject[] {
  return [web, webRs3, webRs2, webRs1, ...webPods, webService, webHpa, db, ...dbPods, report, reportJob, reportPod, danglingPod, orphanRs, rolloutPod, debugPod, worker1, worker2, ...webEvents];
}
