/**
 * The Table kube-apiserver prints for ControllerRevisions (pkg/printers/internalversion's
 * printControllerRevision): NAME, CONTROLLER (`statefulset.apps/web`, `<none>` without a
 * controller reference), REVISION and AGE.
 */
import type { KubeObject } from '../types.ts';
import { since } from './duration.ts';
import type { TableCell, TableColumnDefinition } from './types.ts';

// Own copies of the name and age docs, as quota.ts keeps them: columns.ts imports this module.
const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const column = (name: string, description: string, format = ''): TableColumnDefinition => ({ name, type: 'string', format, description, priority: 0 });

/** Column definitions by kind, for columns.ts. */
export const HISTORY_COLUMNS: Record<string, TableColumnDefinition[]> = {
  ControllerRevision: [
    column('Name', NAME_DOC, 'name'),
    column('Controller', 'Controller of the object'),
    column('Revision', 'Revision indicates the revision of the state represented by Data.'),
    column('Age', AGE_DOC),
  ],
};

/** formatResourceName with its kind: the lower-cased GroupKind and the name (`statefulset.apps/web`). */
function controllerName(object: KubeObject): string {
  const ref = object.metadata.ownerReferences?.find((owner) => owner.controller === true);
  if (!ref) return '<none>';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  return `${(group ? `${ref.kind}.${group}` : ref.kind).toLowerCase()}/${ref.name}`;
}

function revisionRow(revision: KubeObject, now: number): TableCell[] {
  const number = typeof revision['revision'] === 'number' ? revision['revision'] : 0;
  return [revision.metadata.name, controllerName(revision), number, since(revision.metadata.creationTimestamp, now)];
}

/** Row printers by kind, for index.ts. */
export const HISTORY_PRINTERS: Record<string, (object: KubeObject, now: number) => { cells: TableCell[] }> = {
  ControllerRevision: (object, now) => ({ cells: revisionRow(object, now) }),
};
