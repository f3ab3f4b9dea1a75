/**
 * Which kinds a context does not watch, in the spirit of Argo CD's `resource.exclusions`: rules
 * of API groups and kinds with `*` wildcards, stored per context in Settings. Platform-free, so
 * Settings (renderer) and the discovery registry (engine) read the same rules.
 */
import { z } from 'zod';
import type { GroupKind } from './kinds.ts';

/** Letters, digits, `.`, `-` and `*`: what a group or kind name (or a pattern of one) may hold. */
const PATTERN = /^[A-Za-z0-9.*-]*$/;

const patternList = (what: string) =>
  z
    .array(z.string().regex(PATTERN, { message: `${what} patterns hold letters, digits, ".", "-" and "*" only` }))
    .min(1, { message: `list at least one ${what} (use "*" for every one)` });

/**
 * One exclusion rule: every kind whose group matches one of `apiGroups` and whose kind matches
 * one of `kinds` is excluded. `*` matches any run of characters (`*.cilium.io`, `*`); `""` in
 * `apiGroups` is the core group.
 */
export const KindExclusionSchema = z.object({
  apiGroups: patternList('API group'),
  kinds: patternList('kind'),
});
export type KindExclusion = z.infer<typeof KindExclusionSchema>;

/** A context's exclusion rules, as Settings stores them. */
export const KindExclusionListSchema = z.array(KindExclusionSchema);
export type KindExclusionList = z.infer<typeof KindExclusionListSchema>;

/**
 * The rules a context starts with: Leases (every node and controller renews one every few
 * seconds), EndpointSlices and core Endpoints (one write per pod readiness change) are high-churn and no view
 * draws them. A user who wants them removes the rule.
 */
export const DEFAULT_KIND_EXCLUSIONS: KindExclusionList = [
  { apiGroups: ['coordination.k8s.io'], kinds: ['Lease'] },
  { apiGroups: ['discovery.k8s.io'], kinds: ['EndpointSlice'] },
  { apiGroups: [''], kinds: ['Endpoints'] },
];

/** Compiled patterns: the registry checks every kind (hundreds with many CRDs) against every rule on each rebuild. */
const compiled = new Map<string, RegExp>();

function globToRegExp(pattern: string): RegExp {
  let regexp = compiled.get(pattern);
  if (!regexp) {
    const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\-]/g, '\\$&'));
    regexp = new RegExp(`^${escaped.join('.*')}$`);
    compiled.set(pattern, regexp);
  }
  return regexp;
}

/** Whether `value` matches a `*` pattern; without a `*` the match is exact. */
export function matchesPattern(pattern: string, value: string): boolean {
  return pattern.includes('*') ? globToRegExp(pattern).test(value) : pattern === value;
}

/** Whether one rule excludes a kind. */
export function exclusionMatches(rule: KindExclusion, gk: GroupKind): boolean {
  return rule.apiGroups.some((g) => matchesPattern(g, gk.group)) && rule.kinds.some((k) => matchesPattern(k, gk.kind));
}

/** The first rule that excludes a kind, or undefined. */
export function findExclusion(rules: readonly KindExclusion[], gk: GroupKind): KindExclusion | undefined {
  return rules.find((rule) => exclusionMatches(rule, gk));
}

/** A rule as one line for a message: `coordination.k8s.io/Lease`, `*.cilium.io/*`. */
export function describeExclusion(rule: KindExclusion): string {
  const groups = rule.apiGroups.map((g) => (g === '' ? 'core' : g)).join(',');
  return `${groups}/${rule.kinds.join(',')}`;
}

/**
 * A context's rules as stored, validated; `undefined` (nothing stored yet) means the defaults.
 * Throws with every problem named when the stored value is malformed.
 */
export function exclusionsOrDefault(stored: unknown): KindExclusionList {
  if (stored === undefined) return DEFAULT_KIND_EXCLUSIONS;
  const parsed = KindExclusionListSchema.safeParse(stored);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'rules'}: ${issue.message}`);
  throw new Error(`Invalid kind exclusion rules: ${problems.join('; ')}`);
}
