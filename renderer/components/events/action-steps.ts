/**
 * "Who acted" as steps: the engine's actions (Events of the workload and its descendants) and
 * its inferred reconciles merged into one ordered sequence — the spec changed (generation N),
 * the controller observed it (observedGeneration caught up), then each controller's actions —
 * plus one lane per controller for the strip that shows them over the window.
 */
import type { Action, ActionsResult, EventObject } from '../../../shared/contracts/events.ts';
import { formatLag } from './event-format.ts';

export interface ActionStep {
  key: string;
  at: number;
  /** `spec`: metadata.generation bumped; `observed`: observedGeneration caught up; `action`: an Event. */
  step: 'spec' | 'observed' | 'action';
  controller: string;
  /** Index into `lanes` (spec changes are nobody's: -1). */
  lane: number;
  reason: string;
  message: string;
  warning: boolean;
  object: EventObject | null;
  count: number;
  depth: number;
}

export interface ActionTimelineModel {
  lanes: string[];
  steps: ActionStep[];
  /** Position of each step on the window, 0..1 (same order as steps). */
  positions: number[];
}

/** At one instant: the change, then what the controllers did about it, then their status saying so. */
const ORDER = { spec: 0, action: 1, observed: 2 } as const;

/**
 * Event times have a second's precision (their timestamps are truncated), the spec change's
 * does not: an action in the same second as a spec change, seemingly before it, is placed at it.
 */
function afterChange(at: number, changes: readonly number[]): number {
  for (const change of changes) if (at < change && Math.floor(at / 1_000) === Math.floor(change / 1_000)) return change;
  return at;
}

function actionStep(action: Action): Omit<ActionStep, 'lane'> {
  return {
    key: `a-${action.id}`,
    at: action.at,
    step: 'action',
    controller: action.controller,
    reason: action.reason,
    message: action.message,
    warning: action.type === 'Warning',
    object: action.object,
    count: action.count,
    depth: action.depth,
  };
}

export function buildActionTimeline(result: ActionsResult): ActionTimelineModel {
  const changes = result.reconciles.map((r) => r.start);
  const raw: Array<Omit<ActionStep, 'lane'>> = result.actions.map((action) => ({ ...actionStep(action), at: afterChange(action.at, changes) }));
  for (const r of result.reconciles) {
    const object: EventObject = { kind: r.workload.kind, name: r.workload.name, uid: r.workload.uid, ...(r.workload.namespace ? { namespace: r.workload.namespace } : {}) };
    const base = { object, count: 1, depth: 0, warning: false };
    raw.push({ ...base, key: `s-${r.workload.uid}-${r.generation}`, at: r.start, step: 'spec', controller: '', reason: `Spec changed: generation ${r.generation}`, message: r.startKnown ? '' : 'Changed before Kubedrift was watching.' });
    if (r.end !== null && r.end <= result.to) {
      raw.push({ ...base, key: `o-${r.workload.uid}-${r.generation}`, at: r.end, step: 'observed', controller: r.controller, reason: `Observed generation ${r.generation}`, message: `status.observedGeneration caught up after ${formatLag(r.lagMs)}` });
    } else if (r.end === null) {
      raw.push({ ...base, key: `o-${r.workload.uid}-${r.generation}`, at: result.to, step: 'observed', controller: r.controller, reason: r.stuck ? `Stuck: generation ${r.generation} not observed` : `Generation ${r.generation} not observed yet`, message: `No observedGeneration ${r.generation} yet`, warning: r.stuck });
    }
  }
  raw.sort((a, b) => a.at - b.at || ORDER[a.step] - ORDER[b.step] || a.depth - b.depth);
  const lanes: string[] = [];
  const steps = raw.map((step) => {
    let lane = -1;
    if (step.controller) {
      lane = lanes.indexOf(step.controller);
      if (lane < 0) lane = lanes.push(step.controller) - 1;
    }
    return { ...step, lane };
  });
  const span = Math.max(1, result.to - result.from);
  return { lanes, steps, positions: steps.map((s) => Math.min(1, Math.max(0, (s.at - result.from) / span))) };
}

/** "+0.4 s", "+12 s", "+2m 05s" after the first step. */
export function offsetText(ms: number): string {
  if (ms < 10_000) return `+${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  if (ms < 60_000) return `+${Math.round(ms / 1_000)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `+${minutes}m ${String(Math.floor((ms % 60_000) / 1_000)).padStart(2, '0')}s`;
}
