/**
 * A context's access, kept current: the last check's plan is cached and checked again every 5
 * minutes, when asked (`recheck`, the UI's "Check again"), after a 403 on a kind the plan
 * allowed (RBAC changed), and, for one namespace, when a new namespace becomes visible. Each
 * check that changes the plan tells listeners which (kind, namespace) watches to start and stop,
 * so informers can follow per namespace, each failing on its own.
 *
 * Checks run one at a time; a recheck asked for while one is queued joins it. A check that
 * cannot ask the server at all keeps the previous plan, puts its failure in `summary().error`
 * and is retried sooner than the periodic refresh.
 */
import { AccessibleNamespacesSchema, type AccessPlan, type AccessReview, type AccessSummary, type NamespaceAccess } from '../../../../shared/access.ts';
import { systemClock, type Clock } from '../informers/timing.ts';
import type { AccessApi } from './api.ts';
import { ACCESS_REVIEW_CONCURRENCY, limitApi } from './limit.ts';
import { explainLost } from './lost.ts';
import { diffPlans, growPlan, summarize, watchesOf, type PlanChanges, type Watch } from './plan.ts';
import { buildPlan, probeAccess, probeNamespace, type AccessKind } from './probe.ts';

/** How often access is checked without a reason: catches RoleBindings granted or revoked. */
export const ACCESS_REFRESH_INTERVAL_MS = 5 * 60_000;
/** How soon a check that could not reach the server is tried again. */
export const ACCESS_RETRY_MS = 30_000;

/** Options of an AccessChecker. */
export interface AccessCheckerOptions {
  api: AccessApi;
  /** The kinds to watch if allowed: the registry's listable and watchable kinds. */
  kinds: () => readonly AccessKind[];
  /** The kubeconfig context's namespace, if it names one. */
  contextNamespace?: string | undefined;
  /** Namespaces the user added for this context (settings). */
  userNamespaces?: readonly string[];
  clock?: Clock;
  refreshIntervalMs?: number;
  retryMs?: number;
  /** Reviews in flight at most. */
  concurrency?: number;
  log?: (message: string) => void;
}

const NONE: { plan: AccessPlan; checked: NamespaceAccess[]; reviews: AccessReview[] } = { plan: {}, checked: [], reviews: [] };

/**
 * A namespace whose review failed this time (a 500, a 429) keeps the kinds it had, so a blip
 * does not stop and restart its watches; a 403 on one of them still triggers a recheck.
 */
export function keepOnError(kinds: readonly AccessKind[], result: typeof NONE, before: readonly NamespaceAccess[]): typeof NONE {
  const previous = new Map(before.filter((c) => c.state === 'watched').map((c) => [c.name, c]));
  if (!result.checked.some((c) => c.state === 'error' && previous.has(c.name))) return result;
  const checked = result.checked.map((c): NamespaceAccess => {
    const was = previous.get(c.name);
    return c.state === 'error' && was ? { ...c, state: 'watched', kinds: was.kinds, message: `${c.message ?? ''}; the kinds found before are still watched` } : c;
  });
  const cluster = new Set(Object.entries(result.plan).flatMap(([key, a]) => (a.scope === 'cluster' ? [key] : [])));
  return { ...result, plan: buildPlan(kinds, cluster, checked), checked };
}

function describeFailure(error: unknown, server: string): string {
  const text = error instanceof Error ? error.message : String(error);
  return `Cannot check your access on ${server}: ${text}`;
}

export class AccessChecker {
  private readonly options: AccessCheckerOptions;
  private readonly clock: Clock;
  private state = NONE;
  private kindsChecked: readonly AccessKind[] = [];
  private userNamespaces: readonly string[];
  private checkedAt: number | null = null;
  private error: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private queuedFull: Promise<void> | undefined;
  private abort = new AbortController();
  private timer: unknown;
  private stopped = false;
  private readonly changeListeners = new Set<(changes: PlanChanges) => void>();
  private readonly summaryListeners = new Set<(summary: AccessSummary) => void>();
  private readonly progressListeners = new Set<(grown: AccessPlan) => void>();

  constructor(options: AccessCheckerOptions) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.userNamespaces = options.userNamespaces ?? [];
  }

  /** Runs the first check and keeps the plan fresh from then on; resolves after the first. */
  start(): Promise<void> {
    return this.recheck('start');
  }

  /** Checks everything again; resolves when a check that began after this call has finished. */
  recheck(reason: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.queuedFull) return this.queuedFull;
    const run = this.chain.then(() => {
      this.queuedFull = undefined;
      return this.runFull(reason);
    });
    this.queuedFull = run;
    this.chain = run;
    return run;
  }

  /**
   * An informer got a 403 on a watch: when the plan allowed it, RBAC changed and everything is
   * checked again; a 403 the plan expected changes nothing.
   */
  onForbidden(kindKey: string, namespace?: string): Promise<void> {
    const access = this.state.plan[kindKey];
    const planned = access?.scope === 'cluster' || (access?.scope === 'namespaces' && (namespace === undefined || access.namespaces.includes(namespace)));
    if (!planned) return Promise.resolve();
    return this.recheck(`403 on ${kindKey}${namespace !== undefined ? ` in ${namespace}` : ''}`);
  }

  /** A namespace became visible (the namespace watch): checks that namespace alone, unless already checked. */
  onNamespaceAdded(name: string): Promise<void> {
    if (this.stopped || this.state.checked.some((c) => c.name === name)) return Promise.resolve();
    const run = this.chain.then(() => this.runNamespace(name));
    this.chain = run;
    return run;
  }

  /** Replaces the user's own namespaces (the Cluster screen's editor) and checks again; throws on a bad list. */
  setUserNamespaces(names: readonly string[]): Promise<void> {
    const parsed = AccessibleNamespacesSchema.safeParse(names);
    if (!parsed.success) throw new Error(`Accessible namespaces: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    this.userNamespaces = parsed.data;
    return this.recheck('accessible namespaces changed');
  }

  /** The current plan, by kind key (empty before the first check). */
  plan(): AccessPlan {
    return this.state.plan;
  }

  /** The (kind, namespace) watches of the current plan. */
  watches(): Watch[] {
    return watchesOf(this.state.plan);
  }

  summary(): AccessSummary {
    return summarize({ kinds: this.kindsChecked, ...this.state, checkedAt: this.checkedAt, error: this.error });
  }

  /** Listens for watches to start and stop; returns the unsubscribe function. */
  onChange(listener: (changes: PlanChanges) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Listens for every finished check (and failures); returns the unsubscribe function. */
  onSummary(listener: (summary: AccessSummary) => void): () => void {
    this.summaryListeners.add(listener);
    return () => this.summaryListeners.delete(listener);
  }

  /**
   * Listens for a running check's progress: the kinds each namespace's rules review adds to the
   * plan (growPlan), before they are confirmed and the check ends, so their lists start early. A
   * check only ever adds here; its end (`onSummary`, `plan()`) has the last word, taking away
   * what the confirmations denied. Returns the unsubscribe function.
   */
  onProgress(listener: (grown: AccessPlan) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  /** Aborts a running check and clears the timer; listeners hear nothing more. */
  stop(): void {
    this.stopped = true;
    this.abort.abort(new Error('access checks stopped'));
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.changeListeners.clear();
    this.summaryListeners.clear();
    this.progressListeners.clear();
  }

  private probeOptions(): { api: AccessApi; concurrency: number; signal: AbortSignal } {
    return { api: this.options.api, concurrency: this.options.concurrency ?? ACCESS_REVIEW_CONCURRENCY, signal: this.abort.signal };
  }

  private async runFull(reason: string): Promise<void> {
    if (this.stopped) return;
    this.options.log?.(`access: check (${reason})`);
    const kinds = this.options.kinds();
    // The plan as this check's rules reviews have grown it so far.
    let interim = this.state.plan;
    const onRules = (access: NamespaceAccess): void => {
      const grown = growPlan(interim, access);
      if (this.stopped || Object.keys(grown).length === 0) return;
      interim = { ...interim, ...grown };
      for (const listener of this.progressListeners) listener(grown);
    };
    try {
      const probed = await probeAccess({ ...this.probeOptions(), kinds, contextNamespace: this.options.contextNamespace, userNamespaces: this.userNamespaces, onRules });
      if (this.stopped) return;
      const kept = keepOnError(kinds, probed, this.state.checked);
      // A namespace watched until now and allowed nothing now: the server's own 403 says why.
      const { api, concurrency, signal } = this.probeOptions();
      const lost = await explainLost(limitApi(api, concurrency, signal), kinds, this.state.checked, kept.checked);
      if (this.stopped) return;
      const result = lost.length ? { ...kept, reviews: [...kept.reviews, ...lost] } : kept;
      this.kindsChecked = kinds;
      this.error = undefined;
      this.checkedAt = this.clock.now();
      this.schedule(this.options.refreshIntervalMs ?? ACCESS_REFRESH_INTERVAL_MS);
      this.apply(result);
    } catch (error) {
      if (this.stopped) return;
      this.error = describeFailure(error, this.options.api.server);
      this.options.log?.(this.error);
      this.schedule(Math.min(this.options.retryMs ?? ACCESS_RETRY_MS, this.options.refreshIntervalMs ?? ACCESS_REFRESH_INTERVAL_MS));
      this.emitSummary();
    }
  }

  private async runNamespace(name: string): Promise<void> {
    // Before the first check, or after a full check that covered it, there is nothing to add.
    if (this.stopped || this.checkedAt === null || this.state.checked.some((c) => c.name === name)) return;
    const plan = this.state.plan;
    const kinds = this.kindsChecked.filter((k) => k.ref.namespaced && plan[k.key]?.scope !== 'cluster');
    if (kinds.length === 0) return;
    try {
      const partial = this.kindsChecked.some((k) => k.ref.namespaced && plan[k.key]?.scope === 'cluster');
      const { access, reviews } = await probeNamespace({ ...this.probeOptions(), target: { name, sources: ['namespace-list'], kinds, partial } });
      if (this.stopped) return;
      const checked = [...this.state.checked, access].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const cluster = new Set(Object.entries(plan).flatMap(([key, a]) => (a.scope === 'cluster' ? [key] : [])));
      this.apply({ plan: buildPlan(this.kindsChecked, cluster, checked), checked, reviews: [...this.state.reviews, ...reviews] });
    } catch (error) {
      if (this.stopped) return;
      this.options.log?.(`access: could not check namespace ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private apply(next: typeof NONE): void {
    const changes = diffPlans(this.state.plan, next.plan);
    this.state = next;
    if (changes.added.length || changes.removed.length) for (const listener of this.changeListeners) listener(changes);
    this.emitSummary();
  }

  private emitSummary(): void {
    if (this.summaryListeners.size === 0) return;
    const summary = this.summary();
    for (const listener of this.summaryListeners) listener(summary);
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.recheck('periodic');
    }, ms);
  }
}
