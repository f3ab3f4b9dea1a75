/**
 * persistentvolume-controller for a cluster without storage: no PersistentVolumes and no
 * StorageClasses, so no claim can bind. Claims stay Pending and, every resync, say why in the
 * PV controller's words: `storageclass.storage.k8s.io "fast" not found` (ProvisioningFailed) for
 * a claim naming a class, "no persistent volumes available for this claim and no storage class
 * is set" (FailedBinding) for one that names none. The scheduler keeps their pods unscheduled
 * ("pod has unbound immediate PersistentVolumeClaims").
 */
import type { Change } from '../changelog.ts';
import { typeById, type ResourceType } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';

export const PERSISTENT_VOLUME_CLAIMS = typeById('persistentvolumeclaims') as ResourceType;
export const PERSISTENT_VOLUME_CONTROLLER = 'persistentvolume-controller';
/** The PV controller's resync period (--pvclaimbinder-sync-period). */
const SYNC_PERIOD_MS = 15_000;

export interface PersistentVolumeControllerOptions {
  /** Divides the resync period (demo speed). Default 1. */
  speed?: number;
}

/** Whether a pod names a claim that exists and is not Bound (the scheduler's VolumeBinding PreFilter). */
export function hasUnboundClaim(store: ObjectStore, pod: KubeObject): boolean {
  const volumes = ((pod['spec'] as { volumes?: Array<{ persistentVolumeClaim?: { claimName?: string } }> } | undefined)?.volumes) ?? [];
  return volumes.some((volume) => {
    const name = volume.persistentVolumeClaim?.claimName;
    const claim = name ? store.find(PERSISTENT_VOLUME_CLAIMS, pod.metadata.namespace, name) : undefined;
    return claim !== undefined && (claim['status'] as { phase?: string } | undefined)?.phase !== 'Bound';
  });
}

/** The persistentvolume-controller: keeps claims Pending and reports why, every resync. */
export function createPersistentVolumeController(options: PersistentVolumeControllerOptions = {}): Controller {
  const periodMs = SYNC_PERIOD_MS / (options.speed ?? 1);
  const keyOf = (claim: KubeObject): ReconcileKey => ({ resource: 'persistentvolumeclaims', namespace: claim.metadata.namespace, name: claim.metadata.name });
  return {
    name: PERSISTENT_VOLUME_CONTROLLER,
    keysFor(change: Change): ReconcileKey[] {
      // Its own status writes do not change the generation; only new claims and spec changes sync early.
      if (change.resource !== 'persistentvolumeclaims' || change.type === 'DELETED') return [];
      if (change.old && change.old.metadata.generation === change.object.metadata.generation) return [];
      return [keyOf(change.object)];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      return ctx.store.all(PERSISTENT_VOLUME_CLAIMS).map(keyOf);
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
      const claim = ctx.store.find(PERSISTENT_VOLUME_CLAIMS, key.namespace, key.name);
      if (!claim || claim.metadata.deletionTimestamp) return;
      const status = (claim['status'] as { phase?: string } | undefined) ?? {};
      if (status.phase === 'Bound') return;
      if (status.phase !== 'Pending') {
        ctx.store.mutate(PERSISTENT_VOLUME_CLAIMS, key.namespace, key.name, (copy) => {
          copy['status'] = { ...((copy['status'] as Record<string, unknown> | undefined) ?? {}), phase: 'Pending' };
        }, { subresource: 'status' });
      }
      const className = (claim['spec'] as { storageClassName?: string } | undefined)?.storageClassName;
      if (className) {
        ctx.events.record({ regarding: claim, type: 'Warning', reason: 'ProvisioningFailed', message: `storageclass.storage.k8s.io "${className}" not found`, component: PERSISTENT_VOLUME_CONTROLLER });
      } else {
        ctx.events.record({ regarding: claim, type: 'Normal', reason: 'FailedBinding', message: 'no persistent volumes available for this claim and no storage class is set', component: PERSISTENT_VOLUME_CONTROLLER });
      }
      return periodMs;
    },
  };
}
