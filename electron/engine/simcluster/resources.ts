/**
 * The kinds the simulated API server serves, with the discovery facts real servers publish
 * (plural, shortNames, categories, scope, verbs, subresources). These are the built-in kinds;
 * kinds served from CustomResourceDefinitions join them in each store's ResourceRegistry.
 */
import type { CustomResourceInfo } from './crd/types.ts';

export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  /** Lower-case plural, the URL segment. */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  subresources: Array<'status' | 'scale'>;
  /** The kind's object fields besides metadata that are not "spec" for generation purposes. */
  specless?: boolean;
  /** Names need only be valid path segments (no '/', '%', '.' or '..'), as RBAC's are: `system:basic-user`. */
  pathSegmentNames?: boolean;
  /** Set for kinds a CustomResourceDefinition serves: schema, printer columns, scale paths. */
  custom?: CustomResourceInfo;
}

export const STANDARD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function type(
  group: string,
  version: string,
  kind: string,
  plural: string,
  extra: Partial<Pick<ResourceType, 'namespaced' | 'shortNames' | 'categories' | 'subresources' | 'verbs' | 'specless' | 'pathSegmentNames'>> = {},
): ResourceType {
  return {
    group,
    version,
    kind,
    plural,
    singular: kind.toLowerCase(),
    namespaced: extra.namespaced ?? true,
    shortNames: extra.shortNames ?? [],
    categories: extra.categories ?? [],
    verbs: extra.verbs ?? STANDARD_VERBS,
    subresources: extra.subresources ?? [],
    ...(extra.specless ? { specless: true } : {}),
    ...(extra.pathSegmentNames ? { pathSegmentNames: true } : {}),
  };
}

const NAMESPACE_VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

export const RESOURCE_TYPES: readonly ResourceType[] = [
  type('', 'v1', 'Namespace', 'namespaces', { namespaced: false, shortNames: ['ns'], subresources: ['status'], verbs: NAMESPACE_VERBS }),
  type('', 'v1', 'Node', 'nodes', { namespaced: false, shortNames: ['no'], subresources: ['status'] }),
  type('', 'v1', 'Pod', 'pods', { shortNames: ['po'], categories: ['all'], subresources: ['status'] }),
  type('', 'v1', 'Service', 'services', { shortNames: ['svc'], categories: ['all'], subresources: ['status'], verbs: NAMESPACE_VERBS.concat('deletecollection').sort() }),
  type('', 'v1', 'Endpoints', 'endpoints', { shortNames: ['ep'], specless: true }),
  type('', 'v1', 'ConfigMap', 'configmaps', { shortNames: ['cm'], specless: true }),
  type('', 'v1', 'Secret', 'secrets', { specless: true }),
  type('', 'v1', 'Event', 'events', { shortNames: ['ev'], specless: true }),
  type('', 'v1', 'ResourceQuota', 'resourcequotas', { shortNames: ['quota'], subresources: ['status'] }),
  type('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', { shortNames: ['pvc'], subresources: ['status'] }),
  type('events.k8s.io', 'v1', 'Event', 'events', { shortNames: ['ev'], specless: true }),
  type('apps', 'v1', 'Deployment', 'deployments', { shortNames: ['deploy'], categories: ['all'], subresources: ['status', 'scale'] }),
  type('apps', 'v1', 'ReplicaSet', 'replicasets', { shortNames: ['rs'], categories: ['all'], subresources: ['status', 'scale'] }),
  type('apps', 'v1', 'StatefulSet', 'statefulsets', { shortNames: ['sts'], categories: ['all'], subresources: ['status', 'scale'] }),
  type('apps', 'v1', 'DaemonSet', 'daemonsets', { shortNames: ['ds'], categories: ['all'], subresources: ['status'] }),
  // Written by the StatefulSet and DaemonSet controllers (controllers/controller-history.ts); `data` and `revision`, no spec.
  type('apps', 'v1', 'ControllerRevision', 'controllerrevisions', { specless: true }),
  type('batch', 'v1', 'Job', 'jobs', { categories: ['all'], subresources: ['status'] }),
  type('batch', 'v1', 'CronJob', 'cronjobs', { shortNames: ['cj'], categories: ['all'], subresources: ['status'] }),
  type('autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', { shortNames: ['hpa'], categories: ['all'], subresources: ['status'] }),
  type('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', { namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'], subresources: ['status'] }),
  // Access control (rbac/): who is who, what they may do, and the reviews that answer "may I?".
  type('', 'v1', 'ServiceAccount', 'serviceaccounts', { shortNames: ['sa'], specless: true }),
  type('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', { namespaced: false, specless: true, pathSegmentNames: true }),
  type('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', { namespaced: false, specless: true, pathSegmentNames: true }),
  type('rbac.authorization.k8s.io', 'v1', 'Role', 'roles', { specless: true, pathSegmentNames: true }),
  type('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', { specless: true, pathSegmentNames: true }),
  type('authorization.k8s.io', 'v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', { namespaced: false, verbs: ['create'] }),
  type('authorization.k8s.io', 'v1', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', { namespaced: false, verbs: ['create'] }),
  type('authorization.k8s.io', 'v1', 'SubjectAccessReview', 'subjectaccessreviews', { namespaced: false, verbs: ['create'] }),
  type('authentication.k8s.io', 'v1', 'SelfSubjectReview', 'selfsubjectreviews', { namespaced: false, verbs: ['create'] }),
];

/** `plural` for the core group, `plural.group` otherwise: the store's key for a resource. */
export function resourceId(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}

export function apiVersionOf(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

const BY_ID = new Map(RESOURCE_TYPES.map((t) => [resourceId(t), t]));
const BY_GVR = new Map(RESOURCE_TYPES.map((t) => [`${t.group}/${t.version}/${t.plural}`, t]));
const BY_GVK = new Map(RESOURCE_TYPES.map((t) => [`${apiVersionOf(t)}/${t.kind}`, t]));

export function typeById(id: string): ResourceType | undefined {
  return BY_ID.get(id);
}

export function typeByGVR(group: string, version: string, plural: string): ResourceType | undefined {
  return BY_GVR.get(`${group}/${version}/${plural}`);
}

export function typeByApiVersionKind(apiVersion: string, kind: string): ResourceType | undefined {
  return BY_GVK.get(`${apiVersion}/${kind}`);
}

/** The group versions served, in discovery order (core first). */
export function groupVersions(): Array<{ group: string; version: string; types: ResourceType[] }> {
  const out = new Map<string, { group: string; version: string; types: ResourceType[] }>();
  for (const t of RESOURCE_TYPES) {
    const key = `${t.group}/${t.version}`;
    let entry = out.get(key);
    if (!entry) {
      entry = { group: t.group, version: t.version, types: [] };
      out.set(key, entry);
    }
    entry.types.push(t);
  }
  return [...out.values()];
}
