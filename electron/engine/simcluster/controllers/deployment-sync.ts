/**
 * One reconcile of one Deployment: the state upstream's DeploymentController threads through
 * its sync functions (the Deployment as last written, its ReplicaSets), plus the writes they
 * share: scaling a ReplicaSet with its ScalingReplicaSet event, finding or creating the new
 * ReplicaSet, and recording the revision.
 */
import { ApiError } from '../errors.ts';
import type { KubeObject } from '../types.ts';
import { setCondition } from './conditions.ts';
import {
  deploymentSpec,
  equalIgnoreHash,
  maxSurge,
  podTemplateHash,
  POD_TEMPLATE_HASH_LABEL,
  REVISION_ANNOTATION,
  revisionOf,
  rsSpecReplicas,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  sortByCreation,
  type DeploymentSpecView,
} from './deployment-util.ts';
import { DEPLOYMENTS, REPLICASETS } from './kinds.ts';
import { isControlledBy, newControllerRef } from './owner.ts';
import type { PodTemplate } from './pods.ts';
import type { ControllerContext } from './runtime.ts';

export const DEPLOYMENT_CONTROLLER = 'deployment-controller';

export interface DeploymentSyncOptions {
  /** Time runs this many times faster for deadlines and minReadySeconds. */
  speed: number;
  /** Minor version of the simulated Kubernetes, for version-specific messages. */
  minor: number;
}

export class DeploymentSync {
  readonly ctx: ControllerContext;
  readonly options: DeploymentSyncOptions;
  d: KubeObject;
  readonly spec: DeploymentSpecView;
  /** The ReplicaSets this Deployment controls, updated as they are written. */
  rsList: KubeObject[];
  /** The soonest the Deployment must be looked at again, if time alone will change it. */
  requeueMs: number | undefined;

  constructor(ctx: ControllerContext, d: KubeObject, rsList: KubeObject[], options: DeploymentSyncOptions) {
    this.ctx = ctx;
    this.options = options;
    this.d = d;
    this.spec = deploymentSpec(d);
    this.rsList = rsList;
  }

  now(): number {
    return this.ctx.clock.now();
  }

  requeueAfter(ms: number): void {
    this.requeueMs = this.requeueMs === undefined ? ms : Math.min(this.requeueMs, ms);
  }

  event(reason: string, message: string, type: 'Normal' | 'Warning' = 'Normal'): void {
    this.ctx.events.record({ regarding: this.d, type, reason, message, component: DEPLOYMENT_CONTROLLER });
  }

  /** Writes `status` through the /status subresource if it differs. */
  writeStatus(status: Record<string, unknown>): void {
    if (JSON.stringify(status) === JSON.stringify(this.d['status'] ?? {})) return;
    this.d = this.ctx.store.update(DEPLOYMENTS, { ...this.d, status }, { subresource: 'status' });
  }

  /** A private copy of the current status to edit and write back. */
  statusCopy(): Record<string, unknown> {
    return structuredClone((this.d['status'] as Record<string, unknown> | undefined) ?? {});
  }

  private replace(rs: KubeObject): void {
    this.rsList = this.rsList.map((r) => (r.metadata.uid === rs.metadata.uid ? rs : r));
  }

  /** The freshest copy of a ReplicaSet this sync knows. */
  current(rs: KubeObject): KubeObject {
    return this.rsList.find((r) => r.metadata.uid === rs.metadata.uid) ?? rs;
  }

  /**
   * Sets a ReplicaSet's size and replicas annotations (scaleReplicaSet). Records
   * ScalingReplicaSet when the size changes; `direction` overrides up/down (proportional
   * scaling names the whole Deployment's direction). Returns whether the size changed.
   */
  scaleReplicaSet(target: KubeObject, newScale: number, direction?: 'up' | 'down'): boolean {
    const rs = this.current(target);
    const oldScale = rsSpecReplicas(rs);
    const sizeChanges = oldScale !== newScale;
    const annotations = { ...(rs.metadata.annotations ?? {}) };
    const annotationsChange = setReplicasAnnotations(annotations, this.spec.replicas, this.spec.replicas + maxSurge(this.spec));
    if (!sizeChanges && !annotationsChange) return false;
    const updated = this.ctx.store.mutate(REPLICASETS, rs.metadata.namespace, rs.metadata.name, (copy) => {
      (copy['spec'] as Record<string, unknown>)['replicas'] = newScale;
      copy.metadata.annotations = annotations;
    });
    this.replace(updated);
    if (sizeChanges) {
      const op = direction ?? (oldScale < newScale ? 'up' : 'down');
      const message = this.options.minor >= 29
        ? `Scaled ${op} replica set ${rs.metadata.name} from ${oldScale} to ${newScale}`
        : `Scaled ${op} replica set ${rs.metadata.name} to ${newScale}`;
      this.event('ScalingReplicaSet', message);
    }
    return sizeChanges;
  }

  /** scaleReplicaSetAndRecordEvent: a no-op when the size is already right. */
  scaleIfNeeded(rs: KubeObject, newScale: number): boolean {
    if (rsSpecReplicas(this.current(rs)) === newScale) return false;
    return this.scaleReplicaSet(rs, newScale);
  }

  private setDeploymentRevision(revision: string): void {
    if (this.d.metadata.annotations?.[REVISION_ANNOTATION] === revision) return;
    // Upstream writes this annotation through UpdateStatus, which may change annotations; this
    // store's /status takes only .status, so it is a main-resource write (no generation bump).
    this.d = this.ctx.store.mutate(DEPLOYMENTS, this.d.metadata.namespace, this.d.metadata.name, (copy) => {
      copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [REVISION_ANNOTATION]: revision };
    });
  }

  /** getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created on demand) and the old ones. */
  allReplicaSets(options: { createIfMissing: boolean }): { newRS: KubeObject | undefined; oldRSs: KubeObject[] } {
    const found = sortByCreation(this.rsList).find((rs) => equalIgnoreHash((rs['spec'] as { template?: PodTemplate }).template ?? {}, this.spec.template));
    const oldRSs = this.rsList.filter((rs) => rs !== found);
    const maxOld = oldRSs.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);
    const newRS = found ? this.syncExistingNewRS(found, maxOld + 1) : options.createIfMissing ? this.createNewRS(oldRSs, maxOld + 1) : undefined;
    return { newRS, oldRSs: this.rsList.filter((rs) => rs.metadata.uid !== newRS?.metadata.uid) };
  }

  private syncExistingNewRS(found: KubeObject, newRevision: number): KubeObject {
    const annotations = { ...(found.metadata.annotations ?? {}) };
    const annotationsChanged = setNewReplicaSetAnnotations(this.d, annotations, newRevision, { exists: true });
    const rsMinReady = Number((found['spec'] as { minReadySeconds?: number }).minReadySeconds ?? 0);
    if (annotationsChanged || rsMinReady !== this.spec.minReadySeconds) {
      const updated = this.ctx.store.mutate(REPLICASETS, found.metadata.namespace, found.metadata.name, (copy) => {
        copy.metadata.annotations = annotations;
        const spec = copy['spec'] as Record<string, unknown>;
        if (this.spec.minReadySeconds > 0) spec['minReadySeconds'] = this.spec.minReadySeconds;
        else delete spec['minReadySeconds'];
      });
      this.replace(updated);
      return updated;
    }
    this.setDeploymentRevision(found.metadata.annotations?.[REVISION_ANNOTATION] ?? String(newRevision));
    if (this.spec.progressDeadlineSeconds !== undefined && !hasProgressing(this.d)) {
      const status = this.statusCopy();
      setCondition(status, 'Progressing', 'True', 'FoundNewReplicaSet', `Found new replica set "${found.metadata.name}"`, this.now(), { updateTimeField: 'lastUpdateTime' });
      this.writeStatus(status);
    }
    return found;
  }

  private createNewRS(oldRSs: KubeObject[], newRevision: number): KubeObject | undefined {
    const { d, spec } = this;
    const hash = podTemplateHash(spec.template);
    const templateMeta = spec.template.metadata ?? {};
    const labels = { ...(templateMeta.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
    const template = { ...structuredClone(spec.template), metadata: { ...structuredClone(templateMeta), labels } };
    const selector = { ...structuredClone(spec.selector), matchLabels: { ...(spec.selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
    const total = oldRSs.reduce((sum, rs) => sum + rsSpecReplicas(rs), 0);
    const replicas = newReplicaSetReplicas(spec, total, 0);
    const annotations: Record<string, string> = {};
    setNewReplicaSetAnnotations(d, annotations, newRevision, { exists: false });
    const rsSpec: Record<string, unknown> = { replicas };
    if (spec.minReadySeconds > 0) rsSpec['minReadySeconds'] = spec.minReadySeconds;
    rsSpec['selector'] = selector;
    rsSpec['template'] = template;
    const name = `${d.metadata.name}-${hash}`;
    let created: KubeObject;
    try {
      created = this.ctx.store.create(REPLICASETS, {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name, namespace: d.metadata.namespace, labels, annotations, ownerReferences: [newControllerRef(d)] },
        spec: rsSpec,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 409) throw error;
      const existing = this.ctx.store.find(REPLICASETS, d.metadata.namespace, name);
      // A same-named ReplicaSet we do not own is a hash collision; upstream then bumps
      // collisionCount, which this simulation has no need for.
      return existing && isControlledBy(existing, d) ? existing : undefined;
    }
    this.rsList = [...this.rsList, created];
    if (replicas > 0) {
      this.event('ScalingReplicaSet', this.options.minor >= 29 ? `Scaled up replica set ${name} from 0 to ${replicas}` : `Scaled up replica set ${name} to ${replicas}`);
    }
    this.setDeploymentRevision(String(newRevision));
    if (spec.progressDeadlineSeconds !== undefined) {
      const status = this.statusCopy();
      setCondition(status, 'Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${name}"`, this.now(), { updateTimeField: 'lastUpdateTime' });
      this.writeStatus(status);
    }
    return created;
  }
}

function hasProgressing(d: KubeObject): boolean {
  const conditions = ((d['status'] as { conditions?: Array<{ type: string }> } | undefined)?.conditions) ?? [];
  return conditions.some((c) => c.type === 'Progressing');
}

/**
 * deploymentutil.NewRSNewReplicas: how big the new ReplicaSet may be now. `total` is the sum
 * of all ReplicaSets' spec.replicas including the new one's `current`.
 */
export function newReplicaSetReplicas(spec: DeploymentSpecView, total: number, current: number): number {
  if (spec.strategy === 'Recreate') return spec.replicas;
  const maxTotal = spec.replicas + maxSurge(spec);
  if (total >= maxTotal) return current;
  return current + Math.min(maxTotal - total, spec.replicas - current);
}
