/**
 * replicaset-controller: keeps `spec.replicas` active pods named `<replicaset>-<5 chars>`,
 * adopting matching orphans and releasing pods that stop matching, deleting the least
 * valuable pods first (upstream's ActivePodsWithRanks order), and reporting
 * replicas/fullyLabeled/ready/available counts. A create the API server refuses (quota
 * admission) stops the batch, records a FailedCreate Event ("Error creating: ...") and sets
 * ReplicaFailure=True FailedCreate with the refusal, until a later create succeeds.
 */
import type { Change } from '../changelog.ts';
import { ApiError } from '../errors.ts';
import { fromLabelSelectorObject, matchesLabels } from '../selectors.ts';
import type { KubeObject } from '../types.ts';
import { getCondition, setCondition, type Condition } from './conditions.ts';
import { rsSpecReplicas } from './deployment-util.ts';
import { PODS, REPLICASETS } from './kinds.ts';
import { OwnerIndex } from './owner-index.ts';
import { controllerRef, newControllerRef, ownerKeysFor } from './owner.ts';
import { deletePod, isPodActive, isPodAvailable, isPodReady, msUntilAvailable, podFromTemplate, podNodeName, podPhase, type PodTemplate } from './pods.ts';
import { admitPodQuota } from './resourcequota.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';

const RS_ID = 'replicasets.apps';
export const REPLICASET_CONTROLLER = 'replicaset-controller';

export interface ReplicaSetControllerOptions {
  /** minReadySeconds are divided by this (demo speed). Default 1. */
  speed?: number;
  /** Most pods created or deleted in one reconcile (upstream's burstReplicas). Default 500. */
  burstReplicas?: number;
}

export class ReplicaSetController implements Controller {
  readonly name = REPLICASET_CONTROLLER;
  private readonly speed: number;
  private readonly burst: number;
  private readonly pods = new OwnerIndex(PODS);
  /** Per ReplicaSet uid: failed syncs in a row, for the work queue's exponential retry. */
  private readonly failures = new Map<string, number>();

  constructor(options: ReplicaSetControllerOptions = {}) {
    this.speed = options.speed ?? 1;
    this.burst = options.burstReplicas ?? 500;
  }

  keysFor(change: Change): ReconcileKey[] {
    this.pods.observe(change);
    if (change.resource === RS_ID) return [{ resource: RS_ID, namespace: change.object.metadata.namespace, name: change.object.metadata.name }];
    if (change.resource === 'pods') return ownerKeysFor(change, 'ReplicaSet', RS_ID);
    return [];
  }

  initialKeys(ctx: ControllerContext): ReconcileKey[] {
    this.pods.rebuild(ctx.store);
    return ctx.store.all(REPLICASETS).map((rs) => ({ resource: RS_ID, namespace: rs.metadata.namespace, name: rs.metadata.name }));
  }

  reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
    const rs = ctx.store.find(REPLICASETS, key.namespace, key.name);
    if (!rs) return;
    const pods = claimPods(ctx, rs, this.pods).filter(isPodActive);
    const refused = rs.metadata.deletionTimestamp ? undefined : this.manageReplicas(ctx, rs, pods);
    const current = this.pods.controlledBy(ctx.store, rs.metadata.uid).filter(isPodActive);
    const wait = this.updateStatus(ctx, ctx.store.find(REPLICASETS, key.namespace, key.name) ?? rs, current, refused);
    if (!refused) {
      this.failures.delete(rs.metadata.uid);
      return wait;
    }
    // The sync failed: the work queue retries with its exponential back-off (5ms doubling, at most 1000s).
    const failures = (this.failures.get(rs.metadata.uid) ?? 0) + 1;
    this.failures.set(rs.metadata.uid, failures);
    const retry = Math.min(RETRY_BASE_MS * 2 ** (failures - 1), RETRY_MAX_MS);
    return wait === undefined ? retry : Math.min(wait, retry);
  }

  /** Creates or deletes pods toward spec.replicas; returns the API server's refusal of a create, if any. */
  private manageReplicas(ctx: ControllerContext, rs: KubeObject, pods: KubeObject[]): ApiError | undefined {
    const diff = pods.length - rsSpecReplicas(rs);
    const record = (reason: string, message: string): void => {
      ctx.events.record({ regarding: rs, type: 'Normal', reason, message, component: REPLICASET_CONTROLLER });
    };
    if (diff < 0) {
      const template = ((rs['spec'] as { template?: PodTemplate }).template) ?? {};
      for (let i = 0; i < Math.min(-diff, this.burst); i += 1) {
        try {
          const pod = ctx.store.create(PODS, podFromTemplate(rs, template), { admit: (created) => (admitPodQuota(ctx.store, created), created) });
          record('SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          // slowStartBatch stops at the first error; the pod control records it as a Warning.
          ctx.events.record({ regarding: rs, type: 'Warning', reason: 'FailedCreate', message: `Error creating: ${error.message}`, component: REPLICASET_CONTROLLER });
          return error;
        }
      }
    } else if (diff > 0) {
      for (const pod of podsToDelete(pods, Math.min(diff, this.burst))) {
        if (deletePod(ctx.store, pod)) record('SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      }
    }
    return undefined;
  }

  private updateStatus(ctx: ControllerContext, rs: KubeObject, pods: KubeObject[], refused: ApiError | undefined): number | void {
    const spec = (rs['spec'] as { minReadySeconds?: number; template?: PodTemplate }) ?? {};
    const minReady = Number(spec.minReadySeconds ?? 0) / this.speed;
    const now = ctx.clock.now();
    const templateLabels = spec.template?.metadata?.labels ?? {};
    const fullyLabeled = pods.filter((pod) => Object.entries(templateLabels).every(([k, v]) => pod.metadata.labels?.[k] === v)).length;
    const ready = pods.filter(isPodReady).length;
    const available = pods.filter((pod) => isPodAvailable(pod, minReady, now)).length;
    const status: Record<string, unknown> = { replicas: pods.length };
    if (fullyLabeled) status['fullyLabeledReplicas'] = fullyLabeled;
    if (ready) status['readyReplicas'] = ready;
    if (available) status['availableReplicas'] = available;
    if (rs.metadata.generation) status['observedGeneration'] = rs.metadata.generation;
    const conditions = replicaFailure(rs, refused, now);
    if (conditions.length > 0) status['conditions'] = conditions;
    if (JSON.stringify(status) !== JSON.stringify(rs['status'] ?? {})) ctx.store.update(REPLICASETS, { ...rs, status }, { subresource: 'status' });
    if (ready === available) return;
    const waits = pods.map((pod) => msUntilAvailable(pod, minReady, now)).filter((ms): ms is number => ms !== undefined);
    return waits.length > 0 ? Math.min(...waits) : undefined;
  }
}

/** Work-queue retry of a failed sync: client-go's default per-item exponential back-off. */
const RETRY_BASE_MS = 5;
const RETRY_MAX_MS = 1_000_000;

/**
 * calculateStatus's ReplicaFailure: set (True, FailedCreate, the refusal) when a create failed
 * and none is shown yet, removed once a sync succeeds; other conditions are kept.
 */
function replicaFailure(rs: KubeObject, refused: ApiError | undefined, now: number): Condition[] {
  const holder: Record<string, unknown> = { conditions: [...((rs['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? [])] };
  const shown = getCondition(holder, 'ReplicaFailure');
  if (refused && !shown) setCondition(holder, 'ReplicaFailure', 'True', 'FailedCreate', refused.message, now);
  else if (!refused && shown) holder['conditions'] = (holder['conditions'] as Condition[]).filter((c) => c.type !== 'ReplicaFailure');
  return holder['conditions'] as Condition[];
}

/** ClaimPods: owned pods still matching, plus adopted matching orphans; releases the rest. */
function claimPods(ctx: ControllerContext, rs: KubeObject, index: OwnerIndex): KubeObject[] {
  const selector = fromLabelSelectorObject((rs['spec'] as { selector?: Parameters<typeof fromLabelSelectorObject>[0] }).selector);
  if (selector.length === 0) return [];
  const out: KubeObject[] = [];
  for (const pod of [...index.controlledBy(ctx.store, rs.metadata.uid), ...index.orphansIn(ctx.store, rs.metadata.namespace)]) {
    const ref = controllerRef(pod);
    const matches = matchesLabels(selector, pod.metadata.labels);
    if (ref) {
      if (ref.uid !== rs.metadata.uid) continue;
      if (matches) out.push(pod);
      else if (!rs.metadata.deletionTimestamp) releasePod(ctx, pod, rs);
      continue;
    }
    if (!matches || rs.metadata.deletionTimestamp || pod.metadata.deletionTimestamp || !isPodActive(pod)) continue;
    out.push(
      ctx.store.mutate(PODS, pod.metadata.namespace, pod.metadata.name, (copy) => {
        copy.metadata.ownerReferences = [...(copy.metadata.ownerReferences ?? []), newControllerRef(rs)];
      }),
    );
  }
  return out;
}

function releasePod(ctx: ControllerContext, pod: KubeObject, rs: KubeObject): void {
  ctx.store.mutate(PODS, pod.metadata.namespace, pod.metadata.name, (copy) => {
    const refs = (copy.metadata.ownerReferences ?? []).filter((r) => r.uid !== rs.metadata.uid);
    if (refs.length > 0) copy.metadata.ownerReferences = refs;
    else delete copy.metadata.ownerReferences;
  });
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * The `count` pods to delete first, by upstream's ranking: unscheduled, then pending, then
 * not ready, then more pods of this set on the same node, then ready for less time, then more
 * restarts, then newer.
 */
export function podsToDelete(pods: KubeObject[], count: number): KubeObject[] {
  const perNode = new Map<string, number>();
  for (const pod of pods) {
    const node = podNodeName(pod);
    if (node) perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const restarts = (pod: KubeObject): number =>
    ((pod['status'] as { containerStatuses?: Array<{ restartCount?: number }> } | undefined)?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0);
  const readySince = (pod: KubeObject): string => getCondition(pod['status'], 'Ready')?.lastTransitionTime ?? '';
  const ranked = [...pods].sort((a, b) => {
    const aNode = podNodeName(a);
    const bNode = podNodeName(b);
    if (!aNode !== !bNode) return aNode ? 1 : -1;
    const phase = (PHASE_RANK[podPhase(a)] ?? 1) - (PHASE_RANK[podPhase(b)] ?? 1);
    if (phase !== 0) return phase;
    if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? 1 : -1;
    const colocated = (perNode.get(bNode ?? '') ?? 0) - (perNode.get(aNode ?? '') ?? 0);
    if (colocated !== 0) return colocated;
    if (isPodReady(a) && isPodReady(b) && readySince(a) !== readySince(b)) return readySince(a) > readySince(b) ? -1 : 1;
    if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
    const ca = a.metadata.creationTimestamp;
    const cb = b.metadata.creationTimestamp;
    if (ca !== cb) return ca > cb ? -1 : 1;
    return a.metadata.name < b.metadata.name ? 1 : -1;
  });
  return ranked.slice(0, count);
}
