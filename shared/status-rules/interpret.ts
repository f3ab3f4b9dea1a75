/**
 * The one interpreter of status rules (types.ts): which rule applies to a kind, whether a test
 * holds on an object, and the words a verdict carries. Kinds are matched by API group and kind,
 * never by kind alone: a `Job` in example.com is not batch/Job.
 */
import { findCondition, type ConditionView } from '../conditions.ts';
import type { ObjectState } from '../contracts/status-rules.ts';
import type { KindRule, StatusMatcher, StatusSubject, StatusTest, StatusWords, Verdict } from './types.ts';

/** The API group of an apiVersion: "apps/v1" -> "apps", "v1" -> "" (the core group). */
export function groupOf(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string') return '';
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Whether a group pattern ("apps", "" or "core", "*.crossplane.io", "*") names this group. */
export function groupMatches(pattern: string, group: string): boolean {
  if (pattern === '*') return true;
  if (pattern === 'core') return group === '';
  if (pattern.startsWith('*.')) return group.endsWith(pattern.slice(1));
  return pattern === group;
}

/** Whether a `group/Kind` pattern (types.ts, KindRule.kinds) names this kind. */
export function kindMatches(pattern: string, group: string, kind: string): boolean {
  const slash = pattern.lastIndexOf('/');
  if (slash < 0) return false;
  const patternKind = pattern.slice(slash + 1);
  return (patternKind === '*' || patternKind === kind) && groupMatches(pattern.slice(0, slash), group);
}

/** Per rule table, the rule each `group/Kind` resolved to; the engine asks once per object. */
const resolved = new WeakMap<readonly KindRule[], Map<string, KindRule | null>>();

/** The first rule in the table that names this kind. */
export function findRule(rules: readonly KindRule[], group: string, kind: string): KindRule | undefined {
  let cache = resolved.get(rules);
  if (!cache) {
    cache = new Map();
    resolved.set(rules, cache);
  }
  const key = `${group}/${kind}`;
  let rule = cache.get(key);
  if (rule === undefined) {
    rule = rules.find((candidate) => candidate.kinds.some((pattern) => kindMatches(pattern, group, kind))) ?? null;
    cache.set(key, rule);
  }
  return rule ?? undefined;
}

/** The value at a dotted path ("status.phase"), undefined where any step is missing. */
export function readField(object: unknown, path: string): unknown {
  let value: unknown = object;
  for (const step of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** status.observedGeneration as a number, when it is one or a numeric string (Argo Rollouts writes "3"). */
export function observedGenerationOf(object: StatusSubject): number | undefined {
  const raw = readField(object.status, 'observedGeneration');
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string' && /^\d+$/.test(raw)) return Number(raw);
  return undefined;
}

/** What an object and its parsed conditions look like to the interpreter. */
export interface Subject {
  object: StatusSubject;
  conditions: readonly ConditionView[];
}

/** What made a test hold: the condition or field whose words the verdict carries. */
interface Evidence {
  condition?: ConditionView;
  field?: { path: string; value: unknown };
}

function fieldEvidence(subject: Subject, path: string, holds: (value: unknown) => boolean): Evidence | null {
  const value = readField(subject.object, path);
  return holds(value) ? { field: { path, value } } : null;
}

/** The evidence for `test` on the subject, null when the test does not hold. */
export function check(test: StatusTest, subject: Subject): Evidence | null {
  if ('condition' in test) {
    const condition = findCondition(subject.conditions, test.condition);
    if (!condition) return null;
    if (test.status && !(test.status as readonly string[]).includes(condition.status)) return null;
    if (test.reason && !(condition.reason !== undefined && test.reason.includes(condition.reason))) return null;
    return { condition };
  }
  if ('equals' in test) return fieldEvidence(subject, test.field, (value) => value === test.equals);
  if ('oneOf' in test) return fieldEvidence(subject, test.field, (value) => (test.oneOf as readonly unknown[]).includes(value));
  if ('present' in test) return fieldEvidence(subject, test.field, (value) => isPresent(value) === test.present);
  if ('kindIn' in test) return test.kindIn.includes(subject.object.kind) ? {} : null;
  if ('generationObserved' in test) {
    const { object } = subject;
    const observed = observedGenerationOf(object);
    const seen = isPresent(object.status) && (observed === undefined || object.metadata.generation === undefined || observed === object.metadata.generation);
    // No words of its own: a generation number is no reason; the state's kstatus word is.
    return seen === test.generationObserved ? {} : null;
  }
  if ('allOf' in test) {
    const found: Evidence[] = [];
    for (const part of test.allOf) {
      const evidence = check(part, subject);
      if (!evidence) return null;
      found.push(evidence);
    }
    return found.find((evidence) => evidence.condition) ?? found.find((evidence) => evidence.field) ?? {};
  }
  for (const part of test.anyOf) {
    const evidence = check(part, subject);
    if (evidence) return evidence;
  }
  return null;
}

/** kstatus-like reasons for when neither the cluster nor the rule has words. */
const STATE_REASONS: Record<ObjectState, string> = {
  terminating: 'Terminating',
  unobserved: 'LatestGenerationNotObserved',
  progressing: 'InProgress',
  drifting: 'Drifting',
  failed: 'Failed',
  suspended: 'Suspended',
  current: 'Current',
  none: 'NoStatusSignal',
};

function fill(text: string, subject: Subject): string {
  return text.replaceAll('{kind}', subject.object.kind);
}

/** The words of a condition as `kubectl describe` shows them: its reason and message. */
export function conditionWords(condition: ConditionView): { reason: string; message: string } {
  return { reason: condition.reason ?? `${condition.type}=${condition.status}`, message: condition.message ?? '' };
}

/** The verdict's words: the evidence's, then fixed words, then a named condition or message field. */
export function words(state: ObjectState, evidence: Evidence, say: StatusWords | undefined, subject: Subject): Verdict {
  let reason = STATE_REASONS[state];
  let message = '';
  if (evidence.condition) ({ reason, message } = conditionWords(evidence.condition));
  else if (evidence.field && evidence.field.value !== undefined) {
    const { path, value } = evidence.field;
    if (typeof value === 'string' && value !== '') reason = value;
    message = `${path} is ${JSON.stringify(value)}`;
  }
  if (say?.reason !== undefined) reason = fill(say.reason, subject);
  if (say?.message !== undefined) message = fill(say.message, subject);
  const named = say?.condition ? findCondition(subject.conditions, say.condition) : undefined;
  if (named) ({ reason, message } = conditionWords(named));
  const field = say?.messageField ? readField(subject.object, say.messageField) : undefined;
  if (typeof field === 'string' && field !== '') message = field;
  return { state, reason, message };
}

/** The verdict of the first matcher that holds, or null. */
export function applyMatchers(matchers: readonly StatusMatcher[], subject: Subject): Verdict | null {
  for (const matcher of matchers) {
    const evidence = check(matcher.when, subject);
    if (evidence) return words(matcher.state, evidence, matcher.say, subject);
  }
  return null;
}

/** A rule's verdict: its first matcher that holds, else its `otherwise`, else null (generic checks go on). */
export function applyRule(rule: KindRule, subject: Subject): Verdict | null {
  const verdict = applyMatchers(rule.matchers, subject);
  if (verdict) return verdict;
  return rule.otherwise ? words(rule.otherwise.state, {}, rule.otherwise.say, subject) : null;
}
