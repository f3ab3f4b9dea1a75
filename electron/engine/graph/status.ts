/**
 * A graph card for any object without a dedicated describer (custom resources above all), from
 * the one desired-vs-actual rule (shared/object-status.ts): its colour from the rule's tone, its
 * line from the cluster's own reason and its second line from the condition's message. An
 * object with no status signal is neutral, never green (Headlamp's map paints every custom
 * resource green; a resource that reports nothing has not said it is ready).
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { GraphHealth } from '../../../shared/contracts/graph.ts';
import type { ObjectState } from '../../../shared/contracts/status-rules.ts';
import { objectStatus, type StatusSubject } from '../../../shared/object-status.ts';
import type { Tone } from '../../../shared/workload-status.ts';

export interface StatusDescription {
  health: GraphHealth;
  status: string;
  detail?: string;
  flags: [];
}

const TONE_HEALTH: Record<Tone, GraphHealth> = { ok: 'ready', pending: 'progressing', warning: 'drifting', danger: 'failing', neutral: 'neutral' };

/** Lines for states whose reason is the rule's own code rather than the cluster's words. */
const STATE_LINES: Partial<Record<ObjectState, string>> = {
  none: 'No status signal',
  unobserved: 'Spec not observed yet',
  terminating: 'Terminating',
};

/** The card of an object read by the status rule; `rules` as objectStatus takes them (the user's, a test's table). */
export function describeByStatus(object: SlimObject, rules: Parameters<typeof objectStatus>[1] = {}): StatusDescription {
  const verdict = objectStatus(object as unknown as StatusSubject, rules);
  const status = STATE_LINES[verdict.state] ?? (verdict.reason || verdict.state);
  // The message is the cluster's sentence; the card shows its first line, the panel all of it.
  const message = verdict.state === 'none' ? '' : (verdict.message.split('\n')[0] ?? '');
  return { health: TONE_HEALTH[verdict.tone], status, ...(message !== '' ? { detail: message } : {}), flags: [] };
}
