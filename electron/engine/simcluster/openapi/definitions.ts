/**
 * Every swagger definition the simulated API server publishes, under Kubernetes' own names, and
 * the lookup from a group/version/kind to its definition name.
 */
import { RESOURCE_TYPES } from '../resources.ts';
import { apiextensionsDefinitions } from './definitions-apiextensions.ts';
import { appsDefinitions } from './definitions-apps.ts';
import { autoscalingEventsDefinitions } from './definitions-autoscaling-events.ts';
import { batchDefinitions } from './definitions-batch.ts';
import { clusterDefinitions } from './definitions-core-cluster.ts';
import { containerDefinitions } from './definitions-core-container.ts';
import { coreObjectDefinitions } from './definitions-core-objects.ts';
import { podDefinitions } from './definitions-core-pod.ts';
import { quotaDefinitions } from './definitions-core-quota.ts';
import { schedulingDefinitions } from './definitions-core-scheduling.ts';
import { volumeDefinitions } from './definitions-core-volume.ts';
import { metaDefinitions } from './definitions-meta.ts';
import { accessDefinitions } from './definitions-rbac.ts';
import { listKind, type GroupVersionKind, type Schema } from './schema.ts';

export type { GroupVersionKind, Schema } from './schema.ts';

/** The Go package a group's types live in, as it appears in definition names. */
function packageOf(group: string): string {
  if (group === '') return 'core';
  return group.split('.')[0] ?? group;
}

function conventionalName(group: string, version: string, kind: string): string {
  if (group === 'apiextensions.k8s.io') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${version}.${kind}`;
  return `io.k8s.api.${packageOf(group)}.${version}.${kind}`;
}

function gvkKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

function build(): Record<string, Schema> {
  const all: Record<string, Schema> = {
    ...metaDefinitions(),
    ...podDefinitions(),
    ...containerDefinitions(),
    ...volumeDefinitions(),
    ...schedulingDefinitions(),
    ...clusterDefinitions(),
    ...coreObjectDefinitions(),
    ...quotaDefinitions(),
    ...appsDefinitions(),
    ...batchDefinitions(),
    ...autoscalingEventsDefinitions(),
    ...apiextensionsDefinitions(),
    ...accessDefinitions(),
  };
  for (const type of RESOURCE_TYPES) {
    const gvk = { group: type.group, version: type.version, kind: type.kind };
    all[`${conventionalName(type.group, type.version, type.kind)}List`] = listKind(gvk, conventionalName(type.group, type.version, type.kind));
  }
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

let cached: { definitions: Record<string, Schema>; byGvk: Map<string, string> } | undefined;

function state(): { definitions: Record<string, Schema>; byGvk: Map<string, string> } {
  if (!cached) {
    const built = build();
    const byGvk = new Map<string, string>();
    for (const [name, schema] of Object.entries(built)) {
      const gvks = schema['x-kubernetes-group-version-kind'] as GroupVersionKind[] | undefined;
      // DeleteOptions and WatchEvent carry one GVK per group; the kinds themselves carry one.
      if (gvks && gvks.length === 1 && gvks[0]) byGvk.set(gvkKey(gvks[0]), name);
    }
    cached = { definitions: built, byGvk };
  }
  return cached;
}

/**
 * All definitions keyed by upstream name (`io.k8s.api.apps.v1.Deployment`,
 * `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`...), sorted by name as kube-apiserver
 * serves them. The object is shared: callers must not mutate it.
 */
export function definitions(): Record<string, Schema> {
  return state().definitions;
}

/**
 * The definition name for a group/version/kind: the definition tagged with that GVK when one
 * is published (so `('', 'v1', 'Status')` gives the meta.k8s.io Status), else the name
 * Kubernetes' generator would use (`io.k8s.api.<package>.<version>.<Kind>`).
 */
export function definitionNameFor(group: string, version: string, kind: string): string {
  return state().byGvk.get(gvkKey({ group, version, kind })) ?? conventionalName(group, version, kind);
}
