/**
 * The simulated kube-controller-manager + scheduler + kubelets, and the demo's operators: every
 * controller, built with one speed and Kubernetes version, in the order their first reconciles
 * make sense.
 */
import { createCronJobController } from '../controllers/cronjob.ts';
import { createDaemonSetController } from '../controllers/daemonset.ts';
import { DeploymentController } from '../controllers/deployment.ts';
import { EndpointsController } from '../controllers/endpoints.ts';
import { GarbageCollector } from '../controllers/garbage-collector.ts';
import { createHpaController, type HpaController } from '../controllers/hpa.ts';
import { createJobController } from '../controllers/job.ts';
import { Kubelet, type KubeletOptions } from '../controllers/kubelet.ts';
import { createNamespaceController } from '../controllers/namespace.ts';
import { NodeLifecycleController } from '../controllers/node-lifecycle.ts';
import { createCertificateController } from '../controllers/operators/certificates.ts';
import { createDatabaseOperator } from '../controllers/operators/database.ts';
import { ReplicaSetController } from '../controllers/replicaset.ts';
import { createResourceQuotaController } from '../controllers/resourcequota.ts';
import { createPersistentVolumeController } from '../controllers/persistentvolume.ts';
import type { Controller } from '../controllers/runtime.ts';
import { Scheduler } from '../controllers/scheduler.ts';
import { createStatefulSetController } from '../controllers/statefulset.ts';
import { createTtlAfterFinishedController } from '../controllers/ttl-after-finished.ts';

/** Options of `createControllerSet`. */
export interface ControllerSetOptions {
  /** How many times faster than real time every simulated delay runs. Default 1. */
  speed?: number;
  /** The version the cluster reports (`v1.32.2`). */
  kubernetesVersion?: string;
  /** Kubelet timings; `speed` and `kubernetesVersion` above are applied on top. */
  kubelet?: Omit<KubeletOptions, 'speed' | 'kubernetesVersion'>;
  /** Demo operators to run too (a scenario's `spec.operators`). */
  operators?: ReadonlyArray<'certificates' | 'databases'>;
}

/** The controllers, and the two whose fault-injection methods scenarios use. */
export interface ControllerSet {
  controllers: Controller[];
  /** The HPA controller, whose `setLoad` drives the simulated CPU utilization. */
  hpa: HpaController;
  /** The node controller, whose `setNodeReady` stops and restarts a node's kubelet. */
  nodeLifecycle: NodeLifecycleController;
}

/** Builds every controller of the simulated control plane, ready for a ControllerManager. */
export function createControllerSet(options: ControllerSetOptions = {}): ControllerSet {
  const speed = options.speed ?? 1;
  const version = options.kubernetesVersion ? { kubernetesVersion: options.kubernetesVersion } : {};
  const hpa = createHpaController({ speed });
  const nodeLifecycle = new NodeLifecycleController({ speed, ...version });
  const controllers: Controller[] = [
    nodeLifecycle,
    new DeploymentController({ speed, ...version }),
    new ReplicaSetController({ speed }),
    createResourceQuotaController(),
    createPersistentVolumeController({ speed }),
    createStatefulSetController({ speed }),
    createDaemonSetController({ speed }),
    createJobController({ speed }),
    createCronJobController(),
    createTtlAfterFinishedController({ speed }),
    hpa,
    new Scheduler({ speed }),
    new Kubelet({ ...options.kubelet, speed, ...version }),
    new GarbageCollector(),
    new EndpointsController(),
    createNamespaceController(),
  ];
  // Operators the scenario asks for; each is idle until its CRDs are installed.
  if (options.operators?.includes('certificates')) controllers.push(createCertificateController({ speed }));
  if (options.operators?.includes('databases')) controllers.push(createDatabaseOperator());
  return { controllers, hpa, nodeLifecycle };
}
