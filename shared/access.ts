/**
 * What a context's user may see, as the engine's access checks found it: per kind, whether it is
 * watched cluster-wide, in some namespaces, or hidden by the user's permissions; the namespaces
 * that were checked and why; and the reviews asked, for the Diagnostics screen. Platform-free,
 * so the renderer learns what is hidden from the contract and never guesses.
 */
import { z } from 'zod';

/** A namespace name: a DNS-1123 label, as kube-apiserver validates it. */
export const NamespaceNameSchema = z
  .string()
  .max(63, 'a namespace name is at most 63 characters')
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'a namespace name is lower-case letters, digits and "-", and starts and ends with a letter or digit');

/** More than this many hand-added namespaces is a paste gone wrong, not a team's list. */
export const MAX_ACCESSIBLE_NAMESPACES = 500;

/** The namespaces a user added by hand for one context (the Cluster screen's editor). */
export const AccessibleNamespacesSchema = z
  .array(NamespaceNameSchema)
  .max(MAX_ACCESSIBLE_NAMESPACES, `at most ${MAX_ACCESSIBLE_NAMESPACES} namespaces per context`)
  .refine((names) => new Set(names).size === names.length, 'each namespace may be listed once');
export type AccessibleNamespaces = z.infer<typeof AccessibleNamespacesSchema>;

/** The hand-added namespaces of every context, by context name, as settings remember them. */
export const AccessibleNamespacesByContextSchema = z.record(z.string().min(1), AccessibleNamespacesSchema);
export type AccessibleNamespacesByContext = z.infer<typeof AccessibleNamespacesByContextSchema>;

/** How one kind is watched: cluster-wide, per namespace, or not at all (with why). */
export const KindAccessSchema = z.discriminatedUnion('scope', [
  z.object({ scope: z.literal('cluster') }),
  z.object({ scope: z.literal('namespaces'), namespaces: z.array(NamespaceNameSchema).min(1) }),
  z.object({ scope: z.literal('hidden'), message: z.string().min(1) }),
]);
export type KindAccess = z.infer<typeof KindAccessSchema>;

/** Every checked kind's access, by kind key (`pods`, `deployments.apps`). */
export const AccessPlanSchema = z.record(z.string().min(1), KindAccessSchema);
export type AccessPlan = z.infer<typeof AccessPlanSchema>;

/**
 * Where a candidate namespace came from: the namespace list (or the namespace watch), the
 * kubeconfig context, the user's own list, or a RoleBinding the user can read.
 */
export const NamespaceSourceSchema = z.enum(['namespace-list', 'context', 'user', 'role-bindings']);
export type NamespaceSource = z.infer<typeof NamespaceSourceSchema>;

/**
 * One checked namespace:
 * - `watched`: at least one kind is listed and watched there;
 * - `none`: reviewed, and the user may list and watch nothing there;
 * - `not-found`: the namespace does not exist;
 * - `error`: the review itself failed (the server's message).
 */
export const NamespaceAccessSchema = z.object({
  name: z.string().min(1),
  sources: z.array(NamespaceSourceSchema).min(1),
  state: z.enum(['watched', 'none', 'not-found', 'error']),
  /** Kind keys watched in this namespace (not those watched cluster-wide anyway). */
  kinds: z.array(z.string()),
  /**
   * Why nothing is watched here; set for every state but `watched`, and on a `watched` namespace
   * whose latest review failed (it keeps the kinds found before).
   */
  message: z.string().optional(),
});
export type NamespaceAccess = z.infer<typeof NamespaceAccessSchema>;

/** One question asked of the server, and its answer, as Diagnostics lists them. */
export const AccessReviewSchema = z.object({
  review: z.enum(['SelfSubjectAccessReview', 'SelfSubjectRulesReview', 'SelfSubjectReview', 'list']),
  /** null: cluster scope. */
  namespace: z.string().nullable(),
  /** What was asked, as kubectl would say it: `list pods`, `watch deployments.apps`, `rules`. */
  question: z.string(),
  allowed: z.boolean(),
  /** The server's words, or what the answer means. */
  message: z.string().optional(),
});
export type AccessReview = z.infer<typeof AccessReviewSchema>;

/** A kind hidden by the user's permissions, for the status bar and the screens that need it. */
export const HiddenKindSchema = z.object({
  key: z.string().min(1),
  /** CamelCase kind. */
  kind: z.string().min(1),
  message: z.string().min(1),
});
export type HiddenKind = z.infer<typeof HiddenKindSchema>;

/** The access checks of one context, for the status bar, banner, Cluster and Diagnostics screens. */
export const AccessSummarySchema = z.object({
  /** Some namespaced kind is watched per namespace or hidden: the view is not the whole cluster. */
  restricted: z.boolean(),
  /** Namespaces where something is watched, sorted. */
  namespaces: z.array(z.string()),
  /** Kinds with their own screens first (Namespaces, Nodes, ...), then the rest by key. */
  hiddenKinds: z.array(HiddenKindSchema),
  /** Every candidate namespace with its sources and outcome. */
  checked: z.array(NamespaceAccessSchema),
  reviews: z.array(AccessReviewSchema),
  /** Reviews left out of `reviews` to keep the payload small. */
  reviewsOmitted: z.number().int().nonnegative(),
  /** Nothing at all may be watched: the user has no rights beyond the self-reviews (that Kubedrift found). */
  noAccess: z.boolean(),
  /** What the user can do about it; set when nothing, or no namespace, is visible. */
  howToFix: z.string().optional(),
  /** When the last check finished (ms since the epoch); null before the first. */
  checkedAt: z.number().nullable(),
  /** The last check's failure when it could not ask at all; the plan stays as it was. */
  error: z.string().optional(),
});
export type AccessSummary = z.infer<typeof AccessSummarySchema>;

/** Plural of a CamelCase kind for sentences: Node -> Nodes, Ingress -> Ingresses, NetworkPolicy -> NetworkPolicies. */
export function kindPlural(kind: string): string {
  if (/(s|x|z|ch|sh)$/.test(kind)) return `${kind}es`;
  if (/[^aeiou]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}

/** Hidden kinds named in the status bar before "and N more". */
const HIDDEN_KINDS_NAMED = 3;

/** `A`, `A and B`, `A, B and C`. */
function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] as string}`;
}

/**
 * The status bar's one line: `Namespaces shop, payments · Nodes hidden by your permissions`,
 * `All namespaces`, or `No access beyond the self-reviews`.
 */
export function accessStatusText(summary: AccessSummary): string {
  if (summary.noAccess) return 'No access beyond the self-reviews';
  const scope = summary.restricted ? (summary.namespaces.length ? `Namespaces ${summary.namespaces.join(', ')}` : 'No namespaces') : 'All namespaces';
  if (summary.hiddenKinds.length === 0) return scope;
  const names = summary.hiddenKinds.map((k) => kindPlural(k.kind));
  const named = names.length > HIDDEN_KINDS_NAMED + 1 ? [...names.slice(0, HIDDEN_KINDS_NAMED), `${names.length - HIDDEN_KINDS_NAMED} more kinds`] : names;
  return `${scope} · ${joinWords(named)} hidden by your permissions`;
}
