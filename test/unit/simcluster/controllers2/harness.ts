/**
 * A store, a manual clock and a controller manager for controller tests, plus a stand-in
 * kubelet (`setPods`) so each controller is tested on its own, without scheduler or kubelet.
 */
import { ControllerManager, ManualClock, type Controller } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { EventRecorder } from '../../../../electron/engine/simcluster/controllers/events.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { IncomingObject, KubeObject } from '../../../../electron/engine/simcluster/types.ts';

export const T = (id: string): ResourceType => {
  const type = typeById(id);
  if (!type) throw new Error(`no type ${id}`);
  return type;
};
export const PODS = T('pods');
export const NODES = T('nodes');
export const EVENTS = T('events');

export interface Harness {
  clock: ManualClock;
  store: ObjectStore;
  manager: ControllerManager;
  /** Runs queued reconciles to completion; throws the first controller error. */
  settle(): void;
  /** Advances the clock (firing requeues), settling after each step of `stepMs`. */
  advance(ms: number, stepMs?: number): void;
  create(id: string, object: IncomingObject): KubeObject;
  pods(namespace?: string): KubeObject[];
  /** Events as `reason: message`, oldest first. */
  events(filter?: { reason?: string; name?: string }): string[];
}

export function harness(controllers: Controller[]): Harness {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const store = new ObjectStore({ now: () => clock.now() });
  const recorder = new EventRecorder(store, () => clock.now());
  const errors: unknown[] = [];
  const manager = new ControllerManager({ store, clock, events: recorder }, controllers, { onError: (_name, error) => errors.push(error) });
  const settle = () => {
    manager.drain();
    if (errors.length > 0) throw errors[0];
  };
  manager.start();
  settle();
  return {
    clock,
    store,
    manager,
    settle,
    advance(ms, stepMs = 1_000) {
      for (let done = 0; done < ms; done += stepMs) {
        clock.advance(Math.min(stepMs, ms - done));
        settle();
      }
    },
    create(id, object) {
      const created = store.create(T(id), object);
      settle();
      return created;
    },
    pods(namespace = 'default') {
      return store.all(PODS, namespace);
    },
    events(filter = {}) {
      return store
        .all(EVENTS)
        .filter((e) => (!filter.reason || e['reason'] === filter.reason) && (!filter.name || (e['involvedObject'] as { name?: string }).name === filter.name))
        .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
        .map((e) => `${String(e['reason'])}: ${String(e['message'])}`);
    },
  };
}

type PodState = 'ready' | 'running' | 'succeeded' | 'failed';

/**
 * Stand-in kubelet: moves the named pods (or all non-terminated ones) to a phase, with the
 * conditions and container statuses a real kubelet writes.
 */
export function setPods(h: Harness, state: PodState, options: { names?: string[]; namespace?: string; node?: string } = {}): void {
  const at = new Date(h.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const pod of h.pods(options.namespace)) {
    if (options.names ? !options.names.includes(pod.metadata.name) : pod.metadata.deletionTimestamp !== undefined) continue;
    const phase = state === 'ready' || state === 'running' ? 'Running' : state === 'succeeded' ? 'Succeeded' : 'Failed';
    const ready = state === 'ready' ? 'True' : 'False';
    h.store.mutate(PODS, pod.metadata.namespace, pod.metadata.name, (copy) => {
      const spec = copy['spec'] as { containers: Array<{ name: string; image: string }> };
      copy['status'] = {
        ...(copy['status'] as object),
        phase,
        conditions: [
          { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: at },
          { type: 'Ready', status: ready, lastProbeTime: null, lastTransitionTime: at },
          { type: 'ContainersReady', status: ready, lastProbeTime: null, lastTransitionTime: at },
          { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: at },
        ],
        containerStatuses: spec.containers.map((c) => ({
          name: c.name,
          image: c.image,
          ready: state === 'ready',
          restartCount: 0,
          state: phase === 'Running' ? { running: { startedAt: at } } : { terminated: { exitCode: state === 'succeeded' ? 0 : 1, reason: state === 'succeeded' ? 'Completed' : 'Error', startedAt: at, finishedAt: at } },
        })),
      };
    }, { subresource: 'status' });
  }
  h.settle();
}

/** Stand-in kubelet finishing graceful deletions: pods marked for deletion go away. */
export function reapPods(h: Harness, namespace = 'default'): void {
  for (const pod of h.pods(namespace)) {
    if (pod.metadata.deletionTimestamp) h.store.delete(PODS, namespace, pod.metadata.name, { gracePeriodSeconds: 0 });
  }
  h.settle();
}

/** A Node object as a registered kubelet would leave it. */
export function node(name: string, extra: { labels?: Record<string, string>; taints?: unknown[]; ready?: boolean; unschedulable?: boolean } = {}): IncomingObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...(extra.labels ?? {}) } },
    spec: { ...(extra.taints ? { taints: extra.taints } : {}), ...(extra.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: extra.ready === false ? 'Unknown' : 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
    },
  };
}

export const template = (labels: Record<string, string>, image = 'nginx:1.27.2') => ({
  metadata: { labels },
  spec: { containers: [{ name: 'app', image, resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
});
