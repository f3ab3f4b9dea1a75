/** The resource types of the StatefulSet, DaemonSet, batch, autoscaling and namespace controllers. */
import { typeById, type ResourceType } from '../resources.ts';

function served(id: string): ResourceType {
  const type = typeById(id);
  if (!type) throw new Error(`simcluster serves no resource ${id}`);
  return type;
}

export const NAMESPACES = served('namespaces');
export const STATEFULSETS = served('statefulsets.apps');
export const DAEMONSETS = served('daemonsets.apps');
export const JOBS = served('jobs.batch');
export const CRONJOBS = served('cronjobs.batch');
export const HPAS = served('horizontalpodautoscalers.autoscaling');
