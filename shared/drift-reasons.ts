/**
 * What a recorded drift reason is called and how alarming it looks, in one place for every view
 * of history: the workload's episode list, the timeline's bars and legend, the workload chart's
 * bands and the snapshot's HTML report. "Stalled" is kept for a controller that gave up
 * (Progressing=False, a Job past its backoffLimit, an HPA that cannot scale); a rollout that is
 * still going is "Rolling out", in a calm tone, like kubectl's `rollout status` and kstatus'
 * InProgress.
 */
import { BUILTIN_KEYS } from './builtin-kinds.ts';
import { HISTORY_KINDS, type DriftReason } from './contracts/history.ts';

/** How an episode is coloured: danger = gave up, warning = fewer ready than desired, pending = on its way. */
export type DriftSeverity = 'danger' | 'warning' | 'pending';

/** A badge's tone (the renderer's `kd-badge` tones; neutral = no colour). */
export type ReasonTone = 'danger' | 'warning' | 'accent' | 'neutral';

export interface ReasonLabel {
  reason: DriftReason;
  /** A word or two for a badge: "Rolling out", "Stalled"... */
  label: string;
  tone: ReasonTone;
  /** One sentence for a tooltip or a report. */
  description: string;
}

/** Worst first: the order badges and report cells list reasons in. */
const ORDER: readonly DriftReason[] = ['stalled', 'ready', 'progressing', 'generation'];

const BUILT_IN_HISTORY_KINDS: ReadonlySet<string> = new Set(HISTORY_KINDS);

/** A custom resource's reasons come from its status rule's state, not from replica counts. */
function describeCustom(reason: DriftReason): Omit<ReasonLabel, 'reason'> {
  switch (reason) {
    case 'stalled':
      return { label: 'Failed', tone: 'danger', description: 'Its controller reported it failed or gave up (Stalled=True, or the failure its kind\'s status rule names).' };
    case 'ready':
      return { label: 'Not ready', tone: 'warning', description: 'Fewer replicas were ready than desired, or its status said actual differed from desired.' };
    case 'progressing':
      return { label: 'Reconciling', tone: 'accent', description: 'Its controller was still working towards the spec (Reconciling=True, or Ready not yet True).' };
    case 'generation':
      return { label: 'Spec not observed', tone: 'neutral', description: 'Its controller had not yet observed the latest spec (observedGeneration < generation).' };
  }
}

function describe(reason: DriftReason, kind: string | undefined): Omit<ReasonLabel, 'reason'> {
  if (kind !== undefined && !BUILT_IN_HISTORY_KINDS.has(kind)) return describeCustom(reason);
  switch (reason) {
    case 'stalled':
      if (kind === BUILTIN_KEYS.Job) return { label: 'Stalled', tone: 'danger', description: 'The Job failed: it reached its backoffLimit or deadline and stopped retrying.' };
      if (kind === BUILTIN_KEYS.HorizontalPodAutoscaler) return { label: 'Stalled', tone: 'danger', description: 'The autoscaler could not compute a scale (ScalingActive=False), e.g. its metrics are missing.' };
      return { label: 'Stalled', tone: 'danger', description: 'The controller gave up on the rollout: Progressing=False (e.g. ProgressDeadlineExceeded).' };
    case 'ready':
      return kind === BUILTIN_KEYS.HorizontalPodAutoscaler
        ? { label: 'Scaling', tone: 'warning', description: 'The autoscaler ran a different number of replicas than it wanted.' }
        : { label: 'Not ready', tone: 'warning', description: 'Fewer (or more) replicas were ready than desired.' };
    case 'progressing':
      return kind === BUILTIN_KEYS.Job
        ? { label: 'Retrying', tone: 'accent', description: 'Pods of the Job failed and it was retrying them, within its backoffLimit.' }
        : { label: 'Rolling out', tone: 'accent', description: 'The new spec was still rolling out: not every replica ran it yet, and the controller was still working on it.' };
    case 'generation':
      return { label: 'Spec not observed', tone: 'neutral', description: 'The controller had not yet observed the latest spec (observedGeneration < generation).' };
  }
}

/** The label, tone and sentence of one reason for a workload of `kind` (a kind key). */
export function reasonLabel(reason: DriftReason, kind?: string): ReasonLabel {
  return { reason, ...describe(reason, kind) };
}

/**
 * An episode's reasons as badges, worst first. A rollout that later stalled recorded both; it is
 * shown as "Stalled" alone, since "Rolling out" beside it would contradict it.
 */
export function reasonLabels(reasons: readonly DriftReason[], kind?: string): ReasonLabel[] {
  const shown = reasons.includes('stalled') ? reasons.filter((reason) => reason !== 'progressing') : reasons;
  return ORDER.filter((reason) => shown.includes(reason)).map((reason) => reasonLabel(reason, kind));
}

/**
 * How an episode is coloured. A controller that gave up is danger. A rollout in progress is
 * pending even while its new pods are not ready yet (that is what a rollout looks like); fewer
 * ready than desired without a rollout (pods lost, a node gone) is a warning.
 */
export function episodeSeverity(reasons: readonly DriftReason[]): DriftSeverity {
  if (reasons.includes('stalled')) return 'danger';
  if (reasons.includes('progressing')) return 'pending';
  return reasons.includes('ready') ? 'warning' : 'pending';
}

/** The legend of episode colours, in the order views list it. */
export const SEVERITY_LEGEND: ReadonlyArray<{ severity: DriftSeverity; label: string }> = [
  { severity: 'danger', label: 'Stalled' },
  { severity: 'warning', label: 'Not ready' },
  { severity: 'pending', label: 'Rolling out / spec not observed' },
];
