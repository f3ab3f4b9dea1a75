/**
 * Objects as the API server returns them (slim form: no managedFields), built per test: a
 * storefront namespace with Deployments, ReplicaSets, pods, nodes, claims, HPAs and Events, in
 * the shapes and with the message texts the kubelet, the scheduler and the controllers write.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';

export const NS = 'storefront';
export const T0 = '2026-11-27T09:00:00Z';
export const IMAGE = 'registry.example.com/storefront/catalog:broken';

export function at(seconds: number): string {
  return new Date(Date.parse(T0) + seconds * 1000).toISOString().replace('.000Z', 'Z');
}

export const ms = (seconds: number): number => Date.parse(T0) + seconds * 1000;

let serial = 0;
/** A fresh uid in the API server's format. */
export function uid(): string {
  serial += 1;
  const hex = serial.toString(16).padStart(12, '0');
  return `6f1c2a3b-4d5e-4f60-8a7b-${hex}`;
}

type Json = Record<string, unknown>;

export function owner(object: SlimObject): Json {
  return { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name, uid: object.metadata.uid, controller: true, blockOwnerDeletion: true };
}

function meta(name: string, extra: Json = {}): SlimObject['metadata'] {
  return { name, namespace: NS, uid: uid(), resourceVersion: '48213', creationTimestamp: T0, ...extra } as SlimObject['metadata'];
}

export function deployment(name: string, options: { replicas?: number; status?: Json; spec?: Json; generation?: number } = {}): SlimObject {
  const replicas = options.replicas ?? 4;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(name, { generation: options.generation ?? 2, labels: { app: name }, annotations: { 'deployment.kubernetes.io/revision': '2' } }),
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      progressDeadlineSeconds: 600,
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: IMAGE }] } },
      ...options.spec,
    },
    status: { observedGeneration: options.generation ?? 2, replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, ...options.status },
  } as SlimObject;
}

export function replicaSet(parent: SlimObject, revision: number, options: { replicas?: number; status?: Json; hash?: string } = {}): SlimObject {
  const hash = options.hash ?? `7d9f8b6c${revision}d`;
  const replicas = options.replicas ?? 4;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: meta(`${parent.metadata.name}-${hash}`, {
      generation: 1,
      creationTimestamp: at(revision * 60),
      labels: { app: parent.metadata.name, 'pod-template-hash': hash },
      annotations: { 'deployment.kubernetes.io/desired-replicas': String(replicas), 'deployment.kubernetes.io/max-replicas': String(replicas + 1), 'deployment.kubernetes.io/revision': String(revision) },
      ownerReferences: [owner(parent)],
    }),
    spec: { replicas, selector: { matchLabels: { app: parent.metadata.name, 'pod-template-hash': hash } } },
    status: { observedGeneration: 1, replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, ...options.status },
  } as SlimObject;
}

export interface PodOptions {
  node?: string | null;
  phase?: string;
  ready?: boolean;
  conditions?: Json[];
  containerStatuses?: Json[];
  volumes?: Json[];
  container?: string;
  image?: string;
  status?: Json;
}

/** A pod of `parent`; running and ready unless told otherwise. */
export function pod(parent: SlimObject, suffix: string, options: PodOptions = {}): SlimObject {
  const container = options.container ?? parent.metadata.name.split('-')[0] ?? 'app';
  const image = options.image ?? IMAGE;
  const ready = options.ready ?? true;
  const node = options.node === undefined ? 'worker-1' : options.node;
  const phase = options.phase ?? 'Running';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(`${parent.metadata.name}-${suffix}`, { labels: { app: container }, ownerReferences: [owner(parent)] }),
    spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: container, image, resources: { requests: { cpu: '500m' } } }], ...(options.volumes ? { volumes: options.volumes } : {}) },
    status: {
      phase,
      ...(node ? { hostIP: '10.0.1.11', podIP: '10.244.1.7' } : {}),
      conditions: options.conditions ?? [
        { type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: at(5) },
        { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: at(5) },
        { type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: at(10), ...(ready ? {} : { reason: 'ContainersNotReady', message: `containers with unready status: [${container}]` }) },
        { type: 'ContainersReady', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: at(10) },
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: at(1) },
      ],
      containerStatuses: options.containerStatuses ?? [{ name: container, image, imageID: '', ready, restartCount: 0, started: true, state: { running: { startedAt: at(8) } } }],
      ...options.status,
    },
  } as SlimObject;
}

/** A core/v1 Event as kubectl get events -o json shows it (legacy recorder fields). */
export function event(about: SlimObject, reason: string, message: string, options: { type?: 'Normal' | 'Warning'; component?: string; first?: number; last?: number; count?: number; fieldPath?: string } = {}): SlimObject {
  const first = options.first ?? 30;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${about.metadata.name}.1879a${(serial += 1).toString(16)}`, namespace: about.metadata.namespace ?? 'default', uid: uid(), resourceVersion: '48300', creationTimestamp: at(first) },
    involvedObject: {
      apiVersion: about.apiVersion,
      kind: about.kind,
      name: about.metadata.name,
      ...(about.metadata.namespace ? { namespace: about.metadata.namespace } : {}),
      uid: about.metadata.uid,
      resourceVersion: about.metadata.resourceVersion,
      ...(options.fieldPath ? { fieldPath: options.fieldPath } : {}),
    },
    reason,
    message,
    source: { component: options.component ?? 'kubelet', host: 'worker-1' },
    firstTimestamp: at(first),
    lastTimestamp: at(options.last ?? first),
    count: options.count ?? 1,
    type: options.type ?? 'Warning',
    eventTime: null,
    reportingComponent: options.component ?? 'kubelet',
    reportingInstance: 'worker-1',
  } as unknown as SlimObject;
}

/** An events.k8s.io/v1 Event (the new recorder: eventTime and series, no legacy times). */
export function eventV1(about: SlimObject, reason: string, note: string, options: { controller: string; seconds?: number; count?: number }): SlimObject {
  const time = at(options.seconds ?? 40);
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `${about.metadata.name}.1879b${(serial += 1).toString(16)}`, namespace: about.metadata.namespace ?? 'default', uid: uid(), resourceVersion: '48301', creationTimestamp: time },
    eventTime: `${time.replace('Z', '')}.120000Z`,
    ...(options.count ? { series: { count: options.count, lastObservedTime: `${time.replace('Z', '')}.900000Z` } } : {}),
    reportingController: options.controller,
    reportingInstance: `${options.controller}-control-plane`,
    action: 'Scheduling',
    reason,
    regarding: { kind: about.kind, namespace: about.metadata.namespace, name: about.metadata.name, uid: about.metadata.uid, apiVersion: about.apiVersion, resourceVersion: about.metadata.resourceVersion },
    note,
    type: 'Warning',
  } as unknown as SlimObject;
}

export function node(name: string, ready: { status: 'True' | 'False' | 'Unknown'; reason: string; message: string }, taints: Json[] = []): SlimObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: uid(), resourceVersion: '48002', creationTimestamp: T0, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
    spec: { podCIDR: '10.244.2.0/24', ...(taints.length > 0 ? { taints } : {}) },
    status: {
      conditions: [
        { type: 'MemoryPressure', status: ready.status === 'Unknown' ? 'Unknown' : 'False', reason: ready.status === 'Unknown' ? 'NodeStatusUnknown' : 'KubeletHasSufficientMemory', message: ready.status === 'Unknown' ? 'Kubelet stopped posting node status.' : 'kubelet has sufficient memory available', lastHeartbeatTime: at(100), lastTransitionTime: at(200) },
        { type: 'Ready', status: ready.status, reason: ready.reason, message: ready.message, lastHeartbeatTime: at(100), lastTransitionTime: at(200) },
      ],
      nodeInfo: { kubeletVersion: 'v1.31.2', containerRuntimeVersion: 'containerd://1.7.22' },
    },
  } as SlimObject;
}
