/**
 * The demo's restricted user, set up as many company clusters set up a developer: "dev" may view
 * only namespaces `shop` and `payments` (the view ClusterRole bound there), may list and watch the
 * namespaces themselves (a `namespace-viewer` ClusterRole, as platform teams grant so that tools
 * can offer the namespace picker), and the kubeconfig context points at `shop`. So Kubedrift finds
 * the user's namespaces by itself, from the namespace list and the context, and the other
 * namespaces' contents stay forbidden.
 */
import { DEMO_DEV_CONTEXT_NAMESPACE } from '../../../shared/model.ts';
import type { KubeconfigDocument } from './server/kubeconfig.ts';
import type { ObjectStore } from './store.ts';
import type { PresetUser } from './rbac/preset-users.ts';
import { RBAC_GROUP } from './rbac/types.ts';
import { startSimCluster, type SimCluster, type SimClusterOptions } from './index.ts';

/** The demo's developer: view in shop and payments. */
export const DEMO_DEV_USER: PresetUser = { name: 'dev', role: 'view', namespaces: ['shop', 'payments'] };
/** The ClusterRole that lets a user list and watch namespaces, and nothing inside them. */
export const NAMESPACE_VIEWER_ROLE = 'namespace-viewer';

/** Creates the `namespace-viewer` ClusterRole (once) and binds `user` to it cluster-wide. */
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

/** `config` with its (single) context's namespace set. */
export function withContextNamespace(config: KubeconfigDocument, namespace: string): KubeconfigDocument {
  return { ...config, contexts: config.contexts.map((entry) => ({ ...entry, context: { ...entry.context, namespace } })) };
}

/**
 * The demo cluster with its developer: the dev's kubeconfig has the context namespace `shop`.
 * `options` pass through to startSimCluster (tests turn controllers off, pick kubectl's minor).
 */
export async function startDemoWithDeveloper(options: Pick<SimClusterOptions, 'controllers' | 'onError' | 'kubernetesMinor'> = {}): Promise<SimCluster> {
  const cluster = await startSimCluster({ scenario: 'demo', users: [DEMO_DEV_USER], ...options });
  grantNamespaceViewer(cluster.store, DEMO_DEV_USER.name);
  return {
    ...cluster,
    userKubeconfigObject(user: string, contextName?: string): KubeconfigDocument {
      const config = cluster.userKubeconfigObject(user, contextName);
      return user === DEMO_DEV_USER.name ? withContextNamespace(config, DEMO_DEV_CONTEXT_NAMESPACE) : config;
    },
  };
}
