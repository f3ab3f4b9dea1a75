/**
 * ResourceQuota: the quota admission check on pod create (kube-apiserver's ResourceQuota
 * admission plugin) and the resource-quota controller that keeps `status.hard` and
 * `status.used` current. Pods count while not terminal, by their containers' requests and
 * limits (init containers by the larger of their maximum and the app containers' sum).
 * Tracked: `pods`, `cpu`/`requests.cpu`, `memory`/`requests.memory`, `limits.cpu`, `limits.memory`.
 */
import type { Change } from '../changelog.ts';
import { ApiError } from '../errors.ts';
import { typeById, type ResourceType } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { PODS } from './kinds.ts';
import { bytes, cpuMillis } from './quantity.ts';
import { isPodTerminal } from './pods.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';

export const RESOURCE_QUOTAS = typeById('resourcequotas') as ResourceType;
export const RESOURCE_QUOTA_CONTROLLER = 'resource-quota-controller';

type Usage = Record<string, number>;
interface Container {
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

/** Each tracked resource name, whether it is CPU (millicores) or bytes, and where a container names it. */
const TRACKED: Record<string, { cpu: boolean; from: 'requests' | 'limits' }> = {
  cpu: { cpu: true, from: 'requests' },
  'requests.cpu': { cpu: true, from: 'requests' },
  'limits.cpu': { cpu: true, from: 'limits' },
  memory: { cpu: false, from: 'requests' },
  'requests.memory': { cpu: false, from: 'requests' },
  'limits.memory': { cpu: false, from: 'limits' },
};

function containerAmount(container: Container, name: string): number {
  const tracked = TRACKED[name];
  if (!tracked) return 0;
  const value = container.resources?.[tracked.from]?.[tracked.cpu ? 'cpu' : 'memory'];
  return tracked.cpu ? cpuMillis(value) : bytes(value);
}

/** What one pod uses of each tracked resource (CPU in millicores, memory in bytes). */
export function podUsage(pod: KubeObject): Usage {
  const spec = (pod['spec'] as { containers?: Container[]; initContainers?: Container[] } | undefined) ?? {};
  const usage: Usage = { pods: 1 };
  for (const name of Object.keys(TRACKED)) {
    const sum = (spec.containers ?? []).reduce((total, c) => total + containerAmount(c, name), 0);
    const init = Math.max(0, ...(spec.initContainers ?? []).map((c) => containerAmount(c, name)));
    usage[name] = Math.max(sum, init);
  }
  return usage;
}

/** A Quantity's canonical form: `2` or `500m` for CPU, `192Mi` or `1Gi` for bytes, plain counts. */
function formatQuantity(name: string, amount: number): string {
  const tracked = TRACKED[name];
  if (!tracked) return String(amount);
  if (tracked.cpu) return amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
  const units = ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'];
  for (let i = 0; i < units.length; i += 1) {
    const size = 1024 ** (units.length - i);
    if (amount !== 0 && amount % size === 0) return `${amount / size}${units[i]}`;
  }
  return String(amount);
}

function hardOf(quota: KubeObject): Record<string, unknown> {
  return ((quota['spec'] as { hard?: Record<string, unknown> } | undefined)?.hard) ?? {};
}

function amountOf(name: string, value: unknown): number {
  const tracked = TRACKED[name];
  if (!tracked) return Number(value) || 0;
  return tracked.cpu ? cpuMillis(value) : bytes(value);
}

/** What the pods of a namespace use now, except `except` (a pod being admitted). */
function namespaceUsage(store: ObjectStore, namespace: string, except?: string): Usage {
  const total: Usage = {};
  for (const pod of store.all(PODS, namespace)) {
    if (pod.metadata.name === except || isPodTerminal(pod)) continue;
    for (const [name, amount] of Object.entries(podUsage(pod))) total[name] = (total[name] ?? 0) + amount;
  }
  return total;
}

/** quota.prettyPrint: `cpu=500m,memory=1Gi`, keys sorted. */
function pretty(names: string[], value: (name: string) => string): string {
  return [...names].sort().map((name) => `${name}=${value(name)}`).join(',');
}

/**
 * The ResourceQuota admission check for a new pod (named already, as admission sees it): throws
 * kube-apiserver's 403 `pods "web-abc" is forbidden: exceeded quota: compute, requested:
 * cpu=500m, used: cpu=2, limited: cpu=2` when the pod would take a quota past a hard limit.
 */
export function admitPodQuota(store: ObjectStore, pod: KubeObject): void {
  const namespace = pod.metadata.namespace;
  if (!namespace || !RESOURCE_QUOTAS) return;
  const quotas = store.all(RESOURCE_QUOTAS, namespace);
  if (quotas.length === 0) return;
  const requested = podUsage(pod);
  const used = namespaceUsage(store, namespace, pod.metadata.name);
  for (const quota of quotas) {
    const hard = hardOf(quota);
    const exceeded = Object.keys(hard).filter((name) => name in requested && (used[name] ?? 0) + (requested[name] ?? 0) > amountOf(name, hard[name]));
    if (exceeded.length === 0) continue;
    const message = `exceeded quota: ${quota.metadata.name}, requested: ${pretty(exceeded, (n) => formatQuantity(n, requested[n] ?? 0))}, used: ${pretty(exceeded, (n) => formatQuantity(n, used[n] ?? 0))}, limited: ${pretty(exceeded, (n) => formatQuantity(n, amountOf(n, hard[n])))}`;
    throw new ApiError(403, 'Forbidden', `pods "${pod.metadata.name}" is forbidden: ${message}`, { name: pod.metadata.name, kind: 'pods' });
  }
}

/** resource-quota-controller: `status.hard` from the spec and `status.used` from the namespace's pods. */
export function createResourceQuotaController(): Controller {
  const keysIn = (store: ObjectStore, namespace: string | undefined): ReconcileKey[] =>
    namespace ? store.all(RESOURCE_QUOTAS, namespace).map((q) => ({ resource: 'resourcequotas', namespace, name: q.metadata.name })) : [];
  let storeRef: ObjectStore | undefined;
  return {
    name: RESOURCE_QUOTA_CONTROLLER,
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource === 'resourcequotas' && change.type !== 'DELETED') return [{ resource: 'resourcequotas', namespace: change.object.metadata.namespace, name: change.object.metadata.name }];
      if (change.resource === 'pods' && storeRef) return keysIn(storeRef, change.object.metadata.namespace);
      return [];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      storeRef = ctx.store;
      return ctx.store.all(RESOURCE_QUOTAS).map((q) => ({ resource: 'resourcequotas', namespace: q.metadata.namespace, name: q.metadata.name }));
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): void {
      const quota = ctx.store.find(RESOURCE_QUOTAS, key.namespace, key.name);
      if (!quota || !key.namespace) return;
      const hard = hardOf(quota);
      const usage = namespaceUsage(ctx.store, key.namespace);
      const status = {
        hard: Object.fromEntries(Object.keys(hard).sort().map((name) => [name, formatQuantity(name, amountOf(name, hard[name]))])),
        used: Object.fromEntries(Object.keys(hard).sort().map((name) => [name, formatQuantity(name, usage[name] ?? 0)])),
      };
      if (JSON.stringify(status) === JSON.stringify(quota['status'] ?? {})) return;
      ctx.store.update(RESOURCE_QUOTAS, { ...quota, status }, { subresource: 'status' });
    },
  };
}
