/**
 * The Table kube-apiserver prints for ResourceQuotas (pkg/printers/internalversion's
 * printResourceQuota): NAME, AGE, then REQUEST and LIMIT as `resource: used/hard` pairs, the
 * `limits.*` resources under LIMIT and the rest under REQUEST, in resource-name order.
 */
import type { KubeObject } from '../types.ts';
import { since } from './duration.ts';
import type { TableCell, TableColumnDefinition } from './types.ts';

// Own copies of the name and age docs, as access.ts keeps them: columns.ts imports this module.
const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const column = (name: string, description: string, format = ''): TableColumnDefinition => ({ name, type: 'string', format, description, priority: 0 });

/** Column definitions by kind, for columns.ts. */
export const QUOTA_COLUMNS: Record<string, TableColumnDefinition[]> = {
  ResourceQuota: [
    column('Name', NAME_DOC, 'name'),
    column('Age', AGE_DOC),
    column('Request', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
};

function quotaRow(quota: KubeObject, now: number): TableCell[] {
  const status = (quota['status'] as { hard?: Record<string, string>; used?: Record<string, string> } | undefined) ?? {};
  const request: string[] = [];
  const limit: string[] = [];
  for (const resource of Object.keys(status.hard ?? {}).sort()) {
    const pair = `${resource}: ${status.used?.[resource] ?? '0'}/${status.hard?.[resource] ?? '0'}`;
    (resource.split('.')[0] === 'limits' && resource.includes('.') ? limit : request).push(pair);
  }
  return [quota.metadata.name, since(quota.metadata.creationTimestamp, now), request.join(', '), limit.join(', ')];
}

/** Row printers by kind, for index.ts. */
export const QUOTA_PRINTERS: Record<string, (object: KubeObject, now: number) => { cells: TableCell[] }> = {
  ResourceQuota: (object, now) => ({ cells: quotaRow(object, now) }),
};
