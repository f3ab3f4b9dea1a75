/**
 * rbac.authorization.k8s.io/v1 (Role, ClusterRole, their bindings), core/v1 ServiceAccount and
 * the create-only review kinds of authorization.k8s.io/v1 and authentication.k8s.io/v1.
 */
import { ATOMIC, ATOMIC_MAP, CORE, LABEL_SELECTOR, TIME, arr, bool, int64, kind, map, obj, ref, str, strs, type Schema } from './schema.ts';

const RBAC = 'io.k8s.api.rbac.v1.';
const AUTHZ = 'io.k8s.api.authorization.v1.';
const AUTHN = 'io.k8s.api.authentication.v1.';
const RBAC_GVK = (k: string) => ({ group: 'rbac.authorization.k8s.io', kind: k, version: 'v1' });

function rbacDefinitions(): Record<string, Schema> {
  const rules = arr(ref(`${RBAC}PolicyRule`), 'Rules holds all the PolicyRules for this Role', ATOMIC);
  const subjects = arr(ref(`${RBAC}Subject`), 'Subjects holds references to the objects the role applies to.', ATOMIC);
  const roleRef = ref(`${RBAC}RoleRef`, 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.');
  return {
    [`${RBAC}AggregationRule`]: obj('AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole', {
      clusterRoleSelectors: arr(ref(LABEL_SELECTOR), "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added", ATOMIC),
    }),
    [`${RBAC}ClusterRole`]: kind(RBAC_GVK('ClusterRole'), 'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.', {
      aggregationRule: ref(`${RBAC}AggregationRule`, 'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.'),
      rules,
    }),
    [`${RBAC}ClusterRoleBinding`]: kind(RBAC_GVK('ClusterRoleBinding'), 'ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.', { roleRef, subjects }, ['roleRef']),
    [`${RBAC}PolicyRule`]: obj(
      'PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.',
      {
        apiGroups: strs('APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.', ATOMIC),
        nonResourceURLs: strs('NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.', ATOMIC),
        resourceNames: strs('ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.', ATOMIC),
        resources: strs("Resources is a list of resources this rule applies to. '*' represents all resources.", ATOMIC),
        verbs: strs("Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.", ATOMIC),
      },
      { required: ['verbs'] },
    ),
    [`${RBAC}Role`]: kind(RBAC_GVK('Role'), 'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.', { rules }),
    [`${RBAC}RoleBinding`]: kind(
      RBAC_GVK('RoleBinding'),
      'RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.',
      { roleRef, subjects },
      ['roleRef'],
    ),
    [`${RBAC}RoleRef`]: obj('RoleRef contains information that points to the role being used', {
      apiGroup: str('APIGroup is the group for the resource being referenced'),
      kind: str('Kind is the type of resource being referenced'),
      name: str('Name is the name of resource being referenced'),
    }, { required: ['apiGroup', 'kind', 'name'], extra: ATOMIC_MAP }),
    [`${RBAC}Subject`]: obj('Subject contains a reference to the object or user identities a role binding applies to.', {
      apiGroup: str('APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.k8s.io" for User and Group subjects.'),
      kind: str('Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount".'),
      name: str('Name of the object being referenced.'),
      namespace: str('Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.'),
    }, { required: ['kind', 'name'], extra: ATOMIC_MAP }),
  };
}

function serviceAccountDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}ServiceAccount`]: kind({ group: '', kind: 'ServiceAccount', version: 'v1' }, 'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets', {
      automountServiceAccountToken: bool('AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.'),
      imagePullSecrets: arr(ref(`${CORE}LocalObjectReference`), 'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.', ATOMIC),
      secrets: arr(ref(`${CORE}ObjectReference`), 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.', { 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' }),
    }),
  };
}

function reviewDefinitions(): Record<string, Schema> {
  const status = ref(`${AUTHZ}SubjectAccessReviewStatus`, 'Status is filled in by the server and indicates whether the request is allowed or not');
  return {
    [`${AUTHZ}NonResourceAttributes`]: obj('NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface', {
      path: str('Path is the URL path of the request'),
      verb: str('Verb is the standard HTTP verb'),
    }),
    [`${AUTHZ}NonResourceRule`]: obj('NonResourceRule holds information that describes a rule for the non-resource', {
      nonResourceURLs: strs('NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  "*" means all.', ATOMIC),
      verbs: strs('Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.', ATOMIC),
    }, { required: ['verbs'] }),
    [`${AUTHZ}ResourceAttributes`]: obj('ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface', {
      group: str('Group is the API Group of the Resource.  "*" means all.'),
      name: str('Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.'),
      namespace: str('Namespace is the namespace of the action being requested.'),
      resource: str('Resource is one of the existing resource types.  "*" means all.'),
      subresource: str('Subresource is one of the existing resource types.  "" means none.'),
      verb: str('Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.'),
      version: str('Version is the API Version of the Resource.  "*" means all.'),
    }),
    [`${AUTHZ}ResourceRule`]: obj('ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn\'t significant, may contain duplicates, and possibly be incomplete.', {
      apiGroups: strs('APIGroups is the name of the APIGroup that contains the resources.  "*" means all.', ATOMIC),
      resourceNames: strs('ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.', ATOMIC),
      resources: strs('Resources is a list of resources this rule applies to.  "*" means all in the specified apiGroups.', ATOMIC),
      verbs: strs('Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.', ATOMIC),
    }, { required: ['verbs'] }),
    [`${AUTHZ}SelfSubjectAccessReview`]: kind({ group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview', version: 'v1' }, 'SelfSubjectAccessReview checks whether or the current user can perform an action.', { spec: ref(`${AUTHZ}SelfSubjectAccessReviewSpec`, 'Spec holds information about the request being evaluated.'), status }, ['spec']),
    [`${AUTHZ}SelfSubjectAccessReviewSpec`]: obj('SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set', {
      nonResourceAttributes: ref(`${AUTHZ}NonResourceAttributes`, 'NonResourceAttributes describes information for a non-resource access request'),
      resourceAttributes: ref(`${AUTHZ}ResourceAttributes`, 'ResourceAuthorizationAttributes describes information for a resource access request'),
    }),
    [`${AUTHZ}SelfSubjectRulesReview`]: kind({ group: 'authorization.k8s.io', kind: 'SelfSubjectRulesReview', version: 'v1' }, 'SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace.', {
      spec: ref(`${AUTHZ}SelfSubjectRulesReviewSpec`, 'Spec holds information about the request being evaluated.'),
      status: ref(`${AUTHZ}SubjectRulesReviewStatus`, 'Status is filled in by the server and indicates the set of actions a user can perform.'),
    }, ['spec']),
    [`${AUTHZ}SelfSubjectRulesReviewSpec`]: obj('SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview.', { namespace: str('Namespace to evaluate rules for. Required.') }),
    [`${AUTHZ}SubjectAccessReview`]: kind({ group: 'authorization.k8s.io', kind: 'SubjectAccessReview', version: 'v1' }, 'SubjectAccessReview checks whether or not a user or group can perform an action.', { spec: ref(`${AUTHZ}SubjectAccessReviewSpec`, 'Spec holds information about the request being evaluated'), status }, ['spec']),
    [`${AUTHZ}SubjectAccessReviewSpec`]: obj('SubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set', {
      extra: map('Extra corresponds to the user.Info.GetExtra() method from the authenticator.', { type: 'array', items: { type: 'string' } }),
      groups: strs("Groups is the groups you're testing for.", ATOMIC),
      nonResourceAttributes: ref(`${AUTHZ}NonResourceAttributes`, 'NonResourceAttributes describes information for a non-resource access request'),
      resourceAttributes: ref(`${AUTHZ}ResourceAttributes`, 'ResourceAuthorizationAttributes describes information for a resource access request'),
      uid: str('UID information about the requesting user.'),
      user: str('User is the user you\'re testing for. If you specify "User" but not "Groups", then is it interpreted as "What if User were not a member of any groups'),
    }),
    [`${AUTHZ}SubjectAccessReviewStatus`]: obj('SubjectAccessReviewStatus', {
      allowed: bool('Allowed is required. True if the action would be allowed, false otherwise.'),
      denied: bool('Denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.'),
      evaluationError: str('EvaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.'),
      reason: str('Reason is optional.  It indicates why a request was allowed or denied.'),
    }, { required: ['allowed'] }),
    [`${AUTHZ}SubjectRulesReviewStatus`]: obj('SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete depending on the set of authorizers the server is configured with and any errors experienced during evaluation.', {
      evaluationError: str("EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete."),
      incomplete: bool("Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation."),
      nonResourceRules: arr(ref(`${AUTHZ}NonResourceRule`), "NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.", ATOMIC),
      resourceRules: arr(ref(`${AUTHZ}ResourceRule`), "ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.", ATOMIC),
    }, { required: ['resourceRules', 'nonResourceRules', 'incomplete'] }),
    [`${AUTHN}SelfSubjectReview`]: kind({ group: 'authentication.k8s.io', kind: 'SelfSubjectReview', version: 'v1' }, 'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request.', {
      status: ref(`${AUTHN}SelfSubjectReviewStatus`, 'Status is filled in by the server with the user attributes.'),
    }),
    [`${AUTHN}SelfSubjectReviewStatus`]: obj('SelfSubjectReviewStatus is filled by the kube-apiserver and sent back to a user.', { userInfo: ref(`${AUTHN}UserInfo`, 'User attributes of the user making this request.') }),
    [`${AUTHN}TokenRequest`]: kind({ group: 'authentication.k8s.io', kind: 'TokenRequest', version: 'v1' }, 'TokenRequest requests a token for a given service account.', {
      spec: ref(`${AUTHN}TokenRequestSpec`, 'Spec holds information about the request being evaluated'),
      status: ref(`${AUTHN}TokenRequestStatus`, 'Status is filled in by the server and indicates whether the token can be authenticated.'),
    }, ['spec']),
    [`${AUTHN}TokenRequestSpec`]: obj('TokenRequestSpec contains client provided parameters of a token request.', {
      audiences: strs('Audiences are the intendend audiences of the token. A recipient of a token must identify themself with an identifier in the list of audiences of the token, and otherwise should reject the token.', ATOMIC),
      expirationSeconds: int64('ExpirationSeconds is the requested duration of validity of the request. The token issuer may return a token with a different validity duration so a client needs to check the \'expiration\' field in a response.'),
    }, { required: ['audiences'] }),
    [`${AUTHN}TokenRequestStatus`]: obj('TokenRequestStatus is the result of a token request.', {
      expirationTimestamp: ref(TIME, 'ExpirationTimestamp is the time of expiration of the returned token.'),
      token: str('Token is the opaque bearer token.'),
    }, { required: ['token', 'expirationTimestamp'] }),
    [`${AUTHN}UserInfo`]: obj('UserInfo holds the information about the user needed to implement the user.Info interface.', {
      extra: map('Any additional information provided by the authenticator.', { type: 'array', items: { type: 'string' } }),
      groups: strs('The names of groups this user is a part of.', ATOMIC),
      uid: str('A unique value that identifies this user across time. If this user is deleted and another user by the same name is added, they will have different UIDs.'),
      username: str('The name that uniquely identifies this user among all active users.'),
    }),
  };
}

/** Every definition of this module, keyed by upstream name. */
export function accessDefinitions(): Record<string, Schema> {
  return { ...rbacDefinitions(), ...serviceAccountDefinitions(), ...reviewDefinitions() };
}
