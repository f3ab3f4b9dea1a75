/**
 * The `namespace-viewer` ClusterRole: list and watch the namespaces themselves, and nothing inside
 * them. Platform teams grant it beside a team's RoleBindings so that tools can offer a namespace
 * picker; the demo's developer and `kubedrift sim --user NAME=ROLE:NS,...` users have it.
 */
import type { ObjectStore } from '../store.ts';
import { RBAC_GROUP } from './types.ts';

/** The ClusterRole that lets a user list and watch namespaces, and nothing inside them. */
export const NAMESPACE_VIEWER_ROLE = 'namespace-viewer';

/** Creates the `namespace-viewer` ClusterRole (once) and binds `user` to it cluster-wide (`<user>-namespace-viewer`). */
export function grantNamespaceViewer(store: ObjectStore, user: string): void {
  const rbac = (plural: string) => {
    const type = store.types.byGVR(RBAC_GROUP, 'v1', plural);
    if (!type) throw new Error(`the simulated cluster does not serve ${plural}.${RBAC_GROUP}`);
    return type;
  };
  const roles = rbac('clusterroles');
  if (!store.all(roles).some((role) => role.metadata.name === NAMESPACE_VIEWER_ROLE)) {
    store.create(roles, {
      apiVersion: `${RBAC_GROUP}/v1`,
      kind: 'ClusterRole',
      metadata: { name: NAMESPACE_VIEWER_ROLE },
      rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] }],
    });
  }
  store.create(rbac('clusterrolebindings'), {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: `${user}-${NAMESPACE_VIEWER_ROLE}` },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: NAMESPACE_VIEWER_ROLE },
    subjects: [{ apiGroup: RBAC_GROUP, kind: 'User', name: user }],
  });
}
