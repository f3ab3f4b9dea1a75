/**
 * The built-in kinds' own rules, as the app applies them today: workloads by
 * shared/workload-status.ts, pods by kubectl's STATUS (shared/kube-status.ts). This module only
 * calls them and translates their answer into a state, so a Deployment's state here and on the
 * Overview can never differ. Kinds are told apart by API group and kind: a `Job` of another
 * group is not batch/Job.
 */
import type { SlimObject } from '../cluster.ts';
import { describeCondition, findCondition, type ConditionView } from '../conditions.ts';
import type { ObjectState } from '../contracts/status-rules.ts';
import { podStatus, podTone, type PodStatusView } from '../kube-status.ts';
import { workloadState, type Tone, type WorkloadState } from '../workload-status.ts';
import type { StatusSubject, Verdict } from './types.ts';

/** `group/Kind` of the kinds workloadState describes. */
const WORKLOAD_KINDS: ReadonlySet<string> = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet', 'batch/Job', 'batch/CronJob']);

/** The state a tone means, unless the status word says more (TONE_WORD_STATES). */
const TONE_STATES: Record<Tone, ObjectState> = { ok: 'current', pending: 'progressing', warning: 'drifting', danger: 'failed', neutral: 'current' };

/** Status words whose state the tone alone does not tell: Paused is a warning, Suspended neutral. */
const WORD_STATES: Readonly<Record<string, ObjectState>> = { Terminating: 'terminating', Paused: 'suspended', Suspended: 'suspended' };

/** A built-in verdict also keeps the tone today's views give it. */
export interface BuiltInVerdict extends Verdict {
  tone: Tone;
}

/** The condition behind a workload's status word: the word itself as a True condition (Complete, Failed), or the failed condition the drift names first. */
function causeOf(workload: WorkloadState): ConditionView | undefined {
  const named = findCondition(workload.conditions, workload.status);
  if (named?.status === 'True') return named;
  const first = workload.drift?.severity === 'danger' ? workload.drift.reasons[0] : undefined;
  return first === undefined ? undefined : workload.conditions.find((condition) => describeCondition(condition) === first);
}

function fromWorkload(object: StatusSubject): BuiltInVerdict {
  const workload = workloadState(object as unknown as SlimObject);
  const state = WORD_STATES[workload.status] ?? TONE_STATES[workload.tone];
  const cause = causeOf(workload);
  if (cause) return { state, tone: workload.tone, reason: cause.reason ?? workload.status, message: cause.message ?? describeCondition(cause) };
  return { state, tone: workload.tone, reason: workload.status, message: workload.drift?.reasons.join('; ') ?? '' };
}

function fromPod(object: StatusSubject): BuiltInVerdict {
  const pod = object as unknown as PodStatusView & { status?: { message?: unknown } };
  const summary = podStatus(pod);
  const tone = podTone(summary.reason, summary.ready, summary.total);
  const state = WORD_STATES[summary.reason] ?? TONE_STATES[tone];
  const said = pod.status?.message;
  const restarts = summary.restarts > 0 ? `, ${summary.restarts} ${summary.restarts === 1 ? 'restart' : 'restarts'}` : '';
  const message = typeof said === 'string' && said !== '' ? said : `${summary.ready}/${summary.total} containers ready${restarts}`;
  return { state, tone, reason: summary.reason || 'Unknown', message };
}

/** The verdict of today's rule for a built-in kind, null for every other kind. */
export function builtInVerdict(group: string, object: StatusSubject): BuiltInVerdict | null {
  if (WORKLOAD_KINDS.has(`${group}/${object.kind}`)) return fromWorkload(object);
  if (group === '' && object.kind === 'Pod') return fromPod(object);
  return null;
}
