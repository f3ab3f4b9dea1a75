/**
 * The Deployment strategies, following upstream's rolling.go, recreate.go and sync.go: rolling
 * updates bounded by maxSurge/maxUnavailable, Recreate (old pods gone before new ones start),
 * proportional scaling of a mid-rollout Deployment, and revision history cleanup.
 */
import type { KubeObject } from '../types.ts';
import { syncDeploymentStatus, syncRolloutStatus } from './deployment-status.ts';
import { newReplicaSetReplicas, type DeploymentSync } from './deployment-sync.ts';
import { DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, maxSurge, maxUnavailable, rsSpecReplicas, rsStatus, sortByCreation, sortByRevision } from './deployment-util.ts';
import { REPLICASETS } from './kinds.ts';
import { controllerRef } from './owner.ts';
import { isPodTerminal } from './pods.ts';

const sumSpec = (list: KubeObject[]): number => list.reduce((total, rs) => total + rsSpecReplicas(rs), 0);
const active = (list: KubeObject[]): KubeObject[] => list.filter((rs) => rsSpecReplicas(rs) > 0);

/** rolloutRolling: scale the new ReplicaSet up, else the old ones down, then status. */
export function rolloutRolling(sync: DeploymentSync): void {
  const { newRS, oldRSs } = sync.allReplicaSets({ createIfMissing: true });
  const all = (): KubeObject[] => sync.rsList;
  if (newRS && reconcileNewReplicaSet(sync, newRS)) return syncRolloutStatus(sync, all(), sync.current(newRS));
  if (newRS && reconcileOldReplicaSets(sync, oldRSs.map((rs) => sync.current(rs)), sync.current(newRS))) {
    return syncRolloutStatus(sync, all(), sync.current(newRS));
  }
  if (isCompleteByStatus(sync)) cleanupDeployment(sync, oldRSs.map((rs) => sync.current(rs)));
  syncRolloutStatus(sync, all(), newRS && sync.current(newRS));
}

function reconcileNewReplicaSet(sync: DeploymentSync, newRS: KubeObject): boolean {
  const current = rsSpecReplicas(newRS);
  const desired = sync.spec.replicas;
  if (current === desired) return false;
  if (current > desired) return sync.scaleIfNeeded(newRS, desired);
  return sync.scaleIfNeeded(newRS, newReplicaSetReplicas(sync.spec, sumSpec(sync.rsList), current));
}

function reconcileOldReplicaSets(sync: DeploymentSync, oldRSs: KubeObject[], newRS: KubeObject): boolean {
  if (sumSpec(oldRSs) === 0) return false;
  const minAvailable = sync.spec.replicas - maxUnavailable(sync.spec);
  const newUnavailable = rsSpecReplicas(newRS) - rsStatus(newRS, 'availableReplicas');
  const maxScaledDown = sumSpec(sync.rsList) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  // Unhealthy old replicas go first, or they would block the rollout (kubernetes#16737).
  let cleaned = 0;
  for (const rs of sortByCreation(active(oldRSs))) {
    if (cleaned >= maxScaledDown) break;
    const replicas = rsSpecReplicas(rs);
    const unhealthy = replicas - rsStatus(rs, 'availableReplicas');
    if (unhealthy <= 0) continue;
    const down = Math.min(maxScaledDown - cleaned, unhealthy);
    sync.scaleIfNeeded(rs, replicas - down);
    cleaned += down;
  }
  const available = sync.rsList.reduce((total, rs) => total + rsStatus(rs, 'availableReplicas'), 0);
  let scaledDown = 0;
  if (available > minAvailable) {
    const budget = available - minAvailable;
    for (const original of sortByCreation(oldRSs)) {
      const rs = sync.current(original);
      if (scaledDown >= budget) break;
      const replicas = rsSpecReplicas(rs);
      if (replicas === 0) continue;
      const down = Math.min(replicas, budget - scaledDown);
      sync.scaleIfNeeded(rs, replicas - down);
      scaledDown += down;
    }
  }
  return cleaned + scaledDown > 0;
}

/** rolloutRecreate: old ReplicaSets to zero, wait for their pods to stop, then the new one. */
export function rolloutRecreate(sync: DeploymentSync, pods: KubeObject[]): void {
  let { newRS, oldRSs } = sync.allReplicaSets({ createIfMissing: false });
  let scaledDown = false;
  for (const rs of active(oldRSs)) if (sync.scaleIfNeeded(rs, 0)) scaledDown = true;
  if (scaledDown) return syncRolloutStatus(sync, sync.rsList, newRS && sync.current(newRS));
  if (oldPodsRunning(sync, newRS, oldRSs, pods)) return syncRolloutStatus(sync, sync.rsList, newRS && sync.current(newRS));
  if (!newRS) ({ newRS, oldRSs } = sync.allReplicaSets({ createIfMissing: true }));
  if (newRS) sync.scaleIfNeeded(newRS, sync.spec.replicas);
  if (isCompleteByStatus(sync)) cleanupDeployment(sync, oldRSs.map((rs) => sync.current(rs)));
  syncRolloutStatus(sync, sync.rsList, newRS && sync.current(newRS));
}

function oldPodsRunning(sync: DeploymentSync, newRS: KubeObject | undefined, oldRSs: KubeObject[], pods: KubeObject[]): boolean {
  if (oldRSs.some((rs) => rsStatus(sync.current(rs), 'replicas') > 0)) return true;
  const oldUids = new Set(oldRSs.map((rs) => rs.metadata.uid));
  return pods.some((pod) => {
    const owner = controllerRef(pod)?.uid;
    if (!owner || owner === newRS?.metadata.uid || !oldUids.has(owner)) return false;
    return !isPodTerminal(pod);
  });
}

/** DeploymentComplete judged on the Deployment's last written status (upstream passes d.Status). */
function isCompleteByStatus(sync: DeploymentSync): boolean {
  const s = (sync.d['status'] as Record<string, number> | undefined) ?? {};
  const desired = sync.spec.replicas;
  return (s['updatedReplicas'] ?? 0) === desired && (s['replicas'] ?? 0) === desired && (s['availableReplicas'] ?? 0) === desired && (s['observedGeneration'] ?? 0) >= (sync.d.metadata.generation ?? 0);
}

/** cleanupDeployment: delete the oldest idle ReplicaSets beyond revisionHistoryLimit. */
function cleanupDeployment(sync: DeploymentSync, oldRSs: KubeObject[]): void {
  const cleanable = oldRSs.filter((rs) => rs.metadata.deletionTimestamp === undefined);
  const excess = cleanable.length - sync.spec.revisionHistoryLimit;
  if (excess <= 0) return;
  for (const rs of sortByRevision(cleanable).slice(0, excess)) {
    if (rsStatus(rs, 'replicas') !== 0 || rsSpecReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > rsStatus(rs, 'observedGeneration')) continue;
    if (sync.ctx.store.find(REPLICASETS, rs.metadata.namespace, rs.metadata.name)) sync.ctx.store.delete(REPLICASETS, rs.metadata.namespace, rs.metadata.name, { propagationPolicy: 'Background' });
    sync.rsList = sync.rsList.filter((r) => r.metadata.uid !== rs.metadata.uid);
  }
}

/** isScalingEvent: an active ReplicaSet was sized for a different spec.replicas. */
export function isScalingEvent(sync: DeploymentSync): boolean {
  const { newRS, oldRSs } = sync.allReplicaSets({ createIfMissing: false });
  for (const rs of active([...(newRS ? [newRS] : []), ...oldRSs].map((r) => sync.current(r)))) {
    const desired = rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION];
    if (desired !== undefined && Number(desired) !== sync.spec.replicas) return true;
  }
  return false;
}

/** sync: scale (proportionally if mid-rollout), clean up when paused, then status. */
export function syncScaleOnly(sync: DeploymentSync): void {
  const { newRS, oldRSs } = sync.allReplicaSets({ createIfMissing: false });
  scale(sync, newRS, oldRSs);
  if (sync.spec.paused) cleanupDeployment(sync, oldRSs.map((rs) => sync.current(rs)));
  syncDeploymentStatus(sync, sync.rsList, newRS && sync.current(newRS));
}

function isSaturated(sync: DeploymentSync, rs: KubeObject | undefined): boolean {
  if (!rs) return false;
  const desired = Number(rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION] ?? Number.NaN);
  return desired === sync.spec.replicas && rsSpecReplicas(rs) === sync.spec.replicas && rsStatus(rs, 'availableReplicas') === sync.spec.replicas;
}

function scale(sync: DeploymentSync, newRS: KubeObject | undefined, oldRSs: KubeObject[]): void {
  const desired = sync.spec.replicas;
  const newest = [...sortByCreation(oldRSs)].reverse();
  const activeAll = active([...newest, ...(newRS ? [newRS] : [])]);
  const only = activeAll.length === 1 ? activeAll[0] : activeAll.length === 0 ? (newRS ?? newest[0]) : undefined;
  if (only) {
    sync.scaleIfNeeded(only, desired);
    return;
  }
  if (activeAll.length === 0) return;
  if (isSaturated(sync, newRS)) {
    for (const rs of active(oldRSs)) sync.scaleIfNeeded(rs, 0);
    return;
  }
  if (sync.spec.strategy !== 'RollingUpdate') return;
  const allowed = desired > 0 ? desired + maxSurge(sync.spec) : 0;
  const toAdd = allowed - sumSpec(activeAll);
  const direction = toAdd > 0 ? 'up' : 'down';
  const ordered = [...activeAll].sort((a, b) => {
    const bySize = rsSpecReplicas(b) - rsSpecReplicas(a);
    if (bySize !== 0) return bySize;
    const older = sortByCreation([a, b])[0] === a ? -1 : 1;
    return toAdd > 0 ? -older : older;
  });
  const sizes = new Map<string, number>();
  let added = 0;
  for (const rs of ordered) {
    const proportion = toAdd === 0 ? 0 : replicaSetProportion(sync, rs, toAdd, added);
    sizes.set(rs.metadata.uid, rsSpecReplicas(rs) + proportion);
    added += proportion;
  }
  ordered.forEach((rs, i) => {
    let size = sizes.get(rs.metadata.uid) ?? 0;
    if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
    sync.scaleReplicaSet(rs, size, direction);
  });
}

/** GetProportion: this ReplicaSet's share of a scale change, by its max-replicas annotation. */
function replicaSetProportion(sync: DeploymentSync, rs: KubeObject, toAdd: number, added: number): number {
  const size = rsSpecReplicas(rs);
  if (size === 0 || toAdd === added) return 0;
  let fraction: number;
  if (sync.spec.replicas === 0) {
    fraction = -size;
  } else {
    const maxNow = sync.spec.replicas + maxSurge(sync.spec);
    let maxBefore = Number(rs.metadata.annotations?.[MAX_REPLICAS_ANNOTATION] ?? 0);
    if (!maxBefore) maxBefore = Number((sync.d['status'] as { replicas?: number } | undefined)?.replicas ?? 0);
    fraction = maxBefore ? Math.round((size * maxNow) / maxBefore) - size : 0;
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
