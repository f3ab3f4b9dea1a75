/**
 * The "Watched kinds" card's rules as a user types them: comma-separated API groups and kinds
 * (`*` wildcards; `core` or `""` for the core group), checked with the same schema the engine
 * uses, and each rule as one line of text.
 */
import { DEFAULT_KIND_EXCLUSIONS, exclusionMatches, KindExclusionSchema, type KindExclusion, type KindExclusionList } from '../../../shared/kind-exclusions.ts';
import type { KindEntry } from '../../../shared/discovery.ts';

/** What the two inputs hold. */
export interface ExclusionDraft {
  groups: string;
  kinds: string;
}

/** `core` and `""` both name the core group, whose name is the empty string. */
const CORE_WORDS = new Set(['core', '""', "''"]);

function split(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/**
 * A rule from the inputs, or every reason it is not one ("API groups: ..." / "Kinds: ...").
 * A rule already in `existing` is refused too: it would change nothing.
 */
export function ruleFromDraft(draft: ExclusionDraft, existing: readonly KindExclusion[]): { rule: KindExclusion } | { errors: string[] } {
  const candidate = { apiGroups: split(draft.groups).map((g) => (CORE_WORDS.has(g.toLowerCase()) ? '' : g)), kinds: split(draft.kinds) };
  const parsed = KindExclusionSchema.safeParse(candidate);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => `${issue.path[0] === 'apiGroups' ? 'API groups' : 'Kinds'}: ${issue.message}${issue.path.length > 1 ? ` ("${String(candidate[issue.path[0] as keyof typeof candidate][issue.path[1] as number])}")` : ''}`);
    return { errors: [...new Set(errors)] };
  }
  if (existing.some((rule) => sameRule(rule, parsed.data))) return { errors: ['This rule is already in the list.'] };
  return { rule: parsed.data };
}

export function sameRule(a: KindExclusion, b: KindExclusion): boolean {
  return JSON.stringify([[...a.apiGroups].sort(), [...a.kinds].sort()]) === JSON.stringify([[...b.apiGroups].sort(), [...b.kinds].sort()]);
}

/** Whether a list is the defaults (in any order). */
export function isDefaultList(rules: KindExclusionList): boolean {
  return rules.length === DEFAULT_KIND_EXCLUSIONS.length && rules.every((rule) => DEFAULT_KIND_EXCLUSIONS.some((d) => sameRule(d, rule)));
}

/** A group as the card shows it: the core group by name. */
export const groupLabel = (group: string): string => (group === '' ? 'core' : group);

/** The discovered kinds (keys) a rule matches, so a wildcard's reach shows before it is trusted. */
export function matchedKinds(rule: KindExclusion, kinds: readonly Pick<KindEntry, 'key' | 'ref'>[]): string[] {
  return kinds.filter((entry) => exclusionMatches(rule, entry.ref)).map((entry) => entry.key);
}

/** "matches 2 kinds" (of those the cluster serves). */
export function matchText(count: number): string {
  if (count === 0) return 'matches no served kind';
  return count === 1 ? 'matches 1 kind' : `matches ${count} kinds`;
}
