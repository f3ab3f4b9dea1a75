/**
 * The rbac.authorization.k8s.io/v1 and authorization.k8s.io/v1 shapes the authorizer reads, and
 * the identity and request attributes kube-apiserver's authorizers work with.
 */

/** A PolicyRule of a Role or ClusterRole. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** A binding's subject: a user, a group or a ServiceAccount. */
export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

/** What a binding grants. */
export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole' | string;
  name: string;
}

/** An authenticated (or anonymous) user, as `user.Info`. */
export interface Identity {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** What one request asks to do, as `authorizer.Attributes`. */
export interface RequestAttributes {
  user: Identity;
  verb: string;
  /** True for API resource requests, false for non-resource paths such as /version. */
  resourceRequest: boolean;
  /** The URL path, for non-resource requests. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  /** '' at the cluster scope. */
  namespace: string;
  /** '' when the request names no object. */
  name: string;
}

/** Groups every authenticated user is in, and the ones of the privileged and anonymous users. */
export const AUTHENTICATED_GROUP = 'system:authenticated';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const MASTERS_GROUP = 'system:masters';
export const ANONYMOUS_USER = 'system:anonymous';
export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** `system:serviceaccount:<ns>:<name>`: the user name of a ServiceAccount. */
export function serviceAccountUser(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The groups a ServiceAccount's tokens carry. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, AUTHENTICATED_GROUP];
}
