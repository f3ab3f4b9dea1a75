/**
 * Reading a SelfSubjectRulesReview's rules as RBAC matches them: `*` stands for any verb, group
 * or resource. A rule limited to resourceNames never allows a list or watch of the whole kind,
 * so it counts as not allowing one here.
 */
import type { ResourceRule } from './api.ts';

/** The verbs an informer needs for each kind it watches. */
export const WATCH_VERBS = ['list', 'watch'] as const;

function covers(values: readonly string[], wanted: string): boolean {
  return values.includes('*') || values.includes(wanted);
}

/** Whether some rule allows `verb` on the whole of `group`/`resource`. */
export function rulesAllow(rules: readonly ResourceRule[], verb: string, group: string, resource: string): boolean {
  return rules.some((rule) => rule.resourceNames.length === 0 && covers(rule.verbs, verb) && covers(rule.apiGroups, group) && covers(rule.resources, resource));
}

/** Whether the rules allow both list and watch of a kind. */
export function rulesAllowWatch(rules: readonly ResourceRule[], group: string, resource: string): boolean {
  return WATCH_VERBS.every((verb) => rulesAllow(rules, verb, group, resource));
}
