/**
 * Objects for the churn generator, shaped and sized like a real cluster's (a Running pod with
 * managedFields is 4-5 KB of JSON), built without controllers so 50,000 pods load in seconds.
 */
import { timestamp } from '../controllers/conditions.ts';
import { podTemplateHash } from '../controllers/deployment-util.ts';
import { copyJson } from '../json-values.ts';
import type { IncomingObject, KubeObject } from '../types.ts';

/** A deterministic PRNG (mulberry32), so benchmark runs are comparable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A generateName-style suffix (`x7k2p`). */
export function randomSuffix(random: () => number, length = 5): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return out;
}

function randomHex(random: () => number, length: number): string {
  // join, not +=: a string grown one character at a time is a chain of ropes that a 50,000-pod
  // store would keep (kilobytes per pod), where JSON-parsed input would be flat.
  return Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');
}

/** A registered, Ready node with 16 CPUs and 64 GiB. */
export function churnNode(name: string, index: number, at: number): IncomingObject {
  const time = timestamp(at);
  const capacity = { cpu: '16', 'ephemeral-storage': '200Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '64Gi', pods: '110' };
  const condition = (type: string, status: string, reason: string, message: string) => ({ type, status, lastHeartbeatTime: time, lastTransitionTime: time, reason, message });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'node.kubernetes.io/instance-type': 'n2-standard-16' } },
    spec: { podCIDR: `10.${100 + Math.floor(index / 256)}.${index % 256}.0/24`, podCIDRs: [`10.${100 + Math.floor(index / 256)}.${index % 256}.0/24`] },
    status: {
      capacity,
      allocatable: { ...capacity, cpu: '15890m', memory: '61Gi' },
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [{ type: 'InternalIP', address: `172.20.${Math.floor(index / 250)}.${(index % 250) + 2}` }, { type: 'Hostname', address: name }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: { architecture: 'amd64', containerRuntimeVersion: 'containerd://1.7.24', kernelVersion: '6.8.0-1019-gcp', kubeletVersion: 'v1.32.2', operatingSystem: 'linux', osImage: 'Debian GNU/Linux 12 (bookworm)' },
    },
  };
}

function podTemplate(app: string): { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> } {
  return {
    metadata: { labels: { app, 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': 'churn' } },
    spec: {
      containers: [
        {
          name: 'app',
          image: `ghcr.io/acme-shop/${app}:v1.4.2`,
          imagePullPolicy: 'IfNotPresent',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: 'http://otel-collector.monitoring.svc:4317' },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  };
}

/** A Deployment whose status says all its replicas are available. */
export function churnDeployment(namespace: string, app: string, replicas: number, at: number): IncomingObject {
  const time = timestamp(at);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: app, namespace, labels: { app }, annotations: { 'deployment.kubernetes.io/revision': '1' } },
    spec: {
      replicas,
      selector: { matchLabels: { app } },
      template: podTemplate(app),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 1,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      conditions: [
        { type: 'Available', status: 'True', lastUpdateTime: time, lastTransitionTime: time, reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
        { type: 'Progressing', status: 'True', lastUpdateTime: time, lastTransitionTime: time, reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${app}-${podTemplateHash(podTemplate(app))}" has successfully progressed.` },
      ],
    },
  };
}

/** The Deployment's one ReplicaSet, named by its pod-template-hash, fully available. */
export function churnReplicaSet(deployment: KubeObject, replicas: number): IncomingObject {
  const app = deployment.metadata.name;
  const hash = podTemplateHash(podTemplate(app));
  const template = podTemplate(app);
  template.metadata.labels['pod-template-hash'] = hash;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${app}-${hash}`,
      namespace: deployment.metadata.namespace,
      labels: { app, 'pod-template-hash': hash },
      annotations: { 'deployment.kubernetes.io/desired-replicas': String(replicas), 'deployment.kubernetes.io/max-replicas': String(replicas + Math.ceil(replicas / 4)), 'deployment.kubernetes.io/revision': '1' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app, uid: deployment.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: { replicas, selector: { matchLabels: { app, 'pod-template-hash': hash } }, template },
    status: { replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: 1 },
  };
}

function managedFields(time: string): unknown[] {
  return [
    {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {}, 'f:app.kubernetes.io/name': {}, 'f:app.kubernetes.io/part-of': {}, 'f:pod-template-hash': {} }, 'f:ownerReferences': { '.': {}, 'k:{"uid":"owner"}': {} } },
        'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:env': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {}, 'f:ports': {}, 'f:readinessProbe': {}, 'f:resources': {} } }, 'f:dnsPolicy': {}, 'f:restartPolicy': {}, 'f:schedulerName': {} },
      },
    },
    {
      manager: 'kubelet',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:conditions': {}, 'f:containerStatuses': {}, 'f:hostIP': {}, 'f:hostIPs': {}, 'f:phase': {}, 'f:podIP': {}, 'f:podIPs': {}, 'f:startTime': {} } },
      subresource: 'status',
    },
  ];
}

/** A Running, Ready pod of `rs` bound to `nodeName`, as the kubelet would have reported it. */
export function churnPod(rs: KubeObject, name: string, node: { name: string; ip: string }, podIP: string, at: number, random: () => number): IncomingObject {
  const time = timestamp(at);
  const template = (rs['spec'] as { template: ReturnType<typeof podTemplate> }).template;
  const image = String((template.spec['containers'] as Array<{ image: string }>)[0]?.image);
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: time });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: `${rs.metadata.name}-`,
      namespace: rs.metadata.namespace,
      labels: { ...template.metadata.labels },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }],
      managedFields: managedFields(time),
    },
    spec: {
      ...copyJson(template.spec),
      volumes: [{ name: 'kube-api-access-x7k2p', projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }] } }],
      nodeName: node.name,
      serviceAccountName: 'default',
      serviceAccount: 'default',
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    },
    status: {
      phase: 'Running',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
      hostIP: node.ip,
      hostIPs: [{ ip: node.ip }],
      podIP,
      podIPs: [{ ip: podIP }],
      startTime: time,
      containerStatuses: [
        {
          name: 'app',
          state: { running: { startedAt: time } },
          lastState: {},
          ready: true,
          restartCount: 0,
          image,
          imageID: `${image.split(':')[0]}@sha256:${randomHex(random, 64)}`,
          containerID: `containerd://${randomHex(random, 64)}`,
          started: true,
        },
      ],
      qosClass: 'Burstable',
    },
  };
}
