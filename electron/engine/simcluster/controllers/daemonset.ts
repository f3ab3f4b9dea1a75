/**
 * daemonset-controller: one pod per eligible node, pinned by node affinity (the scheduler binds
 * it), removed from nodes it no longer fits, and rolled to a new template within
 * `maxUnavailable`. Pods carry `controller-revision-hash` and `pod-template-generation`; each
 * template is a ControllerRevision `<set>-<hash>` (controller-history.ts).
 */
import type { Change } from '../changelog.ts';
import { ApiError } from '../errors.ts';
import { ensureRevision, truncateHistory } from './controller-history.ts';
import type { KubeObject } from '../types.ts';
import { daemonNodeFit, daemonPodNode, addDaemonTolerations, pinToNode } from './daemonset-nodes.ts';
import { scaledValue } from './deployment-util.ts';
import { DAEMONSETS, NODES, PODS } from './kinds.ts';
import { isControlledBy, ownerKeysFor } from './owner.ts';
import { deletePod, isPodAvailable, isPodReady, msUntilAvailable, podFromTemplate, podPhase, type PodTemplate } from './pods.ts';
import { admitPodQuota } from './resourcequota.ts';
import { replaceStatus, type Controller, type ControllerContext, type ReconcileKey } from './runtime.ts';

const COMPONENT = 'daemonset-controller';
/** A failed sync (a refused pod create) is retried after the work queue's back-off. */
const CREATE_RETRY_MS = 1_000;
/** The template hash of the DaemonSet revision a pod was made from. */
export const DAEMONSET_HASH_LABEL = 'controller-revision-hash';
/** The DaemonSet generation a pod was made from. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

interface DaemonSetView {
  template: PodTemplate;
  /** The hash of the template's revision (its label; the pods carry it). */
  hash: string;
  /** `status.collisionCount` after finding the revision a name. */
  collisionCount: number;
  onDelete: boolean;
  maxUnavailable: number | string;
  minReadySeconds: number;
}

function view(ds: KubeObject, speed: number, revision: { hash: string; collisionCount: number }): DaemonSetView {
  const spec = (ds['spec'] as Record<string, unknown> | undefined) ?? {};
  const strategy = (spec['updateStrategy'] as { type?: string; rollingUpdate?: { maxUnavailable?: number | string } } | undefined) ?? {};
  const template = (spec['template'] as PodTemplate | undefined) ?? {};
  return {
    template,
    hash: revision.hash,
    collisionCount: revision.collisionCount,
    onDelete: strategy.type === 'OnDelete',
    maxUnavailable: strategy.rollingUpdate?.maxUnavailable ?? 1,
    minReadySeconds: Number(spec['minReadySeconds'] ?? 0) / speed,
  };
}

/** The pod spec a daemon pod gets before pinning: the template plus the daemon tolerations. */
function daemonSpec(v: DaemonSetView): Record<string, unknown> {
  const spec = structuredClone(v.template.spec ?? {});
  addDaemonTolerations(spec);
  return spec;
}

function dsKey(ds: KubeObject): ReconcileKey {
  return { resource: 'daemonsets.apps', namespace: ds.metadata.namespace, name: ds.metadata.name };
}

/** Whether a node change can change which nodes daemon pods belong on (not heartbeats). */
function placementChanged(change: Change): boolean {
  if (change.type !== 'MODIFIED' || !change.old) return true;
  const placement = (n: KubeObject) => JSON.stringify([n.metadata.labels ?? {}, (n['spec'] as { taints?: unknown } | undefined)?.taints ?? []]);
  return placement(change.object) !== placement(change.old);
}

/** Options of `createDaemonSetController`. */
export interface DaemonSetControllerOptions {
  /** Simulation speed: minReadySeconds are divided by it. Default 1. */
  speed?: number;
}

/** The daemonset-controller; wakes on DaemonSets, their pods, and node label or taint changes. */
export function createDaemonSetController(options: DaemonSetControllerOptions = {}): Controller {
  const speed = options.speed ?? 1;
  /** DaemonSets seen, so a node change can wake all of them without reading the store. */
  const known = new Map<string, ReconcileKey>();
  /** Creates the node's pod; false when the API server refused it (quota admission), recorded as FailedCreate. */
  function createPod(ds: KubeObject, v: DaemonSetView, nodeName: string, ctx: ControllerContext): boolean {
    const spec = daemonSpec(v);
    pinToNode(spec, nodeName);
    const labels = { [DAEMONSET_HASH_LABEL]: v.hash, [TEMPLATE_GENERATION_LABEL]: String(ds.metadata.generation ?? 1) };
    try {
      const created = ctx.store.create(PODS, podFromTemplate(ds, { ...v.template, spec }, { labels }), { admit: (named) => (admitPodQuota(ctx.store, named), named) });
      ctx.events.record({ regarding: ds, type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${created.metadata.name}`, component: COMPONENT });
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.events.record({ regarding: ds, type: 'Warning', reason: 'FailedCreate', message: `Error creating: ${error.message}`, component: COMPONENT });
      return false;
    }
  }

  function removePod(ds: KubeObject, pod: KubeObject, ctx: ControllerContext): void {
    if (pod.metadata.deletionTimestamp || !deletePod(ctx.store, pod)) return;
    ctx.events.record({ regarding: ds, type: 'Normal', reason: 'SuccessfulDelete', message: `Deleted pod: ${pod.metadata.name}`, component: COMPONENT });
  }

  function reconcileDaemonSet(ds: KubeObject, ctx: ControllerContext): number | undefined {
    const template = ((ds['spec'] as { template?: PodTemplate } | undefined)?.template ?? {}) as PodTemplate;
    const v = view(ds, speed, ensureRevision(ds, template, ctx, { hashLabel: DAEMONSET_HASH_LABEL, relabelOnCollision: true }));
    const now = ctx.clock.now();
    const spec = daemonSpec(v);
    const byNode = new Map<string, KubeObject[]>();
    for (const pod of ctx.store.all(PODS, ds.metadata.namespace)) {
      if (!isControlledBy(pod, ds)) continue;
      const nodeName = daemonPodNode(pod) ?? '';
      byNode.set(nodeName, [...(byNode.get(nodeName) ?? []), pod]);
    }
    const nodes = ctx.store.all(NODES);
    const eligible = new Set<string>();
    let refused = false;
    for (const node of nodes) {
      const fit = daemonNodeFit(spec, node);
      const pods = byNode.get(node.metadata.name) ?? [];
      byNode.delete(node.metadata.name);
      const failed = pods.filter((p) => podPhase(p) === 'Failed' && !p.metadata.deletionTimestamp);
      for (const pod of failed) {
        ctx.events.record({ regarding: ds, type: 'Warning', reason: 'FailedDaemonPod', message: `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${node.metadata.name}, will try to kill it`, component: COMPONENT });
        removePod(ds, pod, ctx);
      }
      const running = pods.filter((p) => !p.metadata.deletionTimestamp && podPhase(p) !== 'Failed' && podPhase(p) !== 'Succeeded');
      if (fit.shouldRun) eligible.add(node.metadata.name);
      if (fit.shouldRun && running.length === 0 && failed.length === 0 && !pods.some((p) => p.metadata.deletionTimestamp) && !createPod(ds, v, node.metadata.name, ctx)) refused = true;
      else if (!fit.shouldContinueRunning) for (const pod of running) removePod(ds, pod, ctx);
      else if (running.length > 1) {
        const keep = [...running].sort((a, b) => (a.metadata.creationTimestamp < b.metadata.creationTimestamp ? -1 : 1))[0];
        for (const pod of running) if (pod !== keep) removePod(ds, pod, ctx);
      }
    }
    // Pods pinned to nodes that no longer exist.
    for (const pods of byNode.values()) for (const pod of pods) removePod(ds, pod, ctx);
    if (!v.onDelete) rollingUpdate(ds, v, eligible, ctx);
    const wake = writeStatus(ds, v, eligible, now, ctx);
    const live = new Set([v.hash]);
    for (const pod of ctx.store.all(PODS, ds.metadata.namespace)) if (isControlledBy(pod, ds)) live.add(pod.metadata.labels?.[DAEMONSET_HASH_LABEL] ?? '');
    truncateHistory(ds, new Set([...live].map((hash) => `${ds.metadata.name}-${hash}`)), ctx);
    // A refused create fails the sync: the work queue retries it.
    return refused ? Math.min(wake ?? Infinity, CREATE_RETRY_MS) : wake;
  }

  /** Deletes old-template pods, unavailable ones first, keeping within maxUnavailable. */
  function rollingUpdate(ds: KubeObject, v: DaemonSetView, eligible: Set<string>, ctx: ControllerContext): void {
    const now = ctx.clock.now();
    const budget = Math.max(1, scaledValue(v.maxUnavailable, eligible.size, true));
    const current = new Map<string, KubeObject>();
    for (const pod of ctx.store.all(PODS, ds.metadata.namespace)) {
      const nodeName = daemonPodNode(pod);
      if (isControlledBy(pod, ds) && nodeName && eligible.has(nodeName) && !pod.metadata.deletionTimestamp) current.set(nodeName, pod);
    }
    let unavailable = 0;
    for (const nodeName of eligible) {
      const pod = current.get(nodeName);
      if (!pod || !isPodAvailable(pod, v.minReadySeconds, now)) unavailable += 1;
    }
    const old = [...current.values()].filter((p) => p.metadata.labels?.[DAEMONSET_HASH_LABEL] !== v.hash);
    for (const pod of old.filter((p) => !isPodAvailable(p, v.minReadySeconds, now))) removePod(ds, pod, ctx);
    for (const pod of old.filter((p) => isPodAvailable(p, v.minReadySeconds, now))) {
      if (unavailable >= budget) break;
      removePod(ds, pod, ctx);
      unavailable += 1;
    }
  }

  function writeStatus(ds: KubeObject, v: DaemonSetView, eligible: Set<string>, now: number, ctx: ControllerContext): number | undefined {
    const nodesWithPods = new Map<string, KubeObject[]>();
    for (const pod of ctx.store.all(PODS, ds.metadata.namespace)) {
      const nodeName = daemonPodNode(pod);
      if (!nodeName || !isControlledBy(pod, ds) || pod.metadata.deletionTimestamp) continue;
      nodesWithPods.set(nodeName, [...(nodesWithPods.get(nodeName) ?? []), pod]);
    }
    let current = 0;
    let misscheduled = 0;
    let ready = 0;
    let available = 0;
    let updated = 0;
    let wake: number | undefined;
    for (const [nodeName, pods] of nodesWithPods) {
      if (!eligible.has(nodeName)) {
        misscheduled += 1;
        continue;
      }
      current += 1;
      const pod = pods[0] as KubeObject;
      if (pod.metadata.labels?.[DAEMONSET_HASH_LABEL] === v.hash) updated += 1;
      if (isPodReady(pod)) {
        ready += 1;
        if (isPodAvailable(pod, v.minReadySeconds, now)) available += 1;
        const until = msUntilAvailable(pod, v.minReadySeconds, now);
        if (until !== undefined) wake = Math.min(wake ?? until, until);
      }
    }
    const status: Record<string, unknown> = {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: eligible.size,
      numberReady: ready,
      observedGeneration: ds.metadata.generation,
    };
    if (updated) status['updatedNumberScheduled'] = updated;
    if (available) status['numberAvailable'] = available;
    if (eligible.size - available > 0) status['numberUnavailable'] = eligible.size - available;
    // A pointer upstream: absent until the first collision, then kept.
    if (v.collisionCount > 0 || (ds['status'] as { collisionCount?: number } | undefined)?.collisionCount !== undefined) status['collisionCount'] = v.collisionCount;
    replaceStatus(ctx.store, DAEMONSETS, ds, status);
    return wake;
  }

  return {
    name: COMPONENT,
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource === 'daemonsets.apps') {
        const key = dsKey(change.object);
        if (change.type === 'DELETED') known.delete(`${key.namespace}/${key.name}`);
        else known.set(`${key.namespace}/${key.name}`, key);
        return [key];
      }
      if (change.resource === 'nodes') return placementChanged(change) ? [...known.values()] : [];
      if (change.resource === 'pods') return ownerKeysFor(change, 'DaemonSet', 'daemonsets.apps');
      return [];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      const keys = ctx.store.all(DAEMONSETS).map(dsKey);
      for (const key of keys) known.set(`${key.namespace}/${key.name}`, key);
      return keys;
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
      const ds = ctx.store.find(DAEMONSETS, key.namespace, key.name);
      if (!ds || ds.metadata.deletionTimestamp) return;
      return reconcileDaemonSet(ds, ctx);
    },
  };
}
