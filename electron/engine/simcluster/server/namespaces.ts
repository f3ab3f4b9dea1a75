/**
 * The NamespaceLifecycle admission rules: no objects in a namespace that does not exist, no new
 * objects in one that is being terminated.
 */
import { ApiError, notFound } from '../errors.ts';
import { typeById, type ResourceType } from '../resources.ts';
import type { ObjectStore } from '../store.ts';

const NAMESPACES = typeById('namespaces');

/** 404 when the namespace of a new object does not exist, 403 while it terminates. */
export function ensureNamespaceAcceptsCreate(store: ObjectStore, type: ResourceType, namespace: string | undefined, name: string): void {
  if (!type.namespaced || !namespace || !NAMESPACES) return;
  const ns = store.find(NAMESPACES, undefined, namespace);
  if (!ns) throw notFound('namespaces', '', namespace);
  const phase = (ns['status'] as { phase?: string } | undefined)?.phase;
  if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
    const resource = type.group ? `${type.plural}.${type.group}` : type.plural;
    const subject = name ? `${resource} "${name}"` : resource;
    throw new ApiError(403, 'Forbidden', `${subject} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
      ...(name ? { name } : {}),
      ...(type.group ? { group: type.group } : {}),
      kind: type.plural,
      causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
    });
  }
}
