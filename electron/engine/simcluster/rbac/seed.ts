/**
 * Writes the default RBAC policy into a store (what kube-apiserver's rbac/bootstrap-roles
 * post-start hook does: create what is missing, leave what exists) and keeps aggregated
 * ClusterRoles (admin, edit, view and any with an aggregationRule) in step with the roles their
 * selectors pick, as the clusterrole-aggregation controller does.
 */
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { defaultClusterRoleBindings, defaultClusterRoles } from './bootstrap-policy.ts';
import { RBAC_GROUP, type PolicyRule } from './types.ts';

interface AggregationRule {
  clusterRoleSelectors?: Array<{ matchLabels?: Record<string, string> }>;
}

function typeOf(store: ObjectStore, plural: string) {
  const type = store.types.byGVR(RBAC_GROUP, 'v1', plural);
  if (!type) throw new Error(`the simulated cluster does not serve ${plural}.${RBAC_GROUP}`);
  return type;
}

function selects(rule: AggregationRule, role: KubeObject): boolean {
  const labels = role.metadata.labels ?? {};
  return (rule.clusterRoleSelectors ?? []).some((selector) => Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value));
}

/** The rules of the roles `rule` selects, by role name, without duplicates (the aggregation controller's order). */
export function aggregatedRules(rule: AggregationRule, roles: readonly KubeObject[], self: string): PolicyRule[] {
  const seen = new Set<string>();
  const out: PolicyRule[] = [];
  const picked = roles.filter((role) => role.metadata.name !== self && selects(rule, role)).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  for (const role of picked) {
    for (const policy of (role['rules'] as PolicyRule[] | undefined) ?? []) {
      const key = JSON.stringify(policy);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(structuredClone(policy));
    }
  }
  return out;
}

/** Re-aggregates every ClusterRole with an aggregationRule until nothing changes (aggregates may nest). */
export function aggregateClusterRoles(store: ObjectStore): void {
  const type = typeOf(store, 'clusterroles');
  for (let round = 0; round < 5; round += 1) {
    let changed = false;
    const roles = store.all(type);
    for (const role of roles) {
      const rule = role['aggregationRule'] as AggregationRule | undefined;
      if (!rule) continue;
      const rules = aggregatedRules(rule, store.all(type), role.metadata.name);
      if (JSON.stringify(rules) === JSON.stringify(role['rules'] ?? [])) continue;
      store.mutate(type, undefined, role.metadata.name, (copy) => {
        copy['rules'] = rules;
      });
      changed = true;
    }
    if (!changed) return;
  }
}

/**
 * Creates the default ClusterRoles and ClusterRoleBindings that are missing, aggregates, and
 * from then on re-aggregates whenever a ClusterRole changes. Returns the unsubscribe function.
 */
export function seedAccessPolicy(store: ObjectStore): () => void {
  const roles = typeOf(store, 'clusterroles');
  const bindings = typeOf(store, 'clusterrolebindings');
  for (const role of defaultClusterRoles() as unknown as KubeObject[]) if (!store.find(roles, undefined, role.metadata.name)) store.create(roles, role);
  for (const binding of defaultClusterRoleBindings() as KubeObject[]) if (!store.find(bindings, undefined, binding.metadata.name)) store.create(bindings, binding);
  aggregateClusterRoles(store);
  let scheduled = false;
  return store.onChange((change) => {
    if (change.resource !== `clusterroles.${RBAC_GROUP}` || scheduled) return;
    // Writes from inside a change listener would reorder the watch stream; aggregate right after.
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      aggregateClusterRoles(store);
    });
  });
}
