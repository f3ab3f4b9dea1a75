/**
 * Kubernetes objects as the engine sends them (real API JSON minus managedFields and the
 * last-applied annotation), frame builders for the `cluster:frames` protocol, and a stand-in
 * for the browser's animation frames.
 */
import { vi } from 'vitest';
import type { ClusterFrame, ClusterHealth, KindHealth, ObjectRef, SlimObject } from '../../../shared/cluster.ts';
import { builtinKeyOf } from '../../../shared/builtin-kinds.ts';

let serial = 0;
/** A fresh uid in the Kubernetes format. */
export function uid(): string {
  serial += 1;
  return `6f1c${String(serial).padStart(4, '0')}-8d2e-4b7a-9c1d-2e5f7a9b${String(serial).padStart(4, '0')}`;
}

const CREATED = '2025-05-01T10:00:00Z';

interface Meta {
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }>;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
}

function metadata(name: string, meta: Meta, namespaced = true): SlimObject['metadata'] {
  return {
    name,
    ...(namespaced ? { namespace: meta.namespace ?? 'default' } : {}),
    uid: meta.uid ?? uid(),
    resourceVersion: meta.resourceVersion ?? '1000',
    creationTimestamp: CREATED,
    ...(meta.generation !== undefined ? { generation: meta.generation } : {}),
    ...(meta.ownerReferences ? { ownerReferences: meta.ownerReferences } : {}),
    ...(meta.deletionTimestamp ? { deletionTimestamp: meta.deletionTimestamp } : {}),
    labels: meta.labels ?? { app: name },
  };
}

/** A Deployment as `kubectl get -o json` shows it once the controller caught up, unless told otherwise. */
export function deployment(
  name: string,
  options: Meta & { replicas?: number; ready?: number; available?: number; updated?: number; observedGeneration?: number; conditions?: unknown[]; paused?: boolean } = {},
): SlimObject {
  const replicas = options.replicas ?? 3;
  const ready = options.ready ?? replicas;
  const generation = options.generation ?? 2;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata(name, { ...options, generation }),
    spec: {
      replicas,
      ...(options.paused ? { paused: true } : {}),
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
    status: {
      observedGeneration: options.observedGeneration ?? generation,
      replicas,
      updatedReplicas: options.updated ?? replicas,
      readyReplicas: ready,
      availableReplicas: options.available ?? ready,
      conditions: options.conditions ?? [
        { type: 'Available', status: 'True', lastUpdateTime: CREATED, lastTransitionTime: CREATED, reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
        { type: 'Progressing', status: 'True', lastUpdateTime: CREATED, lastTransitionTime: CREATED, reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${name}-5d8f7c9b6" has successfully progressed.` },
      ],
    },
  };
}

/** A ReplicaSet, controlled by `owner` when given. */
export function replicaSet(name: string, options: Meta & { replicas?: number; ready?: number; owner?: SlimObject } = {}): SlimObject {
  const replicas = options.replicas ?? 2;
  const owner = options.owner;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: metadata(name, {
      ...options,
      generation: 1,
      ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true }] } : {}),
    }),
    spec: { replicas, selector: { matchLabels: { app: name } } },
    status: { replicas, fullyLabeledReplicas: replicas, readyReplicas: options.ready ?? replicas, availableReplicas: options.ready ?? replicas, observedGeneration: 1 },
  };
}

/** A Job; `failed` gives it the Failed condition a backoff limit leaves. */
export function job(name: string, options: Meta & { completions?: number; succeeded?: number; failed?: boolean; complete?: boolean } = {}): SlimObject {
  const conditions = [];
  if (options.complete) conditions.push({ type: 'Complete', status: 'True', lastTransitionTime: CREATED });
  if (options.failed) conditions.push({ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: CREATED });
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(name, { ...options, generation: 1 }),
    spec: { completions: options.completions ?? 1, parallelism: 1, backoffLimit: 6 },
    status: { startTime: CREATED, succeeded: options.succeeded ?? 0, ...(options.failed ? { failed: 7 } : { active: 1 }), conditions },
  };
}

type ContainerStatus = Record<string, unknown>;

/** A Pod with the given container statuses (default: one running, ready container). */
export function pod(
  name: string,
  options: Meta & { node?: string; phase?: string; reason?: string; containers?: number; statuses?: ContainerStatus[]; initContainers?: Array<{ name: string; restartPolicy?: string }>; initStatuses?: ContainerStatus[]; conditions?: unknown[] } = {},
): SlimObject {
  const containerCount = options.containers ?? 1;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadata(name, options),
    spec: {
      nodeName: options.node ?? 'worker-1',
      containers: Array.from({ length: containerCount }, (_, i) => ({ name: `c${i}`, image: 'nginx:1.27' })),
      ...(options.initContainers ? { initContainers: options.initContainers.map((c) => ({ ...c, image: 'busybox:1.36' })) } : {}),
    },
    status: {
      phase: options.phase ?? 'Running',
      ...(options.reason ? { reason: options.reason } : {}),
      conditions: options.conditions ?? [{ type: 'Ready', status: 'True' }],
      containerStatuses: options.statuses ?? [{ name: 'c0', ready: true, started: true, restartCount: 0, state: { running: { startedAt: CREATED } } }],
      ...(options.initStatuses ? { initContainerStatuses: options.initStatuses } : {}),
    },
  };
}

/** A Node; `ready: false` sets Ready=False, `cordoned` sets spec.unschedulable. */
export function node(name: string, options: Meta & { ready?: boolean | 'missing'; cordoned?: boolean; roles?: string[]; pressure?: string } = {}): SlimObject {
  const labels: Record<string, string> = { 'kubernetes.io/hostname': name };
  for (const role of options.roles ?? []) labels[`node-role.kubernetes.io/${role}`] = '';
  const conditions: unknown[] = [
    { type: 'MemoryPressure', status: options.pressure === 'MemoryPressure' ? 'True' : 'False', reason: 'KubeletHasSufficientMemory' },
    { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure' },
  ];
  if (options.ready !== 'missing') conditions.push({ type: 'Ready', status: options.ready === false ? 'False' : 'True', reason: options.ready === false ? 'KubeletNotReady' : 'KubeletReady' });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: metadata(name, { ...options, labels }, false),
    spec: options.cordoned ? { unschedulable: true } : {},
    status: {
      allocatable: { cpu: '3920m', memory: '16264428Ki', pods: '110' },
      nodeInfo: { kubeletVersion: 'v1.32.2', osImage: 'Ubuntu 24.04.1 LTS', containerRuntimeVersion: 'containerd://1.7.24' },
      conditions,
    },
  };
}

/** A namespace object. */
export function namespace(name: string): SlimObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: metadata(name, {}, false), status: { phase: 'Active' } };
}

/** The object with a new resourceVersion and the given changes, as the engine would send the next version. */
export function nextVersion(object: SlimObject, resourceVersion: string, change: (copy: Record<string, unknown>) => void = () => {}): SlimObject {
  const copy = structuredClone(object) as SlimObject & Record<string, unknown>;
  copy.metadata.resourceVersion = resourceVersion;
  change(copy);
  return copy;
}

/** A whole snapshot as frames: begin, chunks of `chunkSize`, end. */
export function snapshotFrames(epoch: string, seq: number, objects: SlimObject[], options: { chunkSize?: number; context?: string | null } = {}): ClusterFrame[] {
  const chunkSize = options.chunkSize ?? 2;
  const frames: ClusterFrame[] = [{ type: 'snapshot-begin', epoch, context: options.context ?? 'kind-dev', seq, total: objects.length }];
  for (let start = 0; start < objects.length; start += chunkSize) {
    const chunk = objects.slice(start, start + chunkSize);
    frames.push({ type: 'snapshot-chunk', epoch, seq, objects: chunk, kinds: chunk.map(builtinKeyOf), sent: start + chunk.length, total: objects.length });
  }
  frames.push({ type: 'snapshot-end', epoch, seq });
  return frames;
}

export function deltaFrame(epoch: string, seq: number, upserts: SlimObject[], deletes: ObjectRef[] = []): ClusterFrame {
  return { type: 'delta', epoch, seq, upserts, kinds: upserts.map(builtinKeyOf), deletes };
}

export function refOf(object: SlimObject): ObjectRef {
  return { kind: builtinKeyOf(object), uid: object.metadata.uid };
}

export function kindHealth(kind: KindHealth['kind'], state: KindHealth['state'], count: number, extra: Partial<KindHealth> = {}): KindHealth {
  return { kind, state, count, since: new Date().setHours(12, 1, 0, 0), ...extra };
}

export function clusterHealth(epoch: string, kinds: KindHealth[], context: string | null = 'kind-dev'): ClusterHealth {
  return { context, epoch, kinds };
}

/** Animation frames under the test's control: callbacks wait until `runFrame()`. */
export interface FakeFrames {
  pending(): number;
  /** Runs the callbacks queued so far (one browser frame); returns how many ran. */
  runFrame(): number;
  restore(): void;
}

export function installFakeFrames(): FakeFrames {
  let callbacks = new Map<number, () => void>();
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
    const id = next++;
    callbacks.set(id, callback);
    return id;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => callbacks.delete(id));
  return {
    pending: () => callbacks.size,
    runFrame() {
      const due = [...callbacks.values()];
      callbacks = new Map();
      for (const callback of due) callback();
      return due.length;
    },
    restore: () => vi.unstubAllGlobals(),
  };
}
