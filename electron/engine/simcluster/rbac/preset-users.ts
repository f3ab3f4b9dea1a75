/**
 * Kubeconfig users with preset roles, so a restricted user can be tried by hand (`kubedrift sim
 * --user dev=view:shop,payments`) and the demo has one: each user gets a bearer token and, on a
 * TLS server, a client certificate, and the bindings of its role — RoleBindings in the listed
 * namespaces, or one ClusterRoleBinding when none are listed. `none` binds nothing: the user has
 * only what every authenticated user has (discovery and the self-reviews).
 *
 * A user bound in namespaces (`restrictedPresetUser`) is set up as the demo's developer and as
 * company clusters usually set up a developer: it may also list and watch the namespaces
 * themselves (the `namespace-viewer` ClusterRole), and its kubeconfig context points at the
 * first of its namespaces.
 */
import { randomBytes } from 'node:crypto';
import type { ObjectStore } from '../store.ts';
import type { AccessControl } from './access-control.ts';
import { grantNamespaceViewer } from './namespace-viewer.ts';
import { RBAC_GROUP } from './types.ts';

export const PRESET_ROLES = ['cluster-admin', 'admin', 'edit', 'view', 'none'] as const;
export type PresetRole = (typeof PRESET_ROLES)[number];

/** A user to add to the simulated cluster. */
export interface PresetUser {
  name: string;
  role: PresetRole;
  /** Namespaces the role applies in; none: cluster-wide. */
  namespaces?: readonly string[];
  /** Groups besides system:authenticated (in the token table and the certificate's O). */
  groups?: readonly string[];
  /** Also bind the `namespace-viewer` ClusterRole (list and watch namespaces). */
  namespaceViewer?: boolean;
  /** The namespace of the user's kubeconfig context. */
  contextNamespace?: string;
}

const USER_NAME = /^[a-z0-9]([-a-z0-9.@]*[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Parses `NAME=ROLE[:ns1,ns2]`; throws a message that says what is wrong. */
export function parseUserFlag(text: string): PresetUser {
  const match = /^([^=]+)=([^:]+)(?::(.*))?$/.exec(text.trim());
  if (!match) throw new Error(`--user must look like NAME=ROLE or NAME=ROLE:ns1,ns2 (ROLE one of ${PRESET_ROLES.join(', ')}), got "${text}"`);
  const [, name = '', role = '', list] = match;
  if (!USER_NAME.test(name)) throw new Error(`--user ${text}: "${name}" is not a user name (lower-case letters, digits, '-', '.', '@')`);
  if (!(PRESET_ROLES as readonly string[]).includes(role)) throw new Error(`--user ${text}: unknown role "${role}" (one of ${PRESET_ROLES.join(', ')})`);
  const namespaces = list === undefined ? [] : list.split(',').map((ns) => ns.trim());
  const bad = namespaces.find((ns) => !NAMESPACE.test(ns));
  if (bad !== undefined) throw new Error(`--user ${text}: "${bad}" is not a namespace name`);
  if (role === 'none' && namespaces.length > 0) throw new Error(`--user ${text}: the role "none" takes no namespaces`);
  return { name, role: role as PresetRole, ...(namespaces.length ? { namespaces } : {}) };
}

/**
 * The user as `kubedrift sim --user` and the demo set it up: one bound in namespaces may also list
 * the namespaces and its context namespace is the first of them; other users are unchanged.
 */
export function restrictedPresetUser(user: PresetUser): PresetUser {
  const first = user.namespaces?.[0];
  return first === undefined ? user : { namespaceViewer: true, contextNamespace: first, ...user };
}

/** The name of a preset user's bindings: `<user>-<role>`. */
export function bindingName(user: PresetUser): string {
  return `${user.name}-${user.role}`;
}

/** Creates the user's RoleBindings or ClusterRoleBinding (and its namespace-viewer binding); every namespace must exist. */
export function bindPresetUser(store: ObjectStore, user: PresetUser): void {
  bindRole(store, user);
  if (user.namespaceViewer) grantNamespaceViewer(store, user.name);
}

function bindRole(store: ObjectStore, user: PresetUser): void {
  if (user.role === 'none') return;
  const rbac = (plural: string) => {
    const type = store.types.byGVR(RBAC_GROUP, 'v1', plural);
    if (!type) throw new Error(`the simulated cluster does not serve ${plural}.${RBAC_GROUP}`);
    return type;
  };
  const namespaceType = store.types.byGVR('', 'v1', 'namespaces');
  const existing = namespaceType ? store.all(namespaceType).map((ns) => ns.metadata.name) : [];
  const body = {
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: user.role },
    subjects: [{ apiGroup: RBAC_GROUP, kind: 'User', name: user.name }],
  };
  const namespaces = user.namespaces ?? [];
  if (namespaces.length === 0) {
    store.create(rbac('clusterrolebindings'), { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRoleBinding', metadata: { name: bindingName(user) }, ...body });
    return;
  }
  for (const namespace of namespaces) {
    if (!existing.includes(namespace)) throw new Error(`user ${user.name}: namespace "${namespace}" does not exist (there are ${existing.join(', ')})`);
    store.create(rbac('rolebindings'), { apiVersion: `${RBAC_GROUP}/v1`, kind: 'RoleBinding', metadata: { name: bindingName(user), namespace }, ...body });
  }
}

/** A user's credentials: always a token, and a client certificate on a TLS server. */
export interface UserCredentials {
  user: PresetUser;
  token: string;
  certificate?: { certPem: string; keyPem: string };
}

/** Binds the user and registers its token (and certificate) with the server. */
export async function addPresetUser(options: {
  store: ObjectStore;
  access: AccessControl;
  user: PresetUser;
  clientCertificate?: (user: string, groups: readonly string[]) => Promise<{ certPem: string; keyPem: string }>;
}): Promise<UserCredentials> {
  const { user } = options;
  bindPresetUser(options.store, user);
  const token = `kubedrift-${user.name.replace(/[^a-z0-9-]/g, '-')}-${randomBytes(16).toString('hex')}`;
  options.access.addTokenUser(token, { name: user.name, groups: [...(user.groups ?? [])] });
  const certificate = options.clientCertificate ? await options.clientCertificate(user.name, user.groups ?? []) : undefined;
  return { user, token, ...(certificate ? { certificate } : {}) };
}
