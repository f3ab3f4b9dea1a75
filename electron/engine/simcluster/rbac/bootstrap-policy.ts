/**
 * The default ClusterRoles and ClusterRoleBindings kube-apiserver's RBAC bootstrap writes
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy): the user-facing cluster-admin, admin, edit
 * and view (the last three aggregated from the `system:aggregate-to-*` roles), the discovery,
 * basic-user and public-info-viewer roles every user gets, and their bindings. Only the rules
 * for the simulator's neighbourhood of resources are copied; the roles' names, labels and
 * structure are upstream's.
 */
import type { PolicyRule, Subject } from './types.ts';
import { AUTHENTICATED_GROUP, MASTERS_GROUP, RBAC_GROUP, UNAUTHENTICATED_GROUP } from './types.ts';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ apiGroups, resources, verbs });
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

/** The label a role carries to be aggregated into admin, edit or view. */
export const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view') => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const AGGREGATE_TO_VIEW: PolicyRule[] = [
  rule(READ, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
  rule(READ, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
  rule(READ, [''], ['namespaces']),
  rule(READ, ['discovery.k8s.io'], ['endpointslices']),
  rule(READ, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
  rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
  rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
  rule(READ, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
  rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
  rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
];

const AGGREGATE_TO_EDIT: PolicyRule[] = [
  rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
  rule(['impersonate'], [''], ['serviceaccounts']),
  rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
  rule(['create'], [''], ['pods/eviction']),
  rule(WRITE, [''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(WRITE, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
  rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
  rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
  rule(WRITE, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
  rule(WRITE, ['policy'], ['poddisruptionbudgets']),
  rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
  rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
];

const AGGREGATE_TO_ADMIN: PolicyRule[] = [rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']), rule(READ_WRITE, [RBAC_GROUP], ['rolebindings', 'roles'])];

/** A default ClusterRole: name, extra labels, rules, and the labels it aggregates (if any). */
interface DefaultRole {
  name: string;
  labels?: Record<string, string>;
  rules?: PolicyRule[];
  aggregates?: string;
}

const DEFAULT_ROLES: DefaultRole[] = [
  { name: 'admin', aggregates: AGGREGATE_TO('admin') },
  { name: 'cluster-admin', rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
  { name: 'edit', labels: { [AGGREGATE_TO('admin')]: 'true' }, aggregates: AGGREGATE_TO('edit') },
  { name: 'system:aggregate-to-admin', labels: { [AGGREGATE_TO('admin')]: 'true' }, rules: AGGREGATE_TO_ADMIN },
  { name: 'system:aggregate-to-edit', labels: { [AGGREGATE_TO('edit')]: 'true' }, rules: AGGREGATE_TO_EDIT },
  { name: 'system:aggregate-to-view', labels: { [AGGREGATE_TO('view')]: 'true' }, rules: AGGREGATE_TO_VIEW },
  { name: 'system:auth-delegator', rules: [rule(['create'], ['authentication.k8s.io'], ['tokenreviews']), rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews'])] },
  {
    name: 'system:basic-user',
    rules: [rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']), rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews'])],
  },
  { name: 'system:discovery', rules: [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])] },
  { name: 'system:public-info-viewer', rules: [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])] },
  { name: 'view', labels: { [AGGREGATE_TO('edit')]: 'true' }, aggregates: AGGREGATE_TO('view') },
];

const group = (name: string): Subject => ({ apiGroup: RBAC_GROUP, kind: 'Group', name });

const DEFAULT_BINDINGS: Array<{ name: string; role: string; subjects: Subject[] }> = [
  { name: 'cluster-admin', role: 'cluster-admin', subjects: [group(MASTERS_GROUP)] },
  { name: 'system:basic-user', role: 'system:basic-user', subjects: [group(AUTHENTICATED_GROUP)] },
  { name: 'system:discovery', role: 'system:discovery', subjects: [group(AUTHENTICATED_GROUP)] },
  { name: 'system:public-info-viewer', role: 'system:public-info-viewer', subjects: [group(AUTHENTICATED_GROUP), group(UNAUTHENTICATED_GROUP)] },
];

const BOOTSTRAP_METADATA = {
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
};
const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

/** A ClusterRole object as the store takes it. */
export interface ClusterRoleObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole';
  metadata: { name: string; labels: Record<string, string>; annotations: Record<string, string> };
  rules: PolicyRule[];
  aggregationRule?: { clusterRoleSelectors: Array<{ matchLabels: Record<string, string> }> };
}

/** The default ClusterRoles, aggregated roles still without rules (aggregation.ts fills them in). */
export function defaultClusterRoles(): ClusterRoleObject[] {
  return DEFAULT_ROLES.map((role) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: role.name, labels: { ...BOOTSTRAP_LABELS, ...role.labels }, ...structuredClone(BOOTSTRAP_METADATA) },
    ...(role.aggregates ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [role.aggregates]: 'true' } }] } } : {}),
    rules: structuredClone(role.rules ?? []),
  }));
}

/** The default ClusterRoleBindings. */
export function defaultClusterRoleBindings(): object[] {
  return DEFAULT_BINDINGS.map((binding) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: binding.name, labels: { ...BOOTSTRAP_LABELS }, ...structuredClone(BOOTSTRAP_METADATA) },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: binding.role },
    subjects: structuredClone(binding.subjects),
  }));
}
