/**
 * namespace-controller: a Namespace marked for deletion goes `Terminating`, everything in it is
 * deleted (pods gracefully, the rest with Background propagation), and once it is empty the
 * `kubernetes` finalizer leaves `spec.finalizers`, which lets the store drop the Namespace.
 */
import type { Change } from '../changelog.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { NAMESPACES, PODS } from './kinds.ts';
import { deletePod } from './pods.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';

const COMPONENT = 'namespace-controller';
/** The `spec.finalizers` entry the namespace controller removes once the namespace is empty. */
export const NAMESPACE_FINALIZER = 'kubernetes';
/** Re-check a terminating namespace this often even without a change (pods in grace periods). */
const RECHECK_MS = 2_000;

/** Every namespaced kind the cluster serves now, custom ones included. */
function namespacedTypes(store: ObjectStore) {
  return store.types.all().filter((t) => t.namespaced);
}

function nsKey(name: string): ReconcileKey {
  return { resource: 'namespaces', name };
}

function phaseOf(ns: KubeObject): string | undefined {
  return (ns['status'] as { phase?: string } | undefined)?.phase;
}

/** The namespace-controller; wakes on terminating namespaces and on their content going away. */
export function createNamespaceController(): Controller {
  /** Namespaces being deleted, so removals of their content wake the controller. */
  const terminating = new Set<string>();

  return {
    name: COMPONENT,
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource === 'namespaces') {
        const name = change.object.metadata.name;
        if (change.type === 'DELETED' || !change.object.metadata.deletionTimestamp) {
          terminating.delete(name);
          return [];
        }
        terminating.add(name);
        return [nsKey(name)];
      }
      const namespace = change.object.metadata.namespace;
      return change.type !== 'ADDED' && namespace && terminating.has(namespace) ? [nsKey(namespace)] : [];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      const keys: ReconcileKey[] = [];
      for (const ns of ctx.store.all(NAMESPACES)) {
        if (!ns.metadata.deletionTimestamp) continue;
        terminating.add(ns.metadata.name);
        keys.push(nsKey(ns.metadata.name));
      }
      return keys;
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
      const ns = ctx.store.find(NAMESPACES, undefined, key.name);
      if (!ns || !ns.metadata.deletionTimestamp) return;
      if (phaseOf(ns) !== 'Terminating') {
        ctx.store.mutate(NAMESPACES, undefined, key.name, (copy) => {
          copy['status'] = { ...((copy['status'] as object | undefined) ?? {}), phase: 'Terminating' };
        }, { subresource: 'status' });
      }
      for (const type of namespacedTypes(ctx.store)) {
        for (const object of ctx.store.all(type, key.name)) {
          if (object.metadata.deletionTimestamp) continue;
          if (type === PODS) deletePod(ctx.store, object);
          else ctx.store.delete(type, key.name, object.metadata.name, { propagationPolicy: 'Background' });
        }
      }
      // Pods in their grace period and objects held by finalizers are still on their way out.
      if (namespacedTypes(ctx.store).some((type) => ctx.store.all(type, key.name).length > 0)) return RECHECK_MS;
      ctx.store.mutate(NAMESPACES, undefined, key.name, (copy) => {
        const spec = (copy['spec'] as { finalizers?: string[] } | undefined) ?? {};
        copy['spec'] = { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER) };
      });
    },
  };
}
