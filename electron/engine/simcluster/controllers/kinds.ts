/** The resource types the controllers read and write, resolved once from resources.ts. */
import { typeById, type ResourceType } from '../resources.ts';

function served(id: string): ResourceType {
  const type = typeById(id);
  if (!type) throw new Error(`simcluster serves no resource ${id}`);
  return type;
}

export const PODS = served('pods');
export const NODES = served('nodes');
export const NAMESPACES = served('namespaces');
export const SERVICES = served('services');
export const ENDPOINTS = served('endpoints');
export const REPLICASETS = served('replicasets.apps');
export const DEPLOYMENTS = served('deployments.apps');
export const STATEFULSETS = served('statefulsets.apps');
export const DAEMONSETS = served('daemonsets.apps');
export const JOBS = served('jobs.batch');
export const CRONJOBS = served('cronjobs.batch');
export const HPAS = served('horizontalpodautoscalers.autoscaling');
export const SECRETS = served('secrets');
export const CONTROLLER_REVISIONS = served('controllerrevisions.apps');
