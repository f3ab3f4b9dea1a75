/**
 * Defaulting and validation as kube-apiserver does them, so that `kubectl get -o yaml` and
 * `kubectl diff` against the simulated cluster show what a real cluster would store.
 */
import { defaultRbacObject } from '../rbac/validation.ts';
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { defaultEndpoints, defaultNamespace, defaultNode, defaultSecret, defaultService } from './core.ts';
import { defaultPod } from './pod.ts';
import { defaultCronJob, defaultDaemonSet, defaultDeployment, defaultHpa, defaultJob, defaultReplicaSet, defaultStatefulSet } from './workloads.ts';

export { validate } from './validate.ts';

// Each defaulter gets the private copy applyDefaults made and changes it in place, reading it
// through its own typed view of the loose JSON.
type Defaulter = (object: KubeObject) => void;
const view =
  <T>(fn: (object: T) => void): Defaulter =>
  (object) =>
    fn(object as unknown as T);

const BY_KIND: Record<string, Defaulter> = {
  Pod: view(defaultPod),
  Deployment: view(defaultDeployment),
  ReplicaSet: view(defaultReplicaSet),
  StatefulSet: view(defaultStatefulSet),
  DaemonSet: view(defaultDaemonSet),
  Job: view(defaultJob),
  CronJob: view(defaultCronJob),
  HorizontalPodAutoscaler: view(defaultHpa),
  Service: view(defaultService),
  Namespace: view(defaultNamespace),
  Secret: view(defaultSecret),
  Endpoints: view(defaultEndpoints),
  Node: view(defaultNode),
  RoleBinding: defaultRbacObject,
  ClusterRoleBinding: defaultRbacObject,
};

/**
 * A defaulted copy of `object` (the argument is never mutated): apps/v1 replicas, strategies and
 * history limits, pod template and container defaults (imagePullPolicy, terminationMessagePath,
 * `resources: {}`...), Pod admission defaults (service account, priority, tolerations), Job,
 * CronJob, HPA and Service defaults. Idempotent. Service cluster IPs and node ports are not
 * allocated here. A Job's selector and uid labels need its uid: call this again from the store's
 * `admit` hook on create, where the uid exists.
 */
export function applyDefaults(type: ResourceType, object: KubeObject): KubeObject {
  const copy = structuredClone(object);
  BY_KIND[type.kind]?.(copy);
  return copy;
}
