/**
 * The access checks' reviews grouped for the Diagnostics screen: one group for the cluster scope
 * (who am I, the cluster-wide access reviews, the namespace and RoleBinding lists) and one per
 * namespace, each with its rules review's answer, the access reviews that confirmed (or denied)
 * the kinds it picked, and what the check concluded there.
 */
import type { AccessReview, AccessSummary, NamespaceAccess } from '../../../shared/access.ts';

/** One scope's reviews. */
export interface ReviewGroup {
  /** null: the cluster scope. */
  namespace: string | null;
  /** The namespace's outcome, when it was a candidate. */
  outcome: Pick<NamespaceAccess, 'state' | 'kinds' | 'message'> | undefined;
  /** The SelfSubjectRulesReview's answer (namespaces only): kinds it picked, or its failure. */
  rules: AccessReview | undefined;
  /** SelfSubjectAccessReviews: allowed and denied questions (`list pods`). */
  allowed: string[];
  denied: AccessReview[];
  /** SelfSubjectReview and lists. */
  other: AccessReview[];
}

/** Groups `summary.reviews` by scope: the cluster first, then the namespaces where something is visible, those whose review failed, the rest; by name within each. */
export function reviewGroups(summary: AccessSummary | null): ReviewGroup[] {
  if (!summary) return [];
  const groups = new Map<string | null, ReviewGroup>();
  const outcomes = new Map(summary.checked.map((entry) => [entry.name, entry]));
  const group = (namespace: string | null): ReviewGroup => {
    let found = groups.get(namespace);
    if (!found) {
      const outcome = namespace === null ? undefined : outcomes.get(namespace);
      found = { namespace, outcome: outcome ? { state: outcome.state, kinds: outcome.kinds, ...(outcome.message ? { message: outcome.message } : {}) } : undefined, rules: undefined, allowed: [], denied: [], other: [] };
      groups.set(namespace, found);
    }
    return found;
  };
  group(null);
  for (const review of summary.reviews) {
    const target = group(review.namespace);
    if (review.review === 'SelfSubjectRulesReview') target.rules = review;
    else if (review.review === 'SelfSubjectAccessReview') {
      if (review.allowed) target.allowed.push(review.question);
      else target.denied.push(review);
    } else target.other.push(review);
  }
  // A candidate namespace whose reviews were left out still shows its outcome.
  for (const entry of summary.checked) group(entry.name);
  const RANK: Record<string, number> = { watched: 1, error: 2 };
  const rank = (g: ReviewGroup): number => (g.namespace === null ? 0 : (RANK[g.outcome?.state ?? ''] ?? 3));
  return [...groups.values()].sort((a, b) => rank(a) - rank(b) || (a.namespace ?? '').localeCompare(b.namespace ?? ''));
}

/** "list", "list and watch", "get, list and watch". */
function verbsText(verbs: readonly string[]): string {
  return verbs.length < 2 ? (verbs[0] ?? '') : `${verbs.slice(0, -1).join(', ')} and ${verbs.at(-1)}`;
}

/**
 * Access reviews' questions ("list pods", "watch pods", …) as one phrase, each resource named
 * once with the verbs asked of it: "list and watch pods, services; list namespaces". A
 * restricted user's cluster scope has dozens of them, every kind asked twice; written one by one
 * they made a paragraph that named each kind twice. Resources asked the same verbs share a
 * clause, in the order they were asked; a question of another shape stays as it is.
 */
export function questionsText(questions: readonly string[]): string {
  const verbsOf = new Map<string, string[]>();
  const odd: string[] = [];
  for (const question of questions) {
    const space = question.indexOf(' ');
    if (space <= 0 || space === question.length - 1 || question.includes(' ', space + 1)) {
      odd.push(question);
      continue;
    }
    const verb = question.slice(0, space);
    const resource = question.slice(space + 1);
    const verbs = verbsOf.get(resource) ?? [];
    if (!verbs.includes(verb)) verbs.push(verb);
    verbsOf.set(resource, verbs);
  }
  const clauses = new Map<string, string[]>();
  for (const [resource, verbs] of verbsOf) {
    const key = verbsText(verbs);
    clauses.set(key, [...(clauses.get(key) ?? []), resource]);
  }
  return [...[...clauses].map(([verbs, resources]) => `${verbs} ${resources.join(', ')}`), ...odd].join('; ');
}
