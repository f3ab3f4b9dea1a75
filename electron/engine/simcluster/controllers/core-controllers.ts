/**
 * The core control plane in one call: deployment, replicaset, scheduler, kubelet,
 * node-lifecycle, garbage collector and endpoints controllers sharing one speed factor and
 * Kubernetes version, ready for a ControllerManager.
 */
import { DeploymentController } from './deployment.ts';
import { EndpointsController } from './endpoints.ts';
import { GarbageCollector } from './garbage-collector.ts';
import { Kubelet, type KubeletOptions } from './kubelet.ts';
import { NodeLifecycleController, type NodeLifecycleOptions } from './node-lifecycle.ts';
import { ReplicaSetController } from './replicaset.ts';
import { createResourceQuotaController } from './resourcequota.ts';
import { createPersistentVolumeController } from './persistentvolume.ts';
import type { Controller } from './runtime.ts';
import { Scheduler, type SchedulerOptions } from './scheduler.ts';

export interface CoreControllerOptions {
  /** Simulated time runs this many times faster than the clock (default 1). */
  speed?: number;
  /** The version `/version` reports, e.g. `v1.32.2` (default DEFAULT_KUBERNETES_VERSION). */
  kubernetesVersion?: string;
  kubelet?: Omit<KubeletOptions, 'speed' | 'kubernetesVersion'>;
  nodeLifecycle?: Omit<NodeLifecycleOptions, 'speed' | 'kubernetesVersion'>;
  scheduler?: Omit<SchedulerOptions, 'speed'>;
}

export interface CoreControllers {
  controllers: Controller[];
  /** Kept apart for fault injection (`setNodeReady`). */
  nodeLifecycle: NodeLifecycleController;
}

export function createCoreControllers(options: CoreControllerOptions = {}): CoreControllers {
  const shared = { ...(options.speed !== undefined ? { speed: options.speed } : {}), ...(options.kubernetesVersion ? { kubernetesVersion: options.kubernetesVersion } : {}) };
  const nodeLifecycle = new NodeLifecycleController({ ...options.nodeLifecycle, ...shared });
  return {
    nodeLifecycle,
    controllers: [
      new DeploymentController(shared),
      new ReplicaSetController(options.speed !== undefined ? { speed: options.speed } : {}),
      createResourceQuotaController(),
      createPersistentVolumeController(options.speed !== undefined ? { speed: options.speed } : {}),
      new Scheduler({ ...options.scheduler, ...(options.speed !== undefined ? { speed: options.speed } : {}) }),
      new Kubelet({ ...options.kubelet, ...shared }),
      nodeLifecycle,
      new GarbageCollector(),
      new EndpointsController(),
    ],
  };
}
