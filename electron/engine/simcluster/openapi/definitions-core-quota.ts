/** core/v1 ResourceQuota: hard limits per namespace, and what its pods use of them. */
import { ATOMIC, CORE, QUANTITY, arr, kind, map, obj, ref, str, strs, type Schema } from './schema.ts';

/** The ResourceQuota definitions, as kube-apiserver publishes them. */
export function quotaDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}ResourceQuota`]: kind({ group: '', kind: 'ResourceQuota', version: 'v1' }, 'ResourceQuota sets aggregate quota restrictions enforced per namespace', {
      spec: ref(`${CORE}ResourceQuotaSpec`, 'Spec defines the desired quota. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
      status: ref(`${CORE}ResourceQuotaStatus`, 'Status defines the actual enforced quota and its current usage. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
    }),
    [`${CORE}ResourceQuotaSpec`]: obj('ResourceQuotaSpec defines the desired hard limits to enforce for Quota.', {
      hard: map('hard is the set of desired hard limits for each named resource. More info: https://kubernetes.io/docs/concepts/policy/resource-quotas/', ref(QUANTITY)),
      scopeSelector: ref(`${CORE}ScopeSelector`, 'scopeSelector is also a collection of filters like scopes that must match each object tracked by a quota but expressed using ScopeSelectorOperator in combination with possible values. For a resource to match, both scopes AND scopeSelector (if specified in spec), must be matched.'),
      scopes: strs('A collection of filters that must match each object tracked by a quota. If not specified, the quota matches all objects.', ATOMIC),
    }),
    [`${CORE}ResourceQuotaStatus`]: obj('ResourceQuotaStatus defines the enforced hard limits and observed use.', {
      hard: map('Hard is the set of enforced hard limits for each named resource. More info: https://kubernetes.io/docs/concepts/policy/resource-quotas/', ref(QUANTITY)),
      used: map('Used is the current observed total usage of the resource in the namespace.', ref(QUANTITY)),
    }),
    [`${CORE}ScopeSelector`]: obj('A scope selector represents the AND of the selectors represented by the scoped-resource selector requirements.', {
      matchExpressions: arr(ref(`${CORE}ScopedResourceSelectorRequirement`), 'A list of scope selector requirements by scope of the resources.', ATOMIC),
    }),
    [`${CORE}ScopedResourceSelectorRequirement`]: obj(
      'A scoped-resource selector requirement is a selector that contains values, a scope name, and an operator that relates the scope name and values.',
      {
        operator: str('Represents a scope\'s relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist.'),
        scopeName: str('The name of the scope that the selector applies to.'),
        values: strs('An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.', ATOMIC),
      },
      { required: ['scopeName', 'operator'] },
    ),
  };
}
