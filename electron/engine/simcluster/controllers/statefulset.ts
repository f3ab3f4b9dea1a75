/**
 * statefulset-controller: pods `<set>-<ordinal>` with stable identity (hostname, subdomain,
 * claim volumes), created in order and only after the previous one is Running and Ready
 * (OrderedReady) or all at once (Parallel), removed from the highest ordinal down, and rolled
 * to a new revision from the highest ordinal down to `partition`, one pod at a time.
 * Each template is a ControllerRevision (controller-history.ts); status and the pods'
 * `controller-revision-hash` name it.
 */
import type { Change } from '../changelog.ts';
import { ApiError } from '../errors.ts';
import { fromLabelSelectorObject, matchesLabels } from '../selectors.ts';
import type { KubeObject } from '../types.ts';
import { CONTROLLER_HASH_LABEL, ensureRevision, revisionTemplate, truncateHistory } from './controller-history.ts';
import { CONTROLLER_REVISIONS, PODS, STATEFULSETS } from './kinds.ts';
import { controllerRef, isControlledBy, ownerKeysFor, withControllerRef } from './owner.ts';
import { deletePod, isPodAvailable, isPodReady, msUntilAvailable, podFromTemplate, podPhase, type PodTemplate } from './pods.ts';
import { admitPodQuota } from './resourcequota.ts';
import { replaceStatus, type Controller, type ControllerContext, type ReconcileKey } from './runtime.ts';

const COMPONENT = 'statefulset-controller';
/** A failed sync (a refused pod create) is retried after the work queue's back-off. */
const CREATE_RETRY_MS = 1_000;
/** The label giving each pod its stable network identity. */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** The pod's ordinal as a label (1.28+). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** The pod's revision: the StatefulSet revision name (`web-7b9c8f6d4f`). */
export const REVISION_LABEL = 'controller-revision-hash';

interface StatefulSetView {
  replicas: number;
  ordinalStart: number;
  parallel: boolean;
  onDelete: boolean;
  partition: number;
  minReadySeconds: number;
  serviceName: string | undefined;
  template: PodTemplate;
  claimNames: string[];
}

function view(sts: KubeObject, speed: number): StatefulSetView {
  const spec = (sts['spec'] as Record<string, unknown> | undefined) ?? {};
  const strategy = (spec['updateStrategy'] as { type?: string; rollingUpdate?: { partition?: number } } | undefined) ?? {};
  const claims = (spec['volumeClaimTemplates'] as Array<{ metadata?: { name?: string } }> | undefined) ?? [];
  return {
    replicas: typeof spec['replicas'] === 'number' ? spec['replicas'] : 1,
    ordinalStart: Number((spec['ordinals'] as { start?: number } | undefined)?.start ?? 0),
    parallel: spec['podManagementPolicy'] === 'Parallel',
    onDelete: strategy.type === 'OnDelete',
    partition: Number(strategy.rollingUpdate?.partition ?? 0),
    minReadySeconds: Number(spec['minReadySeconds'] ?? 0) / speed,
    serviceName: typeof spec['serviceName'] === 'string' && spec['serviceName'] !== '' ? spec['serviceName'] : undefined,
    template: (spec['template'] as PodTemplate | undefined) ?? {},
    claimNames: claims.map((c) => c.metadata?.name ?? '').filter((n) => n !== ''),
  };
}

function ordinalOf(sts: KubeObject, pod: KubeObject): number | undefined {
  const prefix = `${sts.metadata.name}-`;
  const rest = pod.metadata.name.startsWith(prefix) ? pod.metadata.name.slice(prefix.length) : '';
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
}

function revisionOf(pod: KubeObject): string {
  return pod.metadata.labels?.[REVISION_LABEL] ?? '';
}

/** isRunningAndAvailable: what OrderedReady waits for before touching the next ordinal. */
function healthy(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  return podPhase(pod) === 'Running' && pod.metadata.deletionTimestamp === undefined && isPodAvailable(pod, minReadySeconds, now);
}

function terminal(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase === 'Failed' || phase === 'Succeeded';
}

/** Options of `createStatefulSetController`. */
export interface StatefulSetControllerOptions {
  /** Simulation speed: minReadySeconds are divided by it. Default 1. */
  speed?: number;
}

/** The statefulset-controller; reconciles StatefulSets and wakes on their pods' changes. */
export function createStatefulSetController(options: StatefulSetControllerOptions = {}): Controller {
  const speed = options.speed ?? 1;
  /** Per set (`ns/name`), the templates of revisions seen: pods below `partition` are recreated at their old revision. */
  const templates = new Map<string, Map<string, PodTemplate>>();

  function podsOf(sts: KubeObject, ctx: ControllerContext): KubeObject[] {
    const selector = fromLabelSelectorObject((sts['spec'] as { selector?: Parameters<typeof fromLabelSelectorObject>[0] } | undefined)?.selector);
    const out: KubeObject[] = [];
    for (const pod of ctx.store.all(PODS, sts.metadata.namespace)) {
      if (isControlledBy(pod, sts)) out.push(pod);
      else if (selector.length > 0 && !controllerRef(pod) && !pod.metadata.deletionTimestamp && ordinalOf(sts, pod) !== undefined && matchesLabels(selector, pod.metadata.labels)) {
        out.push(ctx.store.update(PODS, withControllerRef(pod, sts)));
      }
    }
    return out;
  }

  /** Creates one pod; false when the API server refused it (quota admission), recorded as FailedCreate. */
  function createPod(sts: KubeObject, v: StatefulSetView, ordinal: number, revision: string, template: PodTemplate, ctx: ControllerContext): boolean {
    const name = `${sts.metadata.name}-${ordinal}`;
    const withClaims = structuredClone(template);
    if (v.claimNames.length > 0) {
      const spec = (withClaims.spec ??= {});
      const existing = ((spec['volumes'] as Array<{ name: string }> | undefined) ?? []).filter((vol) => !v.claimNames.includes(vol.name));
      spec['volumes'] = [...v.claimNames.map((claim) => ({ name: claim, persistentVolumeClaim: { claimName: `${claim}-${name}` } })), ...existing];
    }
    const pod = podFromTemplate(sts, withClaims, { name, labels: { [REVISION_LABEL]: revision, [POD_INDEX_LABEL]: String(ordinal), [POD_NAME_LABEL]: name } });
    const spec = pod['spec'] as Record<string, unknown>;
    spec['hostname'] = name;
    if (v.serviceName) spec['subdomain'] = v.serviceName;
    try {
      ctx.store.create(PODS, pod, { admit: (named) => (admitPodQuota(ctx.store, named), named) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.events.record({ regarding: sts, type: 'Warning', reason: 'FailedCreate', message: `create Pod ${name} in StatefulSet ${sts.metadata.name} failed error: ${error.message}`, component: COMPONENT });
      return false;
    }
    ctx.events.record({ regarding: sts, type: 'Normal', reason: 'SuccessfulCreate', message: `create Pod ${name} in StatefulSet ${sts.metadata.name} successful`, component: COMPONENT });
    return true;
  }

  function removePod(sts: KubeObject, pod: KubeObject, ctx: ControllerContext): void {
    if (!deletePod(ctx.store, pod)) return;
    ctx.events.record({ regarding: sts, type: 'Normal', reason: 'SuccessfulDelete', message: `delete Pod ${pod.metadata.name} in StatefulSet ${sts.metadata.name} successful`, component: COMPONENT });
  }

  /** One pass of upstream's updateStatefulSet: create, replace failed, scale down, roll. */
  /** Returns false when a pod create was refused (the sync stops there, as upstream's does on an error). */
  function syncPods(sts: KubeObject, v: StatefulSetView, pods: KubeObject[], revisions: { current: string; update: string }, ctx: ControllerContext): boolean {
    const now = ctx.clock.now();
    const monotonic = !v.parallel;
    const slots: Array<KubeObject | undefined> = new Array<KubeObject | undefined>(v.replicas).fill(undefined);
    const condemned: KubeObject[] = [];
    for (const pod of pods) {
      const ordinal = ordinalOf(sts, pod);
      if (ordinal === undefined) continue;
      if (ordinal >= v.ordinalStart && ordinal < v.ordinalStart + v.replicas) slots[ordinal - v.ordinalStart] = pod;
      else condemned.push(pod);
    }
    condemned.sort((a, b) => (ordinalOf(sts, b) ?? 0) - (ordinalOf(sts, a) ?? 0));
    // A revision made before this controller started (or by an earlier one) has its template in its data.
    const stored = () => {
      const revision = ctx.store.find(CONTROLLER_REVISIONS, sts.metadata.namespace, revisions.current);
      return revision && isControlledBy(revision, sts) ? revisionTemplate(revision) : undefined;
    };
    const currentTemplate = templates.get(`${sts.metadata.namespace}/${sts.metadata.name}`)?.get(revisions.current) ?? stored();

    for (let i = 0; i < slots.length; i += 1) {
      const pod = slots[i];
      const ordinal = v.ordinalStart + i;
      if (!pod) {
        const old = !v.onDelete && i < v.partition && currentTemplate !== undefined;
        if (!createPod(sts, v, ordinal, old ? revisions.current : revisions.update, old ? currentTemplate : v.template, ctx)) return false;
        if (monotonic) return true;
        continue;
      }
      if (terminal(pod) && !pod.metadata.deletionTimestamp) {
        const phase = podPhase(pod);
        ctx.events.record({
          regarding: sts,
          type: 'Warning',
          reason: phase === 'Failed' ? 'RecreatingFailedPod' : 'RecreatingTerminatedPod',
          message: `StatefulSet ${sts.metadata.namespace}/${sts.metadata.name} is recreating ${phase === 'Failed' ? 'failed' : 'terminated'} Pod ${pod.metadata.name}`,
          component: COMPONENT,
        });
        removePod(sts, pod, ctx);
        if (monotonic) return true;
        continue;
      }
      if (monotonic && !healthy(pod, v.minReadySeconds, now)) return true;
    }

    const firstUnhealthy = [...slots, ...condemned].find((p) => p && !healthy(p, v.minReadySeconds, now));
    for (const pod of condemned) {
      if (pod.metadata.deletionTimestamp) {
        if (monotonic) return true;
        continue;
      }
      if (monotonic && firstUnhealthy && firstUnhealthy !== pod) return true;
      removePod(sts, pod, ctx);
      if (monotonic) return true;
    }

    if (v.onDelete) return true;
    for (let i = slots.length - 1; i >= v.partition; i -= 1) {
      const pod = slots[i];
      if (!pod) continue;
      if (revisionOf(pod) !== revisions.update && !pod.metadata.deletionTimestamp) {
        removePod(sts, pod, ctx);
        return true;
      }
      if (!healthy(pod, v.minReadySeconds, now)) return true;
    }
    return true;
  }

  function writeStatus(sts: KubeObject, v: StatefulSetView, pods: KubeObject[], revisions: { current: string; update: string; collisionCount: number }, ctx: ControllerContext): number | undefined {
    const now = ctx.clock.now();
    let replicas = 0;
    let ready = 0;
    let available = 0;
    let current = 0;
    let updated = 0;
    let wake: number | undefined;
    for (const pod of pods) {
      replicas += 1;
      if (podPhase(pod) === 'Running' && isPodReady(pod)) {
        ready += 1;
        if (isPodAvailable(pod, v.minReadySeconds, now)) available += 1;
        const until = msUntilAvailable(pod, v.minReadySeconds, now);
        if (until !== undefined) wake = Math.min(wake ?? until, until);
      }
      if (!pod.metadata.deletionTimestamp) {
        if (revisionOf(pod) === revisions.current) current += 1;
        if (revisionOf(pod) === revisions.update) updated += 1;
      }
    }
    let currentRevision = revisions.current;
    if (updated === replicas && ready === replicas) {
      currentRevision = revisions.update;
      current = updated;
    }
    const status: Record<string, unknown> = { observedGeneration: sts.metadata.generation, replicas };
    if (ready) status['readyReplicas'] = ready;
    if (current) status['currentReplicas'] = current;
    if (updated) status['updatedReplicas'] = updated;
    status['currentRevision'] = currentRevision;
    status['updateRevision'] = revisions.update;
    status['collisionCount'] = revisions.collisionCount;
    status['availableReplicas'] = available;
    replaceStatus(ctx.store, STATEFULSETS, sts, status);
    return wake;
  }

  return {
    name: COMPONENT,
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource === 'statefulsets.apps') return [{ resource: change.resource, namespace: change.object.metadata.namespace, name: change.object.metadata.name }];
      if (change.resource === 'pods') return ownerKeysFor(change, 'StatefulSet', 'statefulsets.apps');
      return [];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      return ctx.store.all(STATEFULSETS).map((s) => ({ resource: 'statefulsets.apps', namespace: s.metadata.namespace, name: s.metadata.name }));
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
      const sts = ctx.store.find(STATEFULSETS, key.namespace, key.name);
      const id = `${key.namespace}/${key.name}`;
      if (!sts) {
        templates.delete(id);
        return;
      }
      if (sts.metadata.deletionTimestamp) return;
      const v = view(sts, speed);
      const { name: update, collisionCount } = ensureRevision(sts, v.template, ctx, { hashLabel: CONTROLLER_HASH_LABEL, relabelOnCollision: false });
      const known = templates.get(id) ?? new Map<string, PodTemplate>();
      known.set(update, v.template);
      templates.set(id, known);
      const previous = (sts['status'] as { currentRevision?: string } | undefined)?.currentRevision;
      const revisions = { current: previous || update, update, collisionCount };
      const synced = syncPods(sts, v, podsOf(sts, ctx), revisions, ctx);
      const latest = ctx.store.find(STATEFULSETS, key.namespace, key.name);
      if (!latest) return;
      const pods = ctx.store.all(PODS, key.namespace).filter((p) => isControlledBy(p, latest));
      const wake = writeStatus(latest, v, pods, revisions, ctx);
      const current = (ctx.store.find(STATEFULSETS, key.namespace, key.name)?.['status'] as { currentRevision?: string } | undefined)?.currentRevision ?? revisions.current;
      truncateHistory(latest, new Set([current, update, ...pods.map(revisionOf)]), ctx);
      // A refused create fails the sync: the work queue retries it.
      return synced ? wake : Math.min(wake ?? Infinity, CREATE_RETRY_MS);
    },
  };
}
