/**
 * default-scheduler: binds pending pods to the least allocated node that passes the filters
 * (scheduler-fit.ts), or marks them PodScheduled=False/Unschedulable with a FailedScheduling
 * event. Like the real scheduler it keeps a cache of what each node has committed, and parks
 * unschedulable pods until a cluster event could make them fit (a node changing in a way that
 * matters, an assigned pod going away) or the periodic flush.
 */
import type { Change } from '../changelog.ts';
import { objectKey } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { setCondition } from './conditions.ts';
import { NODES, PODS } from './kinds.ts';
import { isPodTerminal, podNodeName } from './pods.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';
import { hasUnboundClaim } from './persistentvolume.ts';
import { addUsage, emptyUsage, filterNode, fitErrorMessage, podUsage, scoreNode, type FitFailure, type NodeUsage } from './scheduler-fit.ts';

/**
 * FitError for a pod the VolumeBinding PreFilter turned away: its message instead of the node
 * histogram, then the preemption report (with upstream's doubled period).
 */
function unboundClaimsMessage(nodeCount: number): string {
  return `0/${nodeCount} nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/${nodeCount} nodes are available: ${nodeCount} Preemption is not helpful for scheduling..`;
}

export const SCHEDULER = 'default-scheduler';

export interface SchedulerOptions {
  /** Time runs this many times faster (the unschedulable flush interval is divided by it). */
  speed?: number;
  /** How long an unschedulable pod waits for a retry without any cluster event. Default 5 min. */
  unschedulableRetryMs?: number;
}

function needsScheduling(pod: KubeObject): boolean {
  const schedulerName = (pod['spec'] as { schedulerName?: string } | undefined)?.schedulerName ?? SCHEDULER;
  return !podNodeName(pod) && !pod.metadata.deletionTimestamp && !isPodTerminal(pod) && schedulerName === SCHEDULER;
}

/** Whether the pod holds resources on its node, in the scheduler cache's sense. */
function isAssigned(pod: KubeObject | undefined): pod is KubeObject {
  return pod !== undefined && podNodeName(pod) !== undefined && !isPodTerminal(pod);
}

/** The node fields a scheduling decision depends on (a heartbeat changes none of them). */
function schedulingView(node: KubeObject | undefined): string {
  if (!node) return '';
  const spec = (node['spec'] as Record<string, unknown> | undefined) ?? {};
  const status = (node['status'] as Record<string, unknown> | undefined) ?? {};
  return JSON.stringify([node.metadata.labels, spec['taints'], spec['unschedulable'], status['allocatable']]);
}

export class Scheduler implements Controller {
  readonly name = SCHEDULER;
  private readonly retryMs: number;
  /** node -> committed requests of its assigned, non-terminal pods. */
  private readonly usage = new Map<string, NodeUsage>();
  /** pod key -> the node and usage it was counted with. */
  private readonly counted = new Map<string, { node: string; usage: NodeUsage }>();
  private readonly unschedulable = new Map<string, ReconcileKey>();

  constructor(options: SchedulerOptions = {}) {
    this.retryMs = (options.unschedulableRetryMs ?? 300_000) / (options.speed ?? 1);
  }

  keysFor(change: Change): ReconcileKey[] {
    if (change.resource === 'nodes') {
      return schedulingView(change.type === 'DELETED' ? undefined : change.object) !== schedulingView(change.old) ? [...this.unschedulable.values()] : [];
    }
    if (change.resource !== 'pods') return [];
    const pod = change.type === 'DELETED' ? undefined : change.object;
    if (!pod) this.unschedulable.delete(change.key);
    const freed = this.track(change.key, pod);
    const keys: ReconcileKey[] = freed ? [...this.unschedulable.values()] : [];
    // A parked pod comes back only if its spec changed, not for its own status writes.
    const parked = this.unschedulable.has(change.key) && JSON.stringify(change.old?.['spec']) === JSON.stringify(change.object['spec']);
    if (pod && needsScheduling(pod) && !parked) keys.push({ resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name });
    return keys;
  }

  initialKeys(ctx: ControllerContext): ReconcileKey[] {
    this.usage.clear();
    this.counted.clear();
    const keys: ReconcileKey[] = [];
    for (const pod of ctx.store.all(PODS)) {
      this.track(objectKey(pod.metadata.namespace, pod.metadata.name), pod);
      if (needsScheduling(pod)) keys.push({ resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name });
    }
    return keys;
  }

  /** Updates the cache for one pod; returns whether resources were freed on some node. */
  private track(key: string, pod: KubeObject | undefined): boolean {
    const before = this.counted.get(key);
    const node = isAssigned(pod) ? podNodeName(pod) : undefined;
    if (before && before.node === node) return false;
    if (before) {
      this.usage.set(before.node, addUsage(this.usage.get(before.node) ?? emptyUsage(), before.usage, -1));
      this.counted.delete(key);
    }
    if (pod && node) {
      const usage = podUsage(pod);
      this.usage.set(node, addUsage(this.usage.get(node) ?? emptyUsage(), usage, 1));
      this.counted.set(key, { node, usage });
    }
    return before !== undefined;
  }

  reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
    const id = objectKey(key.namespace, key.name);
    const pod = ctx.store.find(PODS, key.namespace, key.name);
    if (!pod || !needsScheduling(pod)) {
      this.unschedulable.delete(id);
      return;
    }
    const nodes = ctx.store.all(NODES);
    if (nodes.length > 0 && hasUnboundClaim(ctx.store, pod)) return this.markUnschedulable(ctx, pod, id, key, unboundClaimsMessage(nodes.length));
    const failures: FitFailure[] = [];
    let best: { node: KubeObject; score: number; pods: number } | undefined;
    for (const node of nodes) {
      const usage = this.usage.get(node.metadata.name) ?? emptyUsage();
      const failure = filterNode(pod, node, usage);
      if (failure) {
        failures.push(failure);
        continue;
      }
      const score = scoreNode(pod, node, usage);
      if (!best || score > best.score || (score === best.score && usage.pods < best.pods)) best = { node, score, pods: usage.pods };
    }
    if (best) {
      this.unschedulable.delete(id);
      this.bind(ctx, pod, best.node.metadata.name);
      return;
    }
    return this.markUnschedulable(ctx, pod, id, key, fitErrorMessage(nodes.length, failures));
  }

  /** PodScheduled=False Unschedulable with the message, a FailedScheduling Event, and a retry later. */
  private markUnschedulable(ctx: ControllerContext, pod: KubeObject, id: string, key: ReconcileKey, message: string): number {
    this.unschedulable.set(id, key);
    const status = { ...((pod['status'] as Record<string, unknown> | undefined) ?? {}) };
    if (setCondition(status, 'PodScheduled', 'False', 'Unschedulable', message, ctx.clock.now(), { updateTimeField: 'lastProbeTime' })) {
      ctx.store.update(PODS, { ...pod, status }, { subresource: 'status' });
    }
    ctx.events.record({ regarding: pod, type: 'Warning', reason: 'FailedScheduling', message, component: SCHEDULER });
    return this.retryMs;
  }

  /** What the pods/binding subresource does: spec.nodeName, then PodScheduled=True. */
  private bind(ctx: ControllerContext, pod: KubeObject, nodeName: string): void {
    const { namespace, name } = pod.metadata;
    const bound = ctx.store.update(PODS, { ...pod, spec: { ...(pod['spec'] as Record<string, unknown>), nodeName } });
    const status = { ...((bound['status'] as Record<string, unknown> | undefined) ?? {}) };
    setCondition(status, 'PodScheduled', 'True', undefined, undefined, ctx.clock.now(), { updateTimeField: 'lastProbeTime' });
    ctx.store.update(PODS, { ...bound, status }, { subresource: 'status' });
    ctx.events.record({ regarding: pod, type: 'Normal', reason: 'Scheduled', message: `Successfully assigned ${namespace}/${name} to ${nodeName}`, component: SCHEDULER });
  }
}
