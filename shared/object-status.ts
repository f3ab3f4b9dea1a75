/**
 * Desired against actual for any Kubernetes object, built-in or custom, shared by the engine and
 * the renderer so the two never disagree. The checks run in kstatus' order (sigs.k8s.io/cli-utils
 * pkg/kstatus) and the first that matches decides:
 *
 * 1. metadata.deletionTimestamp set -> `terminating`;
 * 2. status.observedGeneration present and behind metadata.generation -> `unobserved`;
 * 3. the user's rules for the kind (Settings), then the kind's rule in the table
 *    (status-rules/well-known.ts, Argo CD's health checks): like Argo CD's, a kind's rule
 *    replaces the generic checks below once it matches or has an `otherwise`;
 * 4. Stalled=True -> `failed`; 5. Reconciling=True -> `progressing` (kstatus takes whichever
 *    comes first in the list; here Stalled wins, whatever order the controller wrote them in);
 * 6. today's rules for built-in kinds (workload-status.ts, kube-status.ts), by group and kind;
 * 7. the Ready condition: True -> `current`, False or Unknown -> `progressing`;
 * 8. otherwise `none`: no status signal, shown neutral and never green.
 *
 * Reasons and messages are the cluster's own words (a condition's reason and message verbatim),
 * so the user reads what `kubectl describe` shows.
 */
import { findCondition, readConditions } from './conditions.ts';
import type { ObjectState, UserStatusRule } from './contracts/status-rules.ts';
import { builtInVerdict } from './status-rules/built-in.ts';
import { applyMatchers, applyRule, conditionWords, findRule, groupMatches, groupOf, observedGenerationOf, type Subject } from './status-rules/interpret.ts';
import type { KindRule, StatusMatcher, StatusSubject, Verdict } from './status-rules/types.ts';
import { WELL_KNOWN_RULES } from './status-rules/well-known.ts';
import type { Tone } from './workload-status.ts';

export type { KindRule, StatusSubject } from './status-rules/types.ts';
export { WELL_KNOWN_RULES } from './status-rules/well-known.ts';

/** Which check decided, for the reader ("by your rule") and for tests. */
export type StatusSource = 'terminating' | 'generation' | 'user-rule' | 'kind-rule' | 'stalled' | 'reconciling' | 'built-in' | 'ready' | 'none';

export interface ObjectStatus extends Verdict {
  /** How the views colour it: `ok` only for `current`, and built-in kinds keep today's tone. */
  tone: Tone;
  source: StatusSource;
  /** metadata.generation, when the object has one. */
  generation?: number;
  /** status.observedGeneration, when the object reports it as a number (or numeric string). */
  observedGeneration?: number;
}

export interface ObjectStatusOptions {
  /** The user's rules (Settings), as UserStatusRulesSchema parsed them; for their kind they come before the table's. */
  userRules?: readonly UserStatusRule[];
  /** The per-kind rule table; WELL_KNOWN_RULES unless a test gives its own. */
  rules?: readonly KindRule[];
}

/** The tone of each state; built-in kinds may differ (a paused Deployment is a warning). */
export const STATE_TONES: Readonly<Record<ObjectState, Tone>> = {
  terminating: 'pending',
  unobserved: 'pending',
  progressing: 'pending',
  drifting: 'warning',
  failed: 'danger',
  suspended: 'neutral',
  current: 'ok',
  none: 'neutral',
};

/** Per list of user rules, their matchers by `group/Kind`. */
const userMatcherCache = new WeakMap<readonly UserStatusRule[], Map<string, StatusMatcher[]>>();

function userMatchers(rules: readonly UserStatusRule[], group: string, kind: string): StatusMatcher[] {
  let byKind = userMatcherCache.get(rules);
  if (!byKind) {
    byKind = new Map();
    userMatcherCache.set(rules, byKind);
  }
  const key = `${group}/${kind}`;
  let matchers = byKind.get(key);
  if (!matchers) {
    matchers = rules
      .filter((rule) => rule.kind === kind && groupMatches(rule.group, group))
      .map((rule) => ({
        when: { condition: rule.conditionType, ...(rule.conditionStatus ? { status: [rule.conditionStatus] } : {}), ...(rule.reason ? { reason: [rule.reason] } : {}) },
        state: rule.state,
      }));
    byKind.set(key, matchers);
  }
  return matchers;
}

function terminating(object: StatusSubject, deletion: string): Verdict {
  const finalizers = Array.isArray(object.metadata.finalizers) ? object.metadata.finalizers.filter((name): name is string => typeof name === 'string') : [];
  const waiting = finalizers.length > 0 ? `; waiting for finalizers: ${finalizers.join(', ')}` : '';
  return { state: 'terminating', reason: 'Terminating', message: `Deletion requested at ${deletion}${waiting}` };
}

/** Steps 3 to 8 of the order above (after deletion and the generation check). */
function decide(subject: Subject, group: string, options: ObjectStatusOptions): { verdict: Verdict; source: StatusSource; tone?: Tone } {
  const { object, conditions } = subject;
  if (options.userRules && options.userRules.length > 0) {
    const verdict = applyMatchers(userMatchers(options.userRules, group, object.kind), subject);
    if (verdict) return { verdict, source: 'user-rule' };
  }
  const rule = findRule(options.rules ?? WELL_KNOWN_RULES, group, object.kind);
  const ruled = rule ? applyRule(rule, subject) : null;
  if (ruled) return { verdict: ruled, source: 'kind-rule' };
  const stalled = findCondition(conditions, 'Stalled');
  if (stalled?.status === 'True') return { verdict: { state: 'failed', ...conditionWords(stalled) }, source: 'stalled' };
  const reconciling = findCondition(conditions, 'Reconciling');
  if (reconciling?.status === 'True') return { verdict: { state: 'progressing', ...conditionWords(reconciling) }, source: 'reconciling' };
  const builtIn = builtInVerdict(group, object);
  if (builtIn) {
    const { tone, ...verdict } = builtIn;
    return { verdict, source: 'built-in', tone };
  }
  const ready = findCondition(conditions, 'Ready');
  if (ready) return { verdict: { state: ready.status === 'True' ? 'current' : 'progressing', ...conditionWords(ready) }, source: 'ready' };
  const key = `${group === '' ? 'core' : group}/${object.kind}`;
  return { verdict: { state: 'none', reason: 'NoStatusSignal', message: `No Ready, Stalled or Reconciling condition, and no status rule for ${key}` }, source: 'none' };
}

/** Where `object` stands between its spec and its status, in the order described above. */
export function objectStatus(given: StatusSubject, options: ObjectStatusOptions = {}): ObjectStatus {
  // A list item or a hand-made object may come without metadata; read it as empty rather than throw.
  const object: StatusSubject = typeof given.metadata === 'object' && given.metadata !== null ? given : { ...given, metadata: {} };
  const generation = typeof object.metadata.generation === 'number' ? object.metadata.generation : undefined;
  const observedGeneration = observedGenerationOf(object);
  const numbers = { ...(generation !== undefined ? { generation } : {}), ...(observedGeneration !== undefined ? { observedGeneration } : {}) };
  const deletion = object.metadata.deletionTimestamp;
  if (typeof deletion === 'string' && deletion !== '') return { ...terminating(object, deletion), tone: STATE_TONES.terminating, source: 'terminating', ...numbers };
  if (generation !== undefined && observedGeneration !== undefined && observedGeneration < generation) {
    const message = `Spec generation ${generation} not yet observed (controller at ${observedGeneration})`;
    return { state: 'unobserved', reason: 'LatestGenerationNotObserved', message, tone: STATE_TONES.unobserved, source: 'generation', ...numbers };
  }
  const group = groupOf(object.apiVersion);
  const subject: Subject = { object, conditions: readConditions(object.status as { conditions?: unknown } | undefined) };
  const { verdict, source, tone } = decide(subject, group, options);
  return { ...verdict, tone: tone ?? STATE_TONES[verdict.state], source, ...numbers };
}
