/**
 * deployment-controller: Deployments -> ReplicaSets named `<deployment>-<pod-template-hash>`,
 * rolled by the Deployment's strategy, with revision annotations, ScalingReplicaSet events and
 * the status `kubectl rollout status` waits on. Level-triggered: every reconcile starts from
 * the store.
 */
import type { Change } from '../changelog.ts';
import { fromLabelSelectorObject, matchesLabels } from '../selectors.ts';
import type { KubeObject } from '../types.ts';
import { rolloutRecreate, rolloutRolling, isScalingEvent, syncScaleOnly } from './deployment-rollout.ts';
import { checkPausedConditions, syncDeploymentStatus } from './deployment-status.ts';
import { DEPLOYMENT_CONTROLLER, DeploymentSync } from './deployment-sync.ts';
import { DEPLOYMENTS, PODS, REPLICASETS } from './kinds.ts';
import { OwnerIndex } from './owner-index.ts';
import { controllerRef, newControllerRef } from './owner.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';
import { DEFAULT_KUBERNETES_VERSION, minorOf } from './version.ts';

const DEPLOYMENT_ID = 'deployments.apps';

export interface DeploymentControllerOptions {
  /**
   * How many times faster than real time the simulation runs: progressDeadlineSeconds and
   * minReadySeconds are divided by it. Default 1.
   */
  speed?: number;
  /** The version the cluster reports (`v1.32.2`); picks the ScalingReplicaSet message form. */
  kubernetesVersion?: string;
}

export class DeploymentController implements Controller {
  readonly name = DEPLOYMENT_CONTROLLER;
  private readonly speed: number;
  private readonly minor: number;
  /** `namespace/replicaset` -> controlling Deployment, so pod deletions can wake Recreate rollouts. */
  private readonly rsOwners = new Map<string, string>();
  private readonly replicaSets = new OwnerIndex(REPLICASETS);
  private readonly pods = new OwnerIndex(PODS);

  constructor(options: DeploymentControllerOptions = {}) {
    this.speed = options.speed ?? 1;
    this.minor = minorOf(options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION);
  }

  keysFor(change: Change): ReconcileKey[] {
    this.replicaSets.observe(change);
    this.pods.observe(change);
    const { object } = change;
    const namespace = object.metadata.namespace;
    if (change.resource === DEPLOYMENT_ID) return [{ resource: DEPLOYMENT_ID, namespace, name: object.metadata.name }];
    if (change.resource === 'replicasets.apps') {
      const rsKey = `${namespace}/${object.metadata.name}`;
      const keys: ReconcileKey[] = [];
      for (const rs of [change.old, object]) {
        const ref = rs && controllerRef(rs);
        if (ref?.kind === 'Deployment') keys.push({ resource: DEPLOYMENT_ID, namespace, name: ref.name });
      }
      const owner = controllerRef(object);
      if (change.type !== 'DELETED' && owner?.kind === 'Deployment') this.rsOwners.set(rsKey, owner.name);
      else this.rsOwners.delete(rsKey);
      return keys;
    }
    if (change.resource === 'pods' && change.type === 'DELETED') {
      const ref = controllerRef(object);
      const deployment = ref?.kind === 'ReplicaSet' ? this.rsOwners.get(`${namespace}/${ref.name}`) : undefined;
      if (deployment) return [{ resource: DEPLOYMENT_ID, namespace, name: deployment }];
    }
    return [];
  }

  initialKeys(ctx: ControllerContext): ReconcileKey[] {
    this.replicaSets.rebuild(ctx.store);
    this.pods.rebuild(ctx.store);
    for (const rs of ctx.store.all(REPLICASETS)) {
      const ref = controllerRef(rs);
      if (ref?.kind === 'Deployment') this.rsOwners.set(`${rs.metadata.namespace}/${rs.metadata.name}`, ref.name);
    }
    return ctx.store.all(DEPLOYMENTS).map((d) => ({ resource: DEPLOYMENT_ID, namespace: d.metadata.namespace, name: d.metadata.name }));
  }

  reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
    const d = ctx.store.find(DEPLOYMENTS, key.namespace, key.name);
    if (!d) return;
    const candidates = [...this.replicaSets.controlledBy(ctx.store, d.metadata.uid), ...this.replicaSets.orphansIn(ctx.store, d.metadata.namespace)];
    const sync = new DeploymentSync(ctx, d, claimReplicaSets(ctx, d, candidates), { speed: this.speed, minor: this.minor });
    if (Object.keys(sync.spec.selector.matchLabels ?? {}).length === 0 && (sync.spec.selector.matchExpressions ?? []).length === 0) {
      sync.event('SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.', 'Warning');
      return;
    }
    if (d.metadata.deletionTimestamp) {
      const { newRS } = sync.allReplicaSets({ createIfMissing: false });
      syncDeploymentStatus(sync, sync.rsList, newRS && sync.current(newRS));
      return;
    }
    checkPausedConditions(sync);
    if (sync.spec.paused || isScalingEvent(sync)) {
      syncScaleOnly(sync);
      return sync.requeueMs;
    }
    if (sync.spec.strategy === 'Recreate') {
      rolloutRecreate(sync, sync.rsList.flatMap((rs) => this.pods.controlledBy(ctx.store, rs.metadata.uid)));
    } else {
      rolloutRolling(sync);
    }
    return sync.requeueMs;
  }
}

/**
 * ClaimReplicaSets: the ReplicaSets this Deployment controls, adopting matching orphans and
 * releasing controlled ones whose labels no longer match the selector.
 */
function claimReplicaSets(ctx: ControllerContext, d: KubeObject, candidates: KubeObject[]): KubeObject[] {
  const spec = (d['spec'] as { selector?: Parameters<typeof fromLabelSelectorObject>[0] } | undefined) ?? {};
  const selector = fromLabelSelectorObject(spec.selector);
  const empty = selector.length === 0;
  const claimed: KubeObject[] = [];
  for (const rs of candidates) {
    const ref = controllerRef(rs);
    const matches = !empty && matchesLabels(selector, rs.metadata.labels);
    if (ref) {
      if (ref.uid !== d.metadata.uid) continue;
      if (matches) {
        claimed.push(rs);
      } else if (!d.metadata.deletionTimestamp) {
        ctx.store.mutate(REPLICASETS, rs.metadata.namespace, rs.metadata.name, (copy) => {
          const refs = (copy.metadata.ownerReferences ?? []).filter((r) => r.uid !== d.metadata.uid);
          if (refs.length > 0) copy.metadata.ownerReferences = refs;
          else delete copy.metadata.ownerReferences;
        });
      }
      continue;
    }
    if (!matches || d.metadata.deletionTimestamp || rs.metadata.deletionTimestamp) continue;
    claimed.push(
      ctx.store.mutate(REPLICASETS, rs.metadata.namespace, rs.metadata.name, (copy) => {
        copy.metadata.ownerReferences = [...(copy.metadata.ownerReferences ?? []), newControllerRef(d)];
      }),
    );
  }
  return claimed;
}
