/**
 * One access check of a context: which kinds may be listed and watched cluster-wide, and, for
 * the namespaced kinds that may not, in which namespaces. Cluster-wide access is asked with
 * SelfSubjectAccessReview (a list with limit=1 would prove list but not watch, and fetch data);
 * one review for every kind at once answers a cluster-admin in two requests. Candidate
 * namespaces (see candidates.ts) each get a SelfSubjectRulesReview, which picks the kinds to
 * try there; every pick is confirmed with SelfSubjectAccessReview before it is used, since the
 * rules review is meant for UIs and may be incomplete. One namespace's failure is recorded on
 * that namespace alone.
 */
import { kindPlural, type AccessPlan, type AccessReview, type KindAccess, type NamespaceAccess, type NamespaceSource } from '../../../../shared/access.ts';
import type { KindRef } from '../../../../shared/kinds.ts';
import { accessReview, AccessApiError, getJson, rulesReview, whoAmI, type AccessApi, type RulesAnswer } from './api.ts';
import { gatherCandidates } from './candidates.ts';
import { limitApi } from './limit.ts';
import { rulesAllowWatch, WATCH_VERBS } from './rules.ts';

/** A kind to check, by kind key. */
export interface AccessKind {
  key: string;
  ref: Pick<KindRef, 'group' | 'plural' | 'kind' | 'namespaced'>;
}

/** What one check needs. */
export interface ProbeOptions {
  api: AccessApi;
  /** The kinds to watch if allowed (the registry's listable and watchable ones). */
  kinds: readonly AccessKind[];
  contextNamespace?: string | undefined;
  userNamespaces: readonly string[];
  /** Requests in flight at most. */
  concurrency: number;
  signal: AbortSignal;
  /**
   * A namespace's kinds as its rules review names them, before the access reviews confirm them
   * and the whole check ends: the informers may start listing there at once (see checkNamespace).
   */
  onRules?: (access: NamespaceAccess) => void;
}

/** A check's outcome. */
export interface ProbeResult {
  plan: AccessPlan;
  checked: NamespaceAccess[];
  reviews: AccessReview[];
}

/** 401s and network failures are about the connection: they fail the whole check. */
function isAnswer(error: unknown): error is AccessApiError {
  return error instanceof AccessApiError && error.status !== 401;
}

/** Whether both list and watch of a kind are allowed (in a namespace, or cluster-wide). */
async function mayWatch(api: AccessApi, kind: AccessKind, namespace: string | undefined, record: (r: AccessReview) => void): Promise<boolean> {
  const answers = await Promise.all(
    WATCH_VERBS.map(async (verb) => {
      const answer = await accessReview(api, { verb, group: kind.ref.group, resource: kind.ref.plural, ...(namespace !== undefined ? { namespace } : {}) });
      record({ review: 'SelfSubjectAccessReview', namespace: namespace ?? null, question: `${verb} ${kind.key}`, allowed: answer.allowed, ...(answer.reason ? { message: answer.reason } : {}) });
      return answer.allowed;
    }),
  );
  return answers.every(Boolean);
}

/** The kind keys allowed cluster-wide; everything at once when `*` is allowed. */
async function clusterWide(api: AccessApi, kinds: readonly AccessKind[], record: (r: AccessReview) => void): Promise<Set<string>> {
  const everything: AccessKind = { key: '*.*', ref: { group: '*', plural: '*', kind: '*', namespaced: true } };
  if (await mayWatch(api, everything, undefined, record)) return new Set(kinds.map((k) => k.key));
  const allowed = await Promise.all(kinds.map(async (kind) => ((await mayWatch(api, kind, undefined, record)) ? kind.key : undefined)));
  return new Set(allowed.filter((key): key is string => key !== undefined));
}

/** One namespace to review, for the namespaced kinds not watched cluster-wide. */
export interface NamespaceTarget {
  name: string;
  sources: NamespaceSource[];
  kinds: readonly AccessKind[];
  /** Some namespaced kinds are watched cluster-wide anyway (the messages say "hidden cluster-wide"). */
  partial: boolean;
  /** Hears the kinds a complete rules review names, before they are confirmed (ProbeOptions.onRules). */
  onRules?: (access: NamespaceAccess) => void;
}

/** Sources that prove the namespace exists: the server listed it, or a RoleBinding lives in it. */
const SEEN_ON_SERVER: readonly NamespaceSource[] = ['namespace-list', 'role-bindings'];

/** Why nothing is watched in a namespace: it does not exist (when the user may tell), or nothing is allowed. */
async function nothingAllowed(api: AccessApi, target: NamespaceTarget): Promise<NamespaceAccess> {
  const { name, sources } = target;
  const what = target.partial ? 'any kind hidden cluster-wide' : 'anything Kubedrift shows';
  const none = (suffix: string): NamespaceAccess => ({ name, sources, state: 'none', kinds: [], message: `You may not list and watch ${what} in "${name}"${suffix}` });
  if (sources.some((s) => SEEN_ON_SERVER.includes(s))) return none('');
  try {
    await getJson(api, `/api/v1/namespaces/${encodeURIComponent(name)}`);
  } catch (error) {
    if (error instanceof AccessApiError && error.status === 404) return { name, sources, state: 'not-found', kinds: [], message: `Namespace "${name}" does not exist` };
    if (!isAnswer(error)) throw error;
    return none(' (or it does not exist)');
  }
  return none('');
}

/** Reviews one namespace: the rules pick kinds, access reviews confirm each. */
async function checkNamespace(api: AccessApi, target: NamespaceTarget, record: (r: AccessReview) => void): Promise<NamespaceAccess> {
  const { name, sources, kinds } = target;
  let rules: RulesAnswer;
  try {
    rules = await rulesReview(api, name);
  } catch (error) {
    if (!isAnswer(error)) throw error;
    record({ review: 'SelfSubjectRulesReview', namespace: name, question: 'rules', allowed: false, message: error.message });
    return { name, sources, state: 'error', kinds: [], message: `Could not review your access in "${name}": ${error.message}` };
  }
  // An incomplete answer may leave out what another authorizer allows: then every kind is asked.
  const picked = kinds.filter((k) => rules.incomplete || rulesAllowWatch(rules.rules, k.ref.group, k.ref.plural));
  const note = rules.incomplete ? ` (incomplete${rules.evaluationError ? `: ${rules.evaluationError}` : ''})` : '';
  record({ review: 'SelfSubjectRulesReview', namespace: name, question: 'rules', allowed: picked.length > 0, message: `${rules.incomplete ? 'every kind' : `${picked.length} kind${picked.length === 1 ? '' : 's'}`} to confirm${note}` });
  // A complete answer is RBAC's own (the same authorizer as the lists): the lists may start now,
  // a thousand confirmations sooner on fifty namespaces. A kind the confirmation denies after all
  // leaves the plan when the check ends (its list, if it ran, got the server's 403 meanwhile).
  // An incomplete answer names every kind, so nothing starts before it is confirmed.
  if (!rules.incomplete && picked.length > 0) target.onRules?.({ name, sources, state: 'watched', kinds: picked.map((k) => k.key).sort() });
  let confirmed: string[];
  try {
    const answers = await Promise.all(picked.map(async (kind) => ((await mayWatch(api, kind, name, record)) ? kind.key : undefined)));
    confirmed = answers.filter((key): key is string => key !== undefined);
  } catch (error) {
    if (!isAnswer(error)) throw error;
    return { name, sources, state: 'error', kinds: [], message: `Could not confirm your access in "${name}": ${error.message}` };
  }
  if (confirmed.length === 0) return nothingAllowed(api, target);
  return { name, sources, state: 'watched', kinds: confirmed.sort() };
}

/** Namespaces a hidden kind's message names before "and N more". */
const NAMESPACES_NAMED = 5;

/** The hidden entry of a kind, saying what was asked. */
function hidden(kind: AccessKind, tried: readonly string[]): KindAccess {
  const what = `${kindPlural(kind.ref.kind)} are hidden by your permissions: you may not list and watch ${kind.key} at the cluster scope`;
  if (!kind.ref.namespaced) return { scope: 'hidden', message: what };
  if (tried.length === 0) return { scope: 'hidden', message: `${what}, and no namespace was found where you may` };
  const named = tried.length > NAMESPACES_NAMED + 1 ? `${tried.slice(0, NAMESPACES_NAMED).join(', ')} and ${tried.length - NAMESPACES_NAMED} more namespaces` : tried.join(', ');
  return { scope: 'hidden', message: `${what} or in ${named}` };
}

/** The plan from the cluster-wide answers and the checked namespaces. */
export function buildPlan(kinds: readonly AccessKind[], cluster: ReadonlySet<string>, checked: readonly NamespaceAccess[]): AccessPlan {
  const plan: AccessPlan = {};
  const tried = checked.map((c) => c.name).sort();
  for (const kind of kinds) {
    if (cluster.has(kind.key)) plan[kind.key] = { scope: 'cluster' };
    else {
      const namespaces = kind.ref.namespaced ? checked.filter((c) => c.kinds.includes(kind.key)).map((c) => c.name).sort() : [];
      plan[kind.key] = namespaces.length ? { scope: 'namespaces', namespaces } : hidden(kind, tried);
    }
  }
  return plan;
}

/** Checks one namespace the caller learned of (a new namespace became visible). */
export async function probeNamespace(options: { api: AccessApi; concurrency: number; signal: AbortSignal; target: NamespaceTarget }): Promise<{ access: NamespaceAccess; reviews: AccessReview[] }> {
  const reviews: AccessReview[] = [];
  const api = limitApi(options.api, options.concurrency, options.signal);
  const access = await checkNamespace(api, options.target, (r) => reviews.push(r));
  return { access, reviews };
}

/** Runs a whole check; rejects only when the server cannot be asked at all (unreachable, 401). */
export async function probeAccess(options: ProbeOptions): Promise<ProbeResult> {
  const reviews: AccessReview[] = [];
  const record = (review: AccessReview): void => {
    reviews.push(review);
  };
  const api = limitApi(options.api, options.concurrency, options.signal);
  const cluster = await clusterWide(api, options.kinds, record);
  const rest = options.kinds.filter((k) => k.ref.namespaced && !cluster.has(k.key));
  if (rest.length === 0) return { plan: buildPlan(options.kinds, cluster, []), checked: [], reviews };
  const identity = await whoAmI(api);
  record({ review: 'SelfSubjectReview', namespace: null, question: 'who am I', allowed: identity !== undefined, message: identity ? `User "${identity.username}"` : 'The server does not say who you are' });
  const candidates = await gatherCandidates({
    api,
    contextNamespace: options.contextNamespace,
    userNamespaces: options.userNamespaces,
    identity,
    record,
  });
  const partial = options.kinds.some((k) => k.ref.namespaced && cluster.has(k.key));
  // Every namespace's rules review is queued before any confirmation, so all of them (and
  // with onRules their lists) start early; the confirmations follow, a few at a time.
  const checked = await Promise.all([...candidates].map(([name, sources]) => checkNamespace(api, { name, sources, kinds: rest, partial, ...(options.onRules ? { onRules: options.onRules } : {}) }, record)));
  return { plan: buildPlan(options.kinds, cluster, checked), checked: checked.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), reviews };
}
