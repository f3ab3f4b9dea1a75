/**
 * The plan's pure parts: the (kind, namespace) watches a plan asks for, what changed between two
 * plans (what informers to start and stop), and the summary the UI shows.
 */
import type { AccessPlan, AccessReview, AccessSummary, HiddenKind, NamespaceAccess } from '../../../../shared/access.ts';
import { BUILTIN_KINDS } from '../../../../shared/builtin-kinds.ts';
import type { AccessKind } from './probe.ts';

/** One list-and-watch: a kind cluster-wide (namespace null) or in one namespace. */
export interface Watch {
  kind: string;
  namespace: string | null;
}

/** Watches to start and to stop after a check. */
export interface PlanChanges {
  added: Watch[];
  removed: Watch[];
}

/** Reviews kept in a summary; Diagnostics needs the denials and a sample, not thousands of rows. */
export const MAX_SUMMARY_REVIEWS = 300;

function watchId(watch: Watch): string {
  return `${watch.kind}\u0000${watch.namespace ?? ''}`;
}

/** Every watch a plan asks for. */
export function watchesOf(plan: AccessPlan): Watch[] {
  return Object.entries(plan).flatMap(([kind, access]): Watch[] => {
    if (access.scope === 'cluster') return [{ kind, namespace: null }];
    if (access.scope === 'namespaces') return access.namespaces.map((namespace) => ({ kind, namespace }));
    return [];
  });
}

/** The watches to start and stop going from `before` to `after`. */
export function diffPlans(before: AccessPlan, after: AccessPlan): PlanChanges {
  const old = new Map(watchesOf(before).map((w) => [watchId(w), w]));
  const next = new Map(watchesOf(after).map((w) => [watchId(w), w]));
  return {
    added: [...next].filter(([id]) => !old.has(id)).map(([, w]) => w),
    removed: [...old].filter(([id]) => !next.has(id)).map(([, w]) => w),
  };
}

/**
 * What one namespace's finished review adds to a plan before the whole check is done: each kind
 * confirmed there and not yet read there (nor cluster-wide) gets the namespace added to its
 * namespaces; only the kinds that change are returned. It only ever adds: what the check takes
 * away waits for its end, when the whole plan is applied.
 */
export function growPlan(plan: AccessPlan, access: NamespaceAccess): AccessPlan {
  const grown: AccessPlan = {};
  if (access.state !== 'watched') return grown;
  for (const kind of access.kinds) {
    const current = plan[kind];
    if (current?.scope === 'cluster') continue;
    const namespaces = current?.scope === 'namespaces' ? current.namespaces : [];
    if (namespaces.includes(access.name)) continue;
    grown[kind] = { scope: 'namespaces', namespaces: [...namespaces, access.name].sort() };
  }
  return grown;
}

/** What the user can do when nothing, or no namespace, is visible. */
export const HOW_TO_FIX =
  'Ask your cluster administrator for a RoleBinding in the namespaces you work in (for example: kubectl create rolebinding <you>-view --clusterrole=view --user=<you> --namespace=<namespace>), or add the namespaces you may read under "Accessible namespaces" on the Cluster screen.';

/** The inputs of a summary: the last check's outcome, or none yet. */
export interface SummaryInputs {
  kinds: readonly AccessKind[];
  plan: AccessPlan;
  checked: readonly NamespaceAccess[];
  reviews: readonly AccessReview[];
  checkedAt: number | null;
  error?: string | undefined;
}

/** Denials first, so a cut keeps what explains a hidden kind. */
function pickReviews(reviews: readonly AccessReview[]): AccessReview[] {
  const ordered = [...reviews.filter((r) => !r.allowed), ...reviews.filter((r) => r.allowed)];
  return ordered.slice(0, MAX_SUMMARY_REVIEWS);
}

const BUILTIN_ORDER = new Map(Object.values(BUILTIN_KINDS).map((b, index) => [b.key as string, index]));

/** Kinds with their own screens first (Namespaces, Nodes, ...), in the app's order; the rest by key. */
function byImportance(a: HiddenKind, b: HiddenKind): number {
  const ia = BUILTIN_ORDER.get(a.key) ?? Number.MAX_SAFE_INTEGER;
  const ib = BUILTIN_ORDER.get(b.key) ?? Number.MAX_SAFE_INTEGER;
  return ia !== ib ? ia - ib : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The summary for the status bar, banner, Cluster and Diagnostics screens. */
export function summarize(inputs: SummaryInputs): AccessSummary {
  const byKey = new Map(inputs.kinds.map((k) => [k.key, k]));
  const entries = Object.entries(inputs.plan);
  const hiddenKinds: HiddenKind[] = entries.flatMap(([key, access]) => (access.scope === 'hidden' ? [{ key, kind: byKey.get(key)?.ref.kind ?? key, message: access.message }] : [])).sort(byImportance);
  const namespaces = [...new Set(entries.flatMap(([, access]) => (access.scope === 'namespaces' ? access.namespaces : [])))].sort();
  // Restricted: the namespaced kinds are seen in some namespaces only. A user who reads every
  // namespace but not Secrets is not restricted; the hidden kinds say the rest.
  const namespaced = entries.filter(([key]) => byKey.get(key)?.ref.namespaced === true).map(([, access]) => access.scope);
  const restricted = namespaced.length > 0 && (namespaced.includes('namespaces') || !namespaced.includes('cluster'));
  const noAccess = inputs.checkedAt !== null && entries.length > 0 && entries.every(([, access]) => access.scope === 'hidden');
  const reviews = pickReviews(inputs.reviews);
  return {
    restricted,
    namespaces,
    hiddenKinds,
    checked: [...inputs.checked],
    reviews,
    reviewsOmitted: inputs.reviews.length - reviews.length,
    noAccess,
    ...(noAccess || (restricted && namespaces.length === 0) ? { howToFix: HOW_TO_FIX } : {}),
    checkedAt: inputs.checkedAt,
    ...(inputs.error !== undefined ? { error: inputs.error } : {}),
  };
}
