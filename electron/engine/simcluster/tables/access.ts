/**
 * The Tables kube-apiserver prints for ServiceAccounts and the RBAC kinds
 * (pkg/printers/internalversion): roles show when they were created, bindings their role and,
 * with `-o wide`, their users, groups and ServiceAccounts.
 */
import type { KubeObject } from '../types.ts';
import { since } from './duration.ts';
import type { TableCell, TableColumnDefinition } from './types.ts';

// Own copies of the name and age docs: columns.ts imports this module, so importing it back would be a cycle.
const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const column = (name: string, type: TableColumnDefinition['type'], description: string, priority = 0, format = ''): TableColumnDefinition => ({ name, type, format, description, priority });

const ROLE_COLUMNS = [column('Name', 'string', NAME_DOC, 0, 'name'), column('Created At', 'date', AGE_DOC)];
const BINDING_COLUMNS = [
  column('Name', 'string', NAME_DOC, 0, 'name'),
  column('Role', 'string', 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.'),
  column('Age', 'string', AGE_DOC),
  column('Users', 'string', 'Users in the roleBinding', 1),
  column('Groups', 'string', 'Groups in the roleBinding', 1),
  column('ServiceAccounts', 'string', 'ServiceAccounts in the roleBinding', 1),
];
const SERVICE_ACCOUNT_COLUMNS = [column('Name', 'string', NAME_DOC, 0, 'name'), column('Secrets', 'string', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), column('Age', 'string', AGE_DOC)];

/** Column definitions by kind, for columns.ts. */
export const ACCESS_COLUMNS: Record<string, TableColumnDefinition[]> = {
  Role: ROLE_COLUMNS,
  ClusterRole: ROLE_COLUMNS,
  RoleBinding: BINDING_COLUMNS,
  ClusterRoleBinding: BINDING_COLUMNS,
  ServiceAccount: SERVICE_ACCOUNT_COLUMNS,
};

interface BindingView {
  metadata: KubeObject['metadata'];
  roleRef?: { kind?: string; name?: string };
  subjects?: Array<{ kind?: string; name?: string; namespace?: string }>;
}

function bindingRow(binding: BindingView, now: number): TableCell[] {
  const subjects = binding.subjects ?? [];
  const names = (kind: string) => subjects.filter((s) => s.kind === kind).map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}:${s.name ?? ''}` : (s.name ?? '')));
  return [
    binding.metadata.name,
    `${binding.roleRef?.kind ?? ''}/${binding.roleRef?.name ?? ''}`,
    since(binding.metadata.creationTimestamp, now),
    names('User').join(', '),
    names('Group').join(', '),
    names('ServiceAccount').join(', '),
  ];
}

/** `Created At` is RFC 3339 in UTC, to the second. */
const roleRow = (object: KubeObject): TableCell[] => [object.metadata.name, object.metadata.creationTimestamp];

/** Row printers by kind, for tables/index.ts. */
export const ACCESS_PRINTERS: Record<string, (object: KubeObject, now: number) => { cells: TableCell[] }> = {
  Role: (object) => ({ cells: roleRow(object) }),
  ClusterRole: (object) => ({ cells: roleRow(object) }),
  RoleBinding: (object, now) => ({ cells: bindingRow(object as unknown as BindingView, now) }),
  ClusterRoleBinding: (object, now) => ({ cells: bindingRow(object as unknown as BindingView, now) }),
  ServiceAccount: (object, now) => ({ cells: [object.metadata.name, ((object['secrets'] as unknown[] | undefined) ?? []).length, since(object.metadata.creationTimestamp, now)] }),
};
