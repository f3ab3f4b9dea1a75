/**
 * A whole simulated control plane for controller tests: store, manual clock, every core
 * controller, nodes, and helpers to advance time in small settled steps and to read events.
 */
import { createCoreControllers } from '../../../../electron/engine/simcluster/controllers/core-controllers.ts';
import { EventRecorder } from '../../../../electron/engine/simcluster/controllers/events.ts';
import type { KubeletOptions } from '../../../../electron/engine/simcluster/controllers/kubelet.ts';
import type { NodeLifecycleOptions } from '../../../../electron/engine/simcluster/controllers/node-lifecycle.ts';
import { ControllerManager, ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
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
export const DEPLOYMENTS = T('deployments.apps');
export const REPLICASETS = T('replicasets.apps');

export interface ClusterOptions {
  nodes?: number;
  /** Per-node capacity override. */
  capacity?: Record<string, string>;
  kubelet?: KubeletOptions;
  nodeLifecycle?: NodeLifecycleOptions;
  kubernetesVersion?: string;
}

export interface EventView {
  reason: string;
  message: string;
  type: string;
  count: number;
  component: string;
  host: string | undefined;
  object: string;
  fieldPath: string | undefined;
}

export const FAST_KUBELET: KubeletOptions = { pullDelayMs: 1000, startDelayMs: 400, readinessDelayMs: 500, jobRunMs: 3000, crashAfterMs: 1000, killDelayMs: 600 };

export function cluster(options: ClusterOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const store = new ObjectStore({ now: () => clock.now() });
  const events = new EventRecorder(store, () => clock.now());
  const errors: unknown[] = [];
  const version = options.kubernetesVersion ?? 'v1.32.2';
  const { controllers, nodeLifecycle } = createCoreControllers({
    kubernetesVersion: version,
    kubelet: { ...FAST_KUBELET, ...options.kubelet },
    ...(options.nodeLifecycle ? { nodeLifecycle: options.nodeLifecycle } : {}),
  });
  const manager = new ControllerManager({ store, clock, events }, controllers, { onError: (_name, error) => errors.push(error) });
  const settle = (): void => {
    manager.drain();
    if (errors.length > 0) throw errors[0];
  };
  for (let i = 1; i <= (options.nodes ?? 3); i += 1) {
    const name = `node-${i}`;
    const node: IncomingObject = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } }, spec: {} };
    if (options.capacity) node['status'] = { capacity: options.capacity, allocatable: options.capacity };
    store.create(NODES, node);
  }
  manager.start();
  settle();
  const self = {
    clock,
    store,
    manager,
    nodeLifecycle,
    settle,
    /** Advances `ms` in settled steps of `stepMs`, calling `check` after each. */
    advance(ms: number, stepMs = 100, check?: () => void): void {
      for (let done = 0; done < ms; done += stepMs) {
        clock.advance(Math.min(stepMs, ms - done));
        settle();
        check?.();
      }
    },
    create(id: string, object: IncomingObject): KubeObject {
      const created = store.create(T(id), object);
      settle();
      return created;
    },
    get(id: string, name: string, namespace = 'default'): KubeObject {
      return store.get(T(id), namespace, name);
    },
    pods(namespace = 'default'): KubeObject[] {
      return store.all(PODS, namespace);
    },
    replicaSets(namespace = 'default'): KubeObject[] {
      return store.all(REPLICASETS, namespace);
    },
    events(filter: { reason?: string; object?: string } = {}): EventView[] {
      return store
        .all(EVENTS)
        .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
        .map((e) => {
          const source = e['source'] as { component: string; host?: string };
          const involved = e['involvedObject'] as { name: string; fieldPath?: string };
          return { reason: String(e['reason']), message: String(e['message']), type: String(e['type']), count: Number(e['count']), component: source.component, host: source.host, object: involved.name, fieldPath: involved.fieldPath };
        })
        .filter((e) => (!filter.reason || e.reason === filter.reason) && (!filter.object || e.object === filter.object));
    },
  };
  return self;
}

export type Cluster = ReturnType<typeof cluster>;

export function deployment(name: string, spec: { replicas?: number; image?: string; strategy?: Record<string, unknown>; progressDeadlineSeconds?: number; revisionHistoryLimit?: number; minReadySeconds?: number; resources?: Record<string, unknown> } = {}): IncomingObject {
  const container: Record<string, unknown> = { name, image: spec.image ?? 'nginx:1.27', ports: [{ containerPort: 80, name: 'http' }] };
  if (spec.resources) container['resources'] = spec.resources;
  const body: Record<string, unknown> = {
    replicas: spec.replicas ?? 3,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [container] } },
  };
  if (spec.strategy) body['strategy'] = spec.strategy;
  if (spec.progressDeadlineSeconds !== undefined) body['progressDeadlineSeconds'] = spec.progressDeadlineSeconds;
  if (spec.revisionHistoryLimit !== undefined) body['revisionHistoryLimit'] = spec.revisionHistoryLimit;
  if (spec.minReadySeconds !== undefined) body['minReadySeconds'] = spec.minReadySeconds;
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default' }, spec: body };
}

/** Sets the first container's image of a Deployment (a `kubectl set image`). */
export function setImage(c: Cluster, name: string, image: string): void {
  c.store.mutate(DEPLOYMENTS, 'default', name, (copy) => {
    const spec = copy['spec'] as { template: { spec: { containers: Array<{ image: string }> } } };
    const first = spec.template.spec.containers[0];
    if (first) first.image = image;
  });
  c.settle();
}

export function isReady(pod: KubeObject): boolean {
  const conditions = ((pod['status'] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions) ?? [];
  return conditions.some((x) => x.type === 'Ready' && x.status === 'True');
}

export function statusOf(obj: KubeObject): Record<string, unknown> {
  return (obj['status'] as Record<string, unknown> | undefined) ?? {};
}

export function condition(obj: KubeObject, type: string): Record<string, unknown> | undefined {
  return ((statusOf(obj)['conditions'] as Array<Record<string, unknown>> | undefined) ?? []).find((x) => x['type'] === type);
}
