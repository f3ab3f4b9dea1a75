/**
 * A workload's state in one word and whether its desired and actual state have drifted apart,
 * shared by the Overview's rows (renderer) and the ownership graph's node health (engine), so the
 * two never disagree about what "drifting" means.
 *
 * Drift is the app's reason to exist: desired != ready, or a spec generation the controller has
 * not observed yet, or a controller that gave up (Progressing=False, ReplicaFailure, a failed
 * Job). A running Job is working towards its completions, not drifting, so Jobs drift only when
 * they fail.
 */
import type { SlimObject } from './cluster.ts';
import { describeCondition, findCondition, readConditions, type ConditionView } from './conditions.ts';

const WORKLOAD_KINDS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob']);

/** The kinds `workloadState` describes. */
export function isWorkloadKind(kind: string): boolean {
  return WORKLOAD_KINDS.has(kind);
}

/** How alarming a state is; the views colour by it. */
export type Tone = 'ok' | 'pending' | 'warning' | 'danger' | 'neutral';

export interface Drift {
  /** danger: the controller gave up or failed; warning: desired and actual differ for now. */
  severity: 'warning' | 'danger';
  /** Why, worst first, in full (the Overview's hover card, the graph's panel). */
  reasons: string[];
  /**
   * The worst reason in a few words for a table cell, whose row shows the counts already:
   * "2 not ready", "1 extra ready", "spec unobserved", or the failed condition's reason; "+N"
   * when there are more.
   */
  summary: string;
}

/** Full reasons and their short forms, in the same order. */
interface Reasons {
  full: string[];
  short: string[];
}

interface Status {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  updatedReplicas?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  numberAvailable?: number;
  updatedNumberScheduled?: number;
  succeeded?: number;
  active?: number | unknown[];
  conditions?: unknown;
}

export interface WorkloadView extends SlimObject {
  spec?: { replicas?: number; paused?: boolean; completions?: number; suspend?: boolean; schedule?: string };
  status?: Status;
}

/** Desired and actual numbers of a workload; null where the kind has no such number. */
export interface WorkloadCounts {
  desired: number | null;
  ready: number | null;
  available: number | null;
  upToDate: number | null;
  /** Pods the controller runs now (status.replicas), to tell scaling from not-ready. */
  current: number | null;
}

const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

export function workloadCounts(object: WorkloadView): WorkloadCounts {
  const spec = object.spec ?? {};
  const status = object.status ?? {};
  switch (object.kind) {
    case 'DaemonSet':
      return { desired: num(status.desiredNumberScheduled), ready: num(status.numberReady), available: num(status.numberAvailable), upToDate: num(status.updatedNumberScheduled), current: null };
    case 'ReplicaSet':
      return { desired: spec.replicas ?? 1, ready: num(status.readyReplicas), available: num(status.availableReplicas), upToDate: null, current: num(status.replicas) };
    case 'Job':
      return { desired: spec.completions ?? 1, ready: num(status.succeeded), available: null, upToDate: null, current: null };
    case 'CronJob':
      return { desired: null, ready: null, available: null, upToDate: null, current: null };
    default:
      return { desired: spec.replicas ?? 1, ready: num(status.readyReplicas), available: num(status.availableReplicas), upToDate: num(status.updatedReplicas), current: num(status.replicas) };
  }
}

/** Kinds whose status carries observedGeneration (Jobs and CronJobs do not). */
const GENERATION_KINDS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

function generationLag(object: WorkloadView): string | null {
  if (!GENERATION_KINDS.has(object.kind)) return null;
  const generation = object.metadata.generation;
  if (generation === undefined) return null;
  const observed = object.status?.observedGeneration;
  if (observed === undefined) return `Spec generation ${generation} not yet seen by its controller`;
  return observed < generation ? `Spec generation ${generation} not yet observed (controller at ${observed})` : null;
}

/** Why desired and actual differ, worst first; null when they agree. */
export function workloadDrift(object: WorkloadView, conditions: readonly ConditionView[], c: WorkloadCounts = workloadCounts(object)): Drift | null {
  const danger: Reasons = { full: [], short: [] };
  const warning: Reasons = { full: [], short: [] };
  const add = (to: Reasons, full: string, short: string): void => {
    to.full.push(full);
    to.short.push(short);
  };
  const failed = (condition: ConditionView): void => add(danger, describeCondition(condition), condition.reason ?? `${condition.type}=${condition.status}`);
  const progressing = findCondition(conditions, 'Progressing');
  if (progressing?.status === 'False') failed(progressing);
  const replicaFailure = findCondition(conditions, 'ReplicaFailure');
  if (replicaFailure?.status === 'True') failed(replicaFailure);
  if (object.kind === 'Job') {
    const jobFailed = findCondition(conditions, 'Failed');
    if (jobFailed?.status === 'True') failed(jobFailed);
  } else if (object.kind !== 'CronJob' && c.desired !== null && c.ready !== null && c.desired !== c.ready) {
    const short = c.ready < c.desired ? `${c.desired - c.ready} not ready` : `${c.ready - c.desired} extra ready`;
    add(warning, `${c.ready} of ${c.desired} desired ${c.desired === 1 ? 'replica' : 'replicas'} ready`, short);
  }
  const lag = generationLag(object);
  if (lag) add(warning, lag, 'spec unobserved');
  const severity = danger.full.length > 0 ? 'danger' : 'warning';
  const reasons = [...danger.full, ...warning.full];
  const short = [...danger.short, ...warning.short];
  if (reasons.length === 0) return null;
  return { severity, reasons, summary: reasons.length > 1 ? `${short[0]} +${reasons.length - 1}` : (short[0] as string) };
}

function jobStatus(conditions: readonly ConditionView[], object: WorkloadView): { status: string; tone: Tone } {
  const isTrue = (type: string): boolean => findCondition(conditions, type)?.status === 'True';
  if (isTrue('Complete')) return { status: 'Complete', tone: 'neutral' };
  if (isTrue('Failed')) return { status: 'Failed', tone: 'danger' };
  if (object.metadata.deletionTimestamp) return { status: 'Terminating', tone: 'pending' };
  if (isTrue('Suspended')) return { status: 'Suspended', tone: 'neutral' };
  if (isTrue('FailureTarget')) return { status: 'FailureTarget', tone: 'danger' };
  return { status: 'Running', tone: 'pending' };
}

function cronJobStatus(object: WorkloadView): { status: string; tone: Tone } {
  if (object.spec?.suspend) return { status: 'Suspended', tone: 'neutral' };
  const active = object.status?.active;
  const running = Array.isArray(active) ? active.length : 0;
  return running > 0 ? { status: `Active (${running})`, tone: 'pending' } : { status: 'Scheduled', tone: 'ok' };
}

function replicaStatus(object: WorkloadView, conditions: readonly ConditionView[], c: WorkloadCounts, drift: Drift | null): { status: string; tone: Tone } {
  if (object.metadata.deletionTimestamp) return { status: 'Terminating', tone: 'pending' };
  if (findCondition(conditions, 'Progressing')?.status === 'False') return { status: 'Stalled', tone: 'danger' };
  if (findCondition(conditions, 'ReplicaFailure')?.status === 'True') return { status: 'Failing', tone: 'danger' };
  if (object.spec?.paused) return { status: 'Paused', tone: 'warning' };
  if (generationLag(object) || (c.upToDate !== null && c.desired !== null && c.upToDate < c.desired)) return { status: 'Rolling out', tone: 'pending' };
  if (c.current !== null && c.desired !== null && c.current !== c.desired) return { status: 'Scaling', tone: 'pending' };
  if (drift) return { status: 'Not ready', tone: 'warning' };
  return c.desired === 0 ? { status: 'Scaled to 0', tone: 'neutral' } : { status: 'Ready', tone: 'ok' };
}

/** Everything the views derive from a workload's spec and status. */
export interface WorkloadState {
  counts: WorkloadCounts;
  conditions: ConditionView[];
  drift: Drift | null;
  /** Short state in the kubectl spirit: Ready, Rolling out, Stalled, Complete, Suspended... */
  status: string;
  tone: Tone;
}

/** The state of a Deployment, StatefulSet, DaemonSet, ReplicaSet, Job or CronJob. */
export function workloadState(object: SlimObject): WorkloadState {
  const view = object as WorkloadView;
  const conditions = readConditions(view.status);
  const counts = workloadCounts(view);
  const drift = workloadDrift(view, conditions, counts);
  const state = view.kind === 'Job' ? jobStatus(conditions, view) : view.kind === 'CronJob' ? cronJobStatus(view) : replicaStatus(view, conditions, counts, drift);
  return { counts, conditions, drift, status: state.status, tone: state.tone };
}
