/**
 * Defaulting and validation of the RBAC kinds as kube-apiserver does them (pkg/apis/rbac/v1
 * defaults, pkg/apis/rbac/validation): User and Group subjects default to the RBAC API group;
 * rules need verbs and either resources with API groups or (cluster roles only) non-resource
 * URLs; bindings need a supported roleRef that never changes, and well-formed subjects.
 */
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { at, type FieldErrors } from '../defaults/field-errors.ts';
import { RBAC_GROUP, type PolicyRule, type RoleRef, type Subject } from './types.ts';

const BINDINGS = new Set(['RoleBinding', 'ClusterRoleBinding']);
const ROLES = new Set(['Role', 'ClusterRole']);

/** Whether `type` is one of the four RBAC kinds. */
export function isRbacKind(type: ResourceType): boolean {
  return type.group === RBAC_GROUP && (BINDINGS.has(type.kind) || ROLES.has(type.kind));
}

/** SetDefaults_Subject: a User or Group subject without an API group gets the RBAC group. */
export function defaultRbacObject(object: KubeObject): void {
  for (const subject of (object['subjects'] as Subject[] | undefined) ?? []) {
    if (!subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group')) subject.apiGroup = RBAC_GROUP;
  }
}

/** field.Invalid for a []string value, which Go prints with %#v: `[]string{"/healthz"}`. */
function invalidStrings(errors: FieldErrors, field: string, values: readonly string[], detail: string): void {
  errors.causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: []string{${values.map((v) => JSON.stringify(v)).join(', ')}}: ${detail}` });
}

function validateRule(rule: PolicyRule, path: string, namespaced: boolean, errors: FieldErrors): void {
  if ((rule.verbs ?? []).length === 0) errors.required(at.child(path, 'verbs'), 'verbs must contain at least one value');
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced) invalidStrings(errors, at.child(path, 'nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs');
    if ((rule.apiGroups ?? []).length > 0 || (rule.resources ?? []).length > 0) invalidStrings(errors, at.child(path, 'nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs');
    return;
  }
  if ((rule.apiGroups ?? []).length === 0) errors.required(at.child(path, 'apiGroups'), 'resource rules must supply at least one api group');
  if ((rule.resources ?? []).length === 0) errors.required(at.child(path, 'resources'), 'resource rules must supply at least one resource');
}

function validateSubject(subject: Subject, path: string, namespaced: boolean, errors: FieldErrors): void {
  if (!subject.name) errors.required(at.child(path, 'name'));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.apiGroup) errors.notSupported(at.child(path, 'apiGroup'), subject.apiGroup, ['']);
      if (!namespaced && !subject.namespace) errors.required(at.child(path, 'namespace'));
      break;
    case 'User':
    case 'Group':
      if (subject.apiGroup !== RBAC_GROUP) errors.notSupported(at.child(path, 'apiGroup'), subject.apiGroup ?? '', [RBAC_GROUP]);
      break;
    default:
      errors.notSupported(at.child(path, 'kind'), subject.kind ?? '', ['ServiceAccount', 'User', 'Group']);
  }
}

function validateRoleRef(ref: Partial<RoleRef> | undefined, kinds: readonly string[], errors: FieldErrors): void {
  if (ref?.apiGroup !== RBAC_GROUP) errors.notSupported('roleRef.apiGroup', ref?.apiGroup ?? '', [RBAC_GROUP]);
  if (!kinds.includes(ref?.kind ?? '')) errors.notSupported('roleRef.kind', ref?.kind ?? '', kinds);
  if (!ref?.name) errors.required('roleRef.name');
}

/** The field errors of a Role, ClusterRole, RoleBinding or ClusterRoleBinding (and of its update). */
export function validateRbacObject(type: ResourceType, object: KubeObject, old: KubeObject | undefined, errors: FieldErrors): void {
  if (ROLES.has(type.kind)) {
    const rules = (object['rules'] as PolicyRule[] | undefined) ?? [];
    rules.forEach((rule, i) => validateRule(rule, at.index('rules', i), type.namespaced, errors));
    return;
  }
  const ref = object['roleRef'] as Partial<RoleRef> | undefined;
  validateRoleRef(ref, type.kind === 'RoleBinding' ? ['Role', 'ClusterRole'] : ['ClusterRole'], errors);
  const subjects = (object['subjects'] as Subject[] | undefined) ?? [];
  subjects.forEach((subject, i) => validateSubject(subject, at.index('subjects', i), type.namespaced, errors));
  const oldRef = old?.['roleRef'] as Partial<RoleRef> | undefined;
  if (oldRef && (oldRef.apiGroup !== ref?.apiGroup || oldRef.kind !== ref?.kind || oldRef.name !== ref?.name)) {
    errors.causes.push({
      reason: 'FieldValueInvalid',
      field: 'roleRef',
      message: `Invalid value: rbac.RoleRef{APIGroup:${JSON.stringify(ref?.apiGroup ?? '')}, Kind:${JSON.stringify(ref?.kind ?? '')}, Name:${JSON.stringify(ref?.name ?? '')}}: cannot change roleRef`,
    });
  }
}
