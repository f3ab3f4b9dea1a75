/**
 * The demo's restricted user, set up as many company clusters set up a developer: "dev" may view
 * only namespaces `shop` and `payments` (the view ClusterRole bound there), may list and watch the
 * namespaces themselves (a `namespace-viewer` ClusterRole, as platform teams grant so that tools
 * can offer the namespace picker), and the kubeconfig context points at `shop`. So Kubedrift finds
 * the user's namespaces by itself, from the namespace list and the context, and the other
 * namespaces' contents stay forbidden.
 */
import { restrictedPresetUser, type PresetUser } from './rbac/preset-users.ts';
import { startSimCluster, type SimCluster, type SimClusterOptions } from './index.ts';

/**
 * The demo's developer: view in shop and payments, namespace-viewer, context namespace shop; the
 * same preset as `kubedrift sim --user dev=view:shop,payments` (see restrictedPresetUser).
 */
export const DEMO_DEV_USER: PresetUser = restrictedPresetUser({ name: 'dev', role: 'view', namespaces: ['shop', 'payments'] });
export { grantNamespaceViewer, NAMESPACE_VIEWER_ROLE } from './rbac/namespace-viewer.ts';

/**
 * The demo cluster with its developer: the dev's kubeconfig has the context namespace `shop`.
 * `options` pass through to startSimCluster (tests turn controllers off, pick kubectl's minor).
 */
export async function startDemoWithDeveloper(options: Pick<SimClusterOptions, 'controllers' | 'onError' | 'kubernetesMinor'> = {}): Promise<SimCluster> {
  // The preset carries the namespace-viewer binding and the context namespace (rbac/preset-users.ts).
  return startSimCluster({ scenario: 'demo', users: [DEMO_DEV_USER], ...options });
}
