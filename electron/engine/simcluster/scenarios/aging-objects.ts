/**
 * Building blocks for an aged cluster (aging.ts): timestamps in the forms the API server writes
 * them, managedFields entries, pods with their condition and container history, and Events as
 * client-go's recorder (core/v1) and the events/v1 recorder (eventTime) create them.
 */
import { involvedObjectOf } from '../controllers/events.ts';
import type { KubeObject, OwnerReference } from '../types.ts';

/** `metav1.Time`: RFC 3339 in seconds. */
export function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `metav1.MicroTime` (an Event's eventTime): six fractional digits. */
export function microIso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const MINUTE_MS = 60_000;
const SECOND_MS = 1000;

/** One managedFields entry as the apiserver records a manager's write. */
export function managedEntry(manager: string, apiVersion: string, at: number, fieldsV1: Record<string, unknown>, subresource?: 'status'): Record<string, unknown> {
  return { manager, operation: 'Update', apiVersion, time: iso(at), fieldsType: 'FieldsV1', fieldsV1, ...(subresource ? { subresource } : {}) };
}

/** A condition that turned `status` at `at`. */
export function condition(type: string, status: 'True' | 'False', at: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type, status, lastProbeTime: null, lastTransitionTime: iso(at), ...extra };
}

/** A container's earlier run, ended at `finishedAt` (what kubelet keeps as lastState.terminated). */
export interface PastTermination {
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
}

export interface PodHistory {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  owner: OwnerReference;
  nodeName: string;
  hostIP: string;
  podIP: string;
  image: string;
  container: string;
  /** When the pod was created; it was scheduled and running seconds later. */
  createdAt: number;
  /** Earlier runs of its container, oldest first: restartCount is their number. */
  terminations: PastTermination[];
  /** A Job's pod: its container ran to completion at this time. */
  completedAt?: number;
}

/**
 * A pod that has run since `createdAt`: conditions with their transition times, the container's
 * current run started after its last termination, restartCount and lastState.terminated.
 */
export function agedPod(p: PodHistory): { object: Record<string, unknown>; createdAt: number } {
  const scheduled = p.createdAt + SECOND_MS;
  const started = p.createdAt + 4 * SECOND_MS;
  const last = p.terminations.at(-1);
  const runningSince = last ? last.finishedAt + 10 * SECOND_MS : started;
  const completed = p.completedAt;
  const imageID = `docker.io/library/${p.image}@sha256:${'0'.repeat(56)}${p.image.length.toString(16).padStart(8, '0')}`;
  const state = completed !== undefined
    ? { terminated: { exitCode: 0, reason: 'Completed', startedAt: iso(started), finishedAt: iso(completed), containerID: `containerd://${p.name}-0` } }
    : { running: { startedAt: iso(runningSince) } };
  const lastState = last
    ? { terminated: { exitCode: last.exitCode, reason: last.reason, startedAt: iso(last.startedAt), finishedAt: iso(last.finishedAt), containerID: `containerd://${p.name}-${p.terminations.length - 1}` } }
    : {};
  const ready = completed === undefined;
  const readySince = completed ?? runningSince + SECOND_MS;
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: p.labels,
      ownerReferences: [p.owner],
      managedFields: [
        managedEntry('kube-controller-manager', 'v1', p.createdAt, { 'f:metadata': { 'f:labels': {}, 'f:ownerReferences': {} }, 'f:spec': { 'f:containers': {} } }),
        managedEntry('kubelet', 'v1', Math.max(readySince, started), { 'f:status': { 'f:conditions': {}, 'f:containerStatuses': {}, 'f:phase': {}, 'f:podIP': {} } }, 'status'),
      ],
    },
    spec: {
      nodeName: p.nodeName,
      restartPolicy: completed !== undefined ? 'Never' : 'Always',
      containers: [{ name: p.container, image: p.image }],
    },
    status: {
      phase: completed !== undefined ? 'Succeeded' : 'Running',
      conditions: [
        condition('PodReadyToStartContainers', ready ? 'True' : 'False', completed ?? started),
        condition('Initialized', 'True', scheduled, completed !== undefined ? { reason: 'PodCompleted' } : {}),
        condition('Ready', ready ? 'True' : 'False', readySince, ready ? {} : { reason: 'PodCompleted' }),
        condition('ContainersReady', ready ? 'True' : 'False', readySince, ready ? {} : { reason: 'PodCompleted' }),
        condition('PodScheduled', 'True', scheduled),
      ],
      hostIP: p.hostIP,
      hostIPs: [{ ip: p.hostIP }],
      podIP: p.podIP,
      podIPs: [{ ip: p.podIP }],
      startTime: iso(scheduled),
      qosClass: 'BestEffort',
      containerStatuses: [
        {
          name: p.container,
          state,
          lastState,
          ready,
          restartCount: p.terminations.length,
          image: `docker.io/library/${p.image}`,
          imageID,
          containerID: completed !== undefined ? `containerd://${p.name}-0` : `containerd://${p.name}-${p.terminations.length}`,
          started: ready,
        },
      ],
    },
  };
  return { object, createdAt: p.createdAt };
}

export interface PastEvent {
  regarding: KubeObject;
  reason: string;
  message: string;
  type: 'Normal' | 'Warning';
  component: string;
  host?: string;
  fieldPath?: string;
  firstAt: number;
  lastAt: number;
  count: number;
  /** events/v1 recorders (the scheduler) write eventTime and leave first/lastTimestamp null. */
  eventsV1?: { action: string };
}

/** The core/v1 Event a recorder made for `e`, named `<object>.<nanos, hex>` (its time in ns) as client-go names them. */
export function pastEvent(e: PastEvent, nanos: bigint = BigInt(e.firstAt) * 1_000_000n): { object: Record<string, unknown>; createdAt: number } {
  const { regarding } = e;
  const involvedObject = involvedObjectOf(regarding, e.fieldPath);
  const name = `${regarding.metadata.name}.${nanos.toString(16)}`;
  const base = { apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: regarding.metadata.namespace ?? 'default' }, involvedObject, reason: e.reason, message: e.message, type: e.type };
  const object = e.eventsV1
    ? { ...base, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: microIso(e.firstAt), action: e.eventsV1.action, reportingComponent: e.component, reportingInstance: `${e.component}-${e.host ?? 'control-plane'}` }
    : {
        ...base,
        source: e.host ? { component: e.component, host: e.host } : { component: e.component },
        firstTimestamp: iso(e.firstAt),
        lastTimestamp: iso(e.lastAt),
        count: e.count,
        eventTime: null,
        reportingComponent: e.component,
        reportingInstance: e.host ?? `${e.component}-simcluster`,
      };
  return { object, createdAt: e.firstAt };
}

/** Minutes as ms, for readable timelines. */
export const minutes = (n: number): number => n * MINUTE_MS;
/** Seconds as ms. */
export const seconds = (n: number): number => n * SECOND_MS;
