/**
 * Node life cycle: the kubelet's side (registration, node status, a heartbeat every
 * `heartbeatIntervalMs`) and node-lifecycle-controller's (a node silent for the grace period
 * goes Unknown/NotReady and gets the unreachable taints; its pods are marked not ready), plus
 * the taint-eviction-controller deleting pods once their NoExecute toleration runs out.
 * Heartbeats stop when a Node carries `simcluster.kubedrift.dev/heartbeat: stopped`
 * (see `setNodeReady`).
 */
import type { Change } from '../changelog.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { getCondition, setCondition, type Condition } from './conditions.ts';
import { NODES, PODS } from './kinds.ts';
import { desiredTaints, healthyConditions, registeredStatus, unknownConditions, UNREACHABLE_TAINT, type NodeShape } from './node-status.ts';
import { HEARTBEAT_ANNOTATION, isKubeletRunning, nodePodCIDR } from './nodes.ts';
import { deletePod, isPodTerminal, podNodeName } from './pods.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';
import { podTolerations, tolerates } from './scheduler-fit.ts';
import { DEFAULT_KUBERNETES_VERSION, minorOf } from './version.ts';

export const NODE_CONTROLLER = 'node-controller';

export interface NodeLifecycleOptions {
  /** Divides the intervals below and pods' tolerationSeconds. Default 1. */
  speed?: number;
  /** How often kubelet refreshes the conditions' lastHeartbeatTime. Default 40000. */
  heartbeatIntervalMs?: number;
  /** node-monitor-grace-period: silence before a node goes Unknown. Default 40000. */
  gracePeriodMs?: number;
  /** Reported as nodeInfo.kubeletVersion; picks version-specific component names. */
  kubernetesVersion?: string;
  /** Capacity of nodes created without one. Default cpu 4, memory 16Gi, pods 110. */
  defaultCapacity?: Record<string, string>;
}

const DEFAULT_CAPACITY = { cpu: '4', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16Gi', pods: '110' };

/** Starts or stops a node's simulated kubelet (its heartbeats and pod handling). */
export function setNodeReady(store: ObjectStore, name: string, ready: boolean): KubeObject {
  return store.mutate(NODES, undefined, name, (copy) => {
    const annotations = { ...(copy.metadata.annotations ?? {}) };
    if (ready) delete annotations[HEARTBEAT_ANNOTATION];
    else annotations[HEARTBEAT_ANNOTATION] = 'stopped';
    copy.metadata.annotations = annotations;
  });
}

export class NodeLifecycleController implements Controller {
  readonly name = NODE_CONTROLLER;
  private readonly speed: number;
  private readonly heartbeatMs: number;
  private readonly graceMs: number;
  private readonly version: string;
  private readonly minor: number;
  private readonly capacity: Record<string, string>;
  private store: ObjectStore | undefined;

  constructor(options: NodeLifecycleOptions = {}) {
    this.speed = options.speed ?? 1;
    this.heartbeatMs = (options.heartbeatIntervalMs ?? 40_000) / this.speed;
    this.graceMs = (options.gracePeriodMs ?? 40_000) / this.speed;
    this.version = options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
    this.minor = minorOf(this.version);
    this.capacity = options.defaultCapacity ?? DEFAULT_CAPACITY;
  }

  /** Fault injection: stop (false) or restart (true) a node's kubelet. Needs a started manager. */
  setNodeReady(name: string, ready: boolean): void {
    if (!this.store) throw new Error('node-controller is not running');
    setNodeReady(this.store, name, ready);
  }

  keysFor(change: Change): ReconcileKey[] {
    if (change.resource === 'nodes') return [{ resource: 'nodes', name: change.object.metadata.name }];
    if (change.resource === 'pods' && change.type === 'ADDED' && podNodeName(change.object)) {
      return [{ resource: 'nodes', name: podNodeName(change.object) ?? '' }];
    }
    return [];
  }

  initialKeys(ctx: ControllerContext): ReconcileKey[] {
    this.store = ctx.store;
    return ctx.store.all(NODES).map((n) => ({ resource: 'nodes', name: n.metadata.name }));
  }

  reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
    let node = ctx.store.find(NODES, undefined, key.name);
    if (!node) return;
    const now = ctx.clock.now();
    if (!nodePodCIDR(node)) node = this.assignCIDR(ctx, node);
    const running = isKubeletRunning(node);
    const wakes: number[] = [];
    const before = (node['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? [];
    const wasReady = getCondition(node['status'], 'Ready');
    const status = registeredStatus(node, this.shape(node));
    if (running) {
      const last = Date.parse(wasReady?.lastHeartbeatTime ?? '');
      const due = !Number.isFinite(last) || now - last >= this.heartbeatMs;
      status['conditions'] = healthyConditions(before, now, due);
      wakes.push(due ? this.heartbeatMs : last + this.heartbeatMs - now);
    } else if (wasReady && wasReady.status !== 'Unknown') {
      const silentSince = Date.parse(wasReady.lastHeartbeatTime ?? '') || now;
      if (now - silentSince >= this.graceMs) status['conditions'] = unknownConditions(before, now);
      else wakes.push(silentSince + this.graceMs - now);
    }
    if (JSON.stringify(status) !== JSON.stringify(node['status'] ?? {})) {
      node = ctx.store.update(NODES, { ...node, status }, { subresource: 'status' });
    }
    this.recordTransition(ctx, node, wasReady);
    const unreachable = getCondition(node['status'], 'Ready')?.status === 'Unknown';
    const taints = desiredTaints(node, { unreachable, now });
    if (JSON.stringify(taints) !== JSON.stringify((node['spec'] as { taints?: unknown[] } | undefined)?.taints ?? [])) {
      node = ctx.store.mutate(NODES, undefined, node.metadata.name, (copy) => {
        const spec = (copy['spec'] as Record<string, unknown> | undefined) ?? {};
        if (taints.length > 0) spec['taints'] = taints;
        else delete spec['taints'];
        copy['spec'] = spec;
      });
    }
    if (unreachable) {
      const next = this.evict(ctx, node, now);
      if (next !== undefined) wakes.push(next);
    }
    return wakes.length > 0 ? Math.max(1, Math.min(...wakes)) : undefined;
  }

  private shape(node: KubeObject): NodeShape {
    const index = Number(/^\d+\.\d+\.(\d+)\./.exec(nodePodCIDR(node) ?? '')?.[1] ?? 0);
    return { kubeletVersion: this.version, minor: this.minor, capacity: this.capacity, index };
  }

  /** nodeipam: the lowest free 10.244.N.0/24. */
  private assignCIDR(ctx: ControllerContext, node: KubeObject): KubeObject {
    const taken = new Set(ctx.store.all(NODES).map((n) => nodePodCIDR(n)));
    let index = 0;
    while (taken.has(`10.244.${index}.0/24`)) index += 1;
    const cidr = `10.244.${index}.0/24`;
    return ctx.store.mutate(NODES, undefined, node.metadata.name, (copy) => {
      copy['spec'] = { ...((copy['spec'] as Record<string, unknown> | undefined) ?? {}), podCIDR: cidr, podCIDRs: [cidr] };
    });
  }

  private recordTransition(ctx: ControllerContext, node: KubeObject, before: Condition | undefined): void {
    const after = getCondition(node['status'], 'Ready');
    if (after?.status === before?.status) return;
    const name = node.metadata.name;
    const kubelet = (reason: string, message: string): void => {
      ctx.events.record({ regarding: node, type: 'Normal', reason, message, component: 'kubelet', host: name });
    };
    if (!before) {
      kubelet('Starting', 'Starting kubelet.');
      for (const reason of ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']) kubelet(reason, `Node ${name} status is now: ${reason}`);
      kubelet('NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
      ctx.events.record({ regarding: node, type: 'Normal', reason: 'RegisteredNode', message: `Node ${name} event: Registered Node ${name} in Controller`, component: NODE_CONTROLLER });
    }
    if (after?.status === 'True') kubelet('NodeReady', `Node ${name} status is now: NodeReady`);
    if (after?.status === 'Unknown') {
      ctx.events.record({ regarding: node, type: 'Normal', reason: 'NodeNotReady', message: `Node ${name} status is now: NodeNotReady`, component: NODE_CONTROLLER });
      this.markPodsNotReady(ctx, name);
    }
  }

  /** MarkPodsNotReady: the pods of a lost node stop counting as Ready. */
  private markPodsNotReady(ctx: ControllerContext, nodeName: string): void {
    const now = ctx.clock.now();
    for (const pod of ctx.store.all(PODS)) {
      if (podNodeName(pod) !== nodeName || isPodTerminal(pod)) continue;
      if (getCondition(pod['status'], 'Ready')?.status !== 'True') continue;
      ctx.store.mutate(PODS, pod.metadata.namespace, pod.metadata.name, (copy) => {
        const status = (copy['status'] as Record<string, unknown> | undefined) ?? {};
        setCondition(status, 'Ready', 'False', undefined, undefined, now, { updateTimeField: 'lastProbeTime' });
        copy['status'] = status;
      }, { subresource: 'status' });
      ctx.events.record({ regarding: pod, type: 'Warning', reason: 'NodeNotReady', message: 'Node is not ready', component: NODE_CONTROLLER });
    }
  }

  /**
   * The taint eviction controller for the unreachable NoExecute taint: pods that do not
   * tolerate it go now, the rest when their smallest tolerationSeconds ends. Returns the ms
   * until the next eviction, if one is pending.
   */
  private evict(ctx: ControllerContext, node: KubeObject, now: number): number | undefined {
    const taint = ((node['spec'] as { taints?: Array<{ key: string; effect: string; timeAdded?: string }> }).taints ?? []).find((t) => t.key === UNREACHABLE_TAINT && t.effect === 'NoExecute');
    if (!taint) return undefined;
    const since = Date.parse(taint.timeAdded ?? '') || now;
    const component = this.minor >= 29 ? 'taint-eviction-controller' : 'taint-controller';
    let next: number | undefined;
    for (const pod of ctx.store.all(PODS)) {
      if (podNodeName(pod) !== node.metadata.name || pod.metadata.deletionTimestamp || isPodTerminal(pod)) continue;
      const matching = podTolerations(pod).filter((t) => tolerates(t, taint));
      const seconds = matching.map((t) => t.tolerationSeconds).filter((s): s is number => typeof s === 'number');
      if (matching.length > 0 && seconds.length === 0) continue;
      const evictAt = matching.length === 0 ? since : since + (Math.max(0, Math.min(...seconds)) * 1000) / this.speed;
      if (evictAt > now) {
        next = Math.min(next ?? Infinity, evictAt - now);
        continue;
      }
      const { namespace, name } = pod.metadata;
      ctx.events.record({ regarding: pod, type: 'Normal', reason: 'TaintManagerEviction', message: `Marking for deletion Pod ${namespace}/${name}`, component });
      ctx.store.mutate(PODS, namespace, name, (copy) => {
        const status = (copy['status'] as Record<string, unknown> | undefined) ?? {};
        setCondition(status, 'DisruptionTarget', 'True', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint', now, { updateTimeField: 'lastProbeTime' });
        copy['status'] = status;
      }, { subresource: 'status' });
      deletePod(ctx.store, ctx.store.get(PODS, namespace, name));
    }
    return next;
  }
}
