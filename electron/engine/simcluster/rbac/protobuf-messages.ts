/**
 * Protobuf field numbers (k8s.io/api generated.proto) of the access APIs' request bodies and
 * of the RBAC kinds and ServiceAccount: kubectl's typed clients (`auth can-i`, `auth whoami`,
 * `create token|serviceaccount|role|rolebinding|clusterrole|clusterrolebinding`) send them as
 * application/vnd.kubernetes.protobuf. Merged into server/protobuf-schema.ts.
 */
import type { FieldDef, MessageDef } from '../server/protobuf-schema.ts';

const s = (name: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'string', ...extra });
const strings = (name: string): FieldDef => s(name, { repeated: true });
const m = (name: string, message: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: { message }, ...extra });

/** The messages, by the names server/protobuf.ts looks them up by. */
export const ACCESS_MESSAGES: Readonly<Record<string, MessageDef>> = {
  SelfSubjectAccessReview: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'SelfSubjectAccessReviewSpec'), 3: m('status', 'SubjectAccessReviewStatus') },
  SelfSubjectAccessReviewSpec: { 1: m('resourceAttributes', 'ResourceAttributes', { keep: true }), 2: m('nonResourceAttributes', 'NonResourceAttributes', { keep: true }) },
  SubjectAccessReview: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'SubjectAccessReviewSpec'), 3: m('status', 'SubjectAccessReviewStatus') },
  SubjectAccessReviewSpec: {
    1: m('resourceAttributes', 'ResourceAttributes', { keep: true }),
    2: m('nonResourceAttributes', 'NonResourceAttributes', { keep: true }),
    3: s('user'),
    4: s('groups', { repeated: true }),
    6: s('uid'),
  },
  ResourceAttributes: { 1: s('namespace'), 2: s('verb'), 3: s('group'), 4: s('version'), 5: s('resource'), 6: s('subresource'), 7: s('name') },
  NonResourceAttributes: { 1: s('path'), 2: s('verb') },
  SubjectAccessReviewStatus: { 1: { name: 'allowed', type: 'bool' }, 2: s('reason'), 3: s('evaluationError'), 4: { name: 'denied', type: 'bool' } },
  SelfSubjectRulesReview: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'SelfSubjectRulesReviewSpec'), 3: m('status', 'SubjectRulesReviewStatus') },
  SelfSubjectRulesReviewSpec: { 1: s('namespace') },
  // Sent empty (incomplete: false); the rules lists are the server's to fill in.
  SubjectRulesReviewStatus: { 3: { name: 'incomplete', type: 'bool' }, 4: s('evaluationError') },
  SelfSubjectReview: { 1: m('metadata', 'ObjectMeta'), 2: m('status', 'SelfSubjectReviewStatus') },
  SelfSubjectReviewStatus: { 1: m('userInfo', 'UserInfo') },
  UserInfo: { 1: s('username'), 2: s('uid'), 3: strings('groups') },
  TokenRequest: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'TokenRequestSpec'), 3: m('status', 'TokenRequestStatus') },
  TokenRequestSpec: { 1: s('audiences', { repeated: true }), 3: m('boundObjectRef', 'BoundObjectReference', { keep: true }), 4: { name: 'expirationSeconds', type: 'int64', keep: true } },
  BoundObjectReference: { 1: s('kind'), 2: s('apiVersion'), 3: s('name'), 4: s('uid') },
  TokenRequestStatus: { 1: s('token'), 2: { name: 'expirationTimestamp', type: 'Time' } },
  ServiceAccount: { 1: m('metadata', 'ObjectMeta'), 2: m('secrets', 'ObjectReference', { repeated: true }), 3: m('imagePullSecrets', 'LocalObjectReference', { repeated: true }), 4: { name: 'automountServiceAccountToken', type: 'bool', keep: true } },
  ObjectReference: { 1: s('kind'), 2: s('namespace'), 3: s('name'), 4: s('uid'), 5: s('apiVersion'), 6: s('resourceVersion'), 7: s('fieldPath') },
  Role: { 1: m('metadata', 'ObjectMeta'), 2: m('rules', 'PolicyRule', { repeated: true }) },
  ClusterRole: { 1: m('metadata', 'ObjectMeta'), 2: m('rules', 'PolicyRule', { repeated: true }), 3: m('aggregationRule', 'AggregationRule', { keep: true }) },
  AggregationRule: { 1: m('clusterRoleSelectors', 'LabelSelector', { repeated: true }) },
  PolicyRule: { 1: strings('verbs'), 2: strings('apiGroups'), 3: strings('resources'), 4: strings('resourceNames'), 5: strings('nonResourceURLs') },
  RoleBinding: { 1: m('metadata', 'ObjectMeta'), 2: m('subjects', 'Subject', { repeated: true }), 3: m('roleRef', 'RoleRef') },
  ClusterRoleBinding: { 1: m('metadata', 'ObjectMeta'), 2: m('subjects', 'Subject', { repeated: true }), 3: m('roleRef', 'RoleRef') },
  Subject: { 1: s('kind'), 2: s('apiGroup'), 3: s('name'), 4: s('namespace') },
  RoleRef: { 1: s('apiGroup'), 2: s('kind'), 3: s('name') },
};

/** Root messages by `apiVersion/kind`. */
export const ACCESS_ROOT_MESSAGES: Readonly<Record<string, string>> = {
  'authorization.k8s.io/v1/SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization.k8s.io/v1/SubjectAccessReview': 'SubjectAccessReview',
  'authorization.k8s.io/v1/SelfSubjectRulesReview': 'SelfSubjectRulesReview',
  'authentication.k8s.io/v1/SelfSubjectReview': 'SelfSubjectReview',
  'authentication.k8s.io/v1/TokenRequest': 'TokenRequest',
  'v1/ServiceAccount': 'ServiceAccount',
  'rbac.authorization.k8s.io/v1/Role': 'Role',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'ClusterRole',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'ClusterRoleBinding',
};
