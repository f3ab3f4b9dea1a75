/**
 * Whether a PolicyRule covers a request, with the matching rules of kube-apiserver's RBAC
 * authorizer (rbac/v1 helpers): `*` wildcards for verbs, groups, resources and URLs,
 * `*\/<subresource>` for one subresource of any resource, an empty resourceNames list for any
 * name, and `/prefix/*` non-resource URLs.
 */
import type { PolicyRule, RequestAttributes } from './types.ts';

const ALL = '*';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** `resource` is `pods` or, for a subresource request, `pods/log` with `subresource` = `log`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some((r) => r === ALL || r === combined || (subresource !== '' && r === `*/${subresource}`));
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((url) => url === ALL || url === path || (url.endsWith(ALL) && path.startsWith(url.replace(/\*+$/, ''))));
}

/** RBAC's RuleAllows: resource requests match verbs, groups, resources and names; others verbs and URLs. */
export function ruleAllows(rule: PolicyRule, attributes: RequestAttributes): boolean {
  if (!attributes.resourceRequest) return verbMatches(rule, attributes.verb) && nonResourceUrlMatches(rule, attributes.path);
  const combined = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  return (
    verbMatches(rule, attributes.verb) &&
    apiGroupMatches(rule, attributes.apiGroup) &&
    resourceMatches(rule, combined, attributes.subresource) &&
    resourceNameMatches(rule, attributes.name)
  );
}
