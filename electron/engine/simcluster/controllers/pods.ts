/**
 * Pod helpers shared by the workload controllers: building a pod from a template the way
 * controllers do (labels, annotations, finalizers, controller ownerReference, then API
 * defaulting), readiness and availability as client-go's podutil computes them, and deletion
 * with the grace period kube-apiserver would apply.
 */
import { defaultPod } from '../defaults/pod.ts';
import type { DeleteOptions, ObjectStore } from '../store.ts';
import type { IncomingObject, KubeObject } from '../types.ts';
import { getCondition } from './conditions.ts';
import { PODS } from './kinds.ts';
import { newControllerRef } from './owner.ts';
import { bytes, cpuMillis } from './quantity.ts';

/** A `PodTemplateSpec` as workloads carry it. */
export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; name?: string };
  spec?: Record<string, unknown>;
}

export interface PodFromTemplateOptions {
  /** A fixed name (StatefulSet ordinals); otherwise `generateName` is used. */
  name?: string;
  /** Defaults to `<owner name>-`, as the ReplicaSet controller names pods. */
  generateName?: string;
  /** Labels added on top of the template's (e.g. `statefulset.kubernetes.io/pod-name`). */
  labels?: Record<string, string>;
  /** Annotations added on top of the template's. */
  annotations?: Record<string, string>;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

/**
 * What kube-apiserver does to a pod on create (defaults/pod.ts: PodSpec and container
 * defaults, ServiceAccount, Priority, DefaultTolerationSeconds, Pending status with qosClass).
 * Controllers write the store directly, so they apply it themselves. Mutates and returns `pod`.
 */
export function applyPodDefaults<T extends object>(pod: T): T {
  defaultPod(pod as Parameters<typeof defaultPod>[0]);
  return pod;
}

/**
 * A pod for `owner` from `template` (client-go's GetPodFromTemplate), controlled by `owner`,
 * defaulted and admitted like kube-apiserver does. Ready for `store.create(PODS, ...)`.
 */
export function podFromTemplate(owner: KubeObject, template: PodTemplate, options: PodFromTemplateOptions = {}): IncomingObject {
  const templateMeta = template.metadata ?? {};
  const metadata: Record<string, unknown> = {};
  if (options.name) metadata['name'] = options.name;
  else metadata['generateName'] = options.generateName ?? `${owner.metadata.name}-`;
  metadata['namespace'] = owner.metadata.namespace;
  const labels = { ...(templateMeta.labels ?? {}), ...(options.labels ?? {}) };
  if (Object.keys(labels).length > 0) metadata['labels'] = labels;
  const annotations = { ...(templateMeta.annotations ?? {}), ...(options.annotations ?? {}) };
  if (Object.keys(annotations).length > 0) metadata['annotations'] = annotations;
  if (templateMeta.finalizers?.length) metadata['finalizers'] = [...templateMeta.finalizers];
  metadata['ownerReferences'] = [newControllerRef(owner)];
  const pod: Record<string, unknown> = { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(template.spec ?? {}) };
  return applyPodDefaults(pod) as unknown as IncomingObject;
}

/** `status.phase`, Pending when unset. */
export function podPhase(pod: KubeObject): PodPhase {
  return ((pod['status'] as { phase?: PodPhase } | undefined)?.phase ?? 'Pending') as PodPhase;
}

/** Succeeded or Failed: the pod will not run again. */
export function isPodTerminal(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Counted by controllers: not terminal and not being deleted (controller.IsPodActive). */
export function isPodActive(pod: KubeObject): boolean {
  return !isPodTerminal(pod) && pod.metadata.deletionTimestamp === undefined;
}

/** The Ready condition is True. */
export function isPodReady(pod: KubeObject): boolean {
  return getCondition(pod['status'], 'Ready')?.status === 'True';
}

/**
 * Ready for at least `minReadySeconds` before `now` (podutil.IsPodAvailable). Callers running
 * a sped-up clock pass the already scaled seconds.
 */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  const ready = getCondition(pod['status'], 'Ready');
  if (ready?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(ready.lastTransitionTime ?? '');
  return Number.isFinite(since) && since + minReadySeconds * 1000 < now;
}

/** Milliseconds until the pod becomes available, if it is ready but not yet available. */
export function msUntilAvailable(pod: KubeObject, minReadySeconds: number, now: number): number | undefined {
  const ready = getCondition(pod['status'], 'Ready');
  if (ready?.status !== 'True' || minReadySeconds <= 0) return undefined;
  const since = Date.parse(ready.lastTransitionTime ?? '');
  if (!Number.isFinite(since)) return undefined;
  const remaining = since + minReadySeconds * 1000 - now;
  return remaining >= 0 ? remaining + 1 : undefined;
}

/** The node the pod is bound to, if scheduled. */
export function podNodeName(pod: KubeObject): string | undefined {
  const name = (pod['spec'] as { nodeName?: string } | undefined)?.nodeName;
  return name ? name : undefined;
}

/**
 * The delete options kube-apiserver would use for a plain delete of this pod: its
 * terminationGracePeriodSeconds if a kubelet runs it, immediate otherwise.
 */
export function podDeleteOptions(pod: KubeObject): DeleteOptions {
  const spec = (pod['spec'] as { terminationGracePeriodSeconds?: number } | undefined) ?? {};
  const grace = podNodeName(pod) && !isPodTerminal(pod) ? (spec.terminationGracePeriodSeconds ?? 30) : 0;
  return { gracePeriodSeconds: grace, preconditions: { uid: pod.metadata.uid } };
}

/** Deletes a pod gracefully (see `podDeleteOptions`); returns false if it was already gone. */
export function deletePod(store: ObjectStore, pod: KubeObject): boolean {
  if (!store.find(PODS, pod.metadata.namespace, pod.metadata.name)) return false;
  store.delete(PODS, pod.metadata.namespace, pod.metadata.name, podDeleteOptions(pod));
  return true;
}

/** Summed container requests (max with any init container), for scheduling. */
export function podRequests(pod: KubeObject): { cpuMillis: number; memoryBytes: number } {
  const spec = (pod['spec'] as Record<string, unknown> | undefined) ?? {};
  const sum = (containers: unknown): { cpuMillis: number; memoryBytes: number }[] =>
    ((containers as Array<{ resources?: { requests?: Record<string, unknown> } }> | undefined) ?? []).map((c) => ({
      cpuMillis: cpuMillis(c.resources?.requests?.['cpu']),
      memoryBytes: bytes(c.resources?.requests?.['memory']),
    }));
  const main = sum(spec['containers']).reduce((a, b) => ({ cpuMillis: a.cpuMillis + b.cpuMillis, memoryBytes: a.memoryBytes + b.memoryBytes }), { cpuMillis: 0, memoryBytes: 0 });
  for (const init of sum(spec['initContainers'])) {
    main.cpuMillis = Math.max(main.cpuMillis, init.cpuMillis);
    main.memoryBytes = Math.max(main.memoryBytes, init.memoryBytes);
  }
  return main;
}
