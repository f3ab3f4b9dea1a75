/**
 * An aged cluster: objects as a cluster that has run for `age` holds them, every time in the
 * past and consistent with the others. What Kubernetes keeps of its past is what history
 * backfill reads: old ReplicaSets as revision history (each with its revision annotation and
 * creation time), conditions' lastTransitionTime (and Deployments' lastUpdateTime), containers'
 * restartCount and lastState.terminated, Jobs' startTime and completionTime, managedFields times,
 * and Events, of which only the last hour (the apiserver's default --event-ttl) is still there.
 *
 * A StatefulSet's and a DaemonSet's past templates are their ControllerRevisions (revision 1..n,
 * each created when its template was applied: aging-revisions.ts).
 */
import { typeById, type ResourceType } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { IncomingObject, KubeObject } from '../types.ts';
import { iso, pastEvent, seconds, type PastEvent } from './aging-objects.ts';
import { agedRevisionedWorkloads } from './aging-revisions.ts';
import { agedWorkloads, type TemplateDefaults } from './aging-workloads.ts';

/** kube-apiserver's default --event-ttl: older Events are gone from a real cluster. */
export const EVENT_TTL_MS = 60 * 60 * 1000;
/** The oldest cluster this builds (a year). */
export const MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

export interface HistorySeedOptions {
  /** How long the cluster has been running, in ms (e.g. 72 h). */
  ageMs: number;
  /** The present, in ms since the epoch: the injected clock's time. */
  now: number;
  namespace?: string;
  /** Deployment revisions to leave behind (the last is current); default 3. */
  revisions?: number;
  /**
   * The API server's defaulting (defaults/index.ts), so that objects look as created through the
   * API and the Deployment controller finds its current ReplicaSet by the defaulted template's hash.
   */
  applyDefaults?: (type: ResourceType, object: KubeObject) => KubeObject;
}

/** What was made, for tests of backfill: the facts a backfill should turn into episodes. */
export interface SeededHistory {
  namespace: string;
  /** One per ReplicaSet revision, oldest first. */
  rollouts: Array<{ deployment: string; revision: number; replicaSet: string; at: string }>;
  /** One per ControllerRevision of the StatefulSet and the DaemonSet, oldest first per owner. */
  controllerRevisions: Array<{ kind: 'StatefulSet' | 'DaemonSet'; owner: string; revision: number; name: string; at: string }>;
  /**
   * Every earlier container run, oldest first. Only the last of a container is `visible` (its
   * lastState.terminated: kubelet keeps no more); the others show only in its restartCount.
   */
  terminations: Array<{ pod: string; container: string; reason: string; exitCode: number; startedAt: string; finishedAt: string; visible: boolean }>;
  jobRuns: Array<{ job: string; startTime: string; completionTime: string }>;
  /** Names of the Events kept, and how many the TTL had removed. */
  events: { kept: string[]; expired: number };
  /** How many objects were created. */
  created: number;
}

function requireType(id: string): ResourceType {
  const type = typeById(id);
  if (!type) throw new Error(`aging: the simulator serves no ${id}`);
  return type;
}

/** A creation planned at a past time; `build` runs when its turn comes, owners already stored. */
export interface Planned {
  at: number;
  type: string;
  build: () => IncomingObject;
  /** Fills what needs the object's own uid (a Job's selector), before it is stored. */
  admit?: (object: KubeObject) => KubeObject;
  generation?: number;
}

function checkOptions(options: HistorySeedOptions): void {
  if (!Number.isFinite(options.ageMs) || options.ageMs <= 0) throw new Error(`aging: age must be a positive duration, got ${String(options.ageMs)} ms`);
  if (options.ageMs > MAX_AGE_MS) throw new Error(`aging: age must be at most a year, got ${options.ageMs} ms`);
  if (!Number.isFinite(options.now)) throw new Error(`aging: now must be a time in ms, got ${String(options.now)}`);
  const revisions = options.revisions ?? 3;
  if (!Number.isInteger(revisions) || revisions < 1 || revisions > 10) throw new Error(`aging: revisions must be an integer from 1 to 10, got ${String(options.revisions)}`);
}

/** Creates the aged objects in `store`, oldest first, so resourceVersions follow creation times. */
export function seedHistory(store: ObjectStore, options: HistorySeedOptions): SeededHistory {
  checkOptions(options);
  const { now, ageMs } = options;
  const namespace = options.namespace ?? 'default';
  const start = now - ageMs;
  const plan: Planned[] = [];
  const history: SeededHistory = { namespace, rollouts: [], controllerRevisions: [], terminations: [], jobRuns: [], events: { kept: [], expired: 0 }, created: 0 };
  const events: Array<() => PastEvent> = [];

  const nodeName = store.all(requireType('nodes'))[0]?.metadata.name ?? 'history-node';
  if (!store.find(requireType('nodes'), undefined, nodeName)) plan.push({ at: start - seconds(600), type: 'nodes', build: () => agedNode(nodeName, start - seconds(600), now) });
  if (!store.find(requireType('namespaces'), undefined, namespace)) {
    plan.push({ at: start - seconds(300), type: 'namespaces', build: () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'kubernetes.io/metadata.name': namespace } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }) });
  }
  const find = (type: string, name: string): KubeObject => {
    const object = store.find(requireType(type), type === 'nodes' ? undefined : namespace, name);
    if (!object) throw new Error(`aging: ${type} ${name} was not created before its dependents`);
    return object;
  };
  const deployments = requireType('deployments.apps');
  const defaults = options.applyDefaults;
  const defaultTemplate: TemplateDefaults = (template) =>
    defaults
      ? ((defaults(deployments, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'template', namespace }, spec: { selector: { matchLabels: template.metadata.labels }, template } } as unknown as KubeObject)['spec'] as { template: typeof template }).template)
      : template;
  const workloads = { plan, events, history, namespace, nodeName, start, now, revisions: options.revisions ?? 3, find, defaultTemplate };
  agedWorkloads(workloads);
  agedRevisionedWorkloads(workloads);

  plan.sort((a, b) => a.at - b.at);
  for (const step of plan) {
    create(store, step, defaults);
    history.created += 1;
  }
  let lastNanos = 0n;
  for (const make of events.map((e) => e()).sort((a, b) => a.firstAt - b.firstAt)) {
    // Events the apiserver has already let expire are not in a cluster that ran this long.
    if (make.lastAt < now - EVENT_TTL_MS || (make.eventsV1 && make.firstAt < now - EVENT_TTL_MS)) {
      history.events.expired += 1;
      continue;
    }
    // Two events in one millisecond still get distinct, increasing names, as the recorder's do.
    const nanos = BigInt(make.firstAt) * 1_000_000n;
    lastNanos = nanos > lastNanos ? nanos : lastNanos + 1n;
    const { object, createdAt } = pastEvent(make, lastNanos);
    const stored = create(store, { at: createdAt, type: 'events', build: () => object as IncomingObject });
    history.events.kept.push(stored.metadata.name);
    history.created += 1;
  }
  return history;
}

function create(store: ObjectStore, step: Planned, defaults?: HistorySeedOptions['applyDefaults']): KubeObject {
  const type = requireType(step.type);
  const stamp = (created: KubeObject): KubeObject => {
    const object = defaults ? defaults(type, created) : created;
    const aged = { ...object, metadata: { ...object.metadata, creationTimestamp: iso(step.at), ...(step.generation ? { generation: step.generation } : {}) } };
    return step.admit ? step.admit(aged) : aged;
  };
  return store.create(type, step.build(), { admit: stamp });
}

/** Node conditions carry a heartbeat (the kubelet's last status report) and no lastProbeTime. */
function nodeCondition(type: string, status: string, since: number, now: number, reason: string, message: string): Record<string, unknown> {
  return { type, status, lastHeartbeatTime: iso(now - seconds(10)), lastTransitionTime: iso(since), reason, message };
}

function agedNode(name: string, createdAt: number, now: number): IncomingObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' } },
    spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
      conditions: [
        nodeCondition('MemoryPressure', 'False', createdAt + seconds(20), now, 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        nodeCondition('Ready', 'True', createdAt + seconds(40), now, 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [{ type: 'InternalIP', address: '10.0.0.10' }, { type: 'Hostname', address: name }],
      nodeInfo: { kubeletVersion: 'v1.32.0', containerRuntimeVersion: 'containerd://1.7.22', operatingSystem: 'linux', architecture: 'amd64' },
    },
  } as IncomingObject;
}
