/** The columns of a controller's inferred reconciles: ongoing (stuck first), then newest first. */
import type { Reconcile } from '../../../shared/contracts/events.ts';
import { formatMoment } from '../../components/charts/time-format.ts';
import { formatLag } from '../../components/events/event-format.ts';
import type { TableColumn } from '../../components/table/columns.ts';

export function reconcileState(r: Reconcile): { text: string; tone: 'danger' | 'warning' | undefined } {
  if (r.end !== null) return { text: 'caught up', tone: undefined };
  return r.stuck ? { text: 'stuck', tone: 'danger' } : { text: 'in progress', tone: 'warning' };
}

export const RECONCILE_COLUMNS: ReadonlyArray<TableColumn<Reconcile>> = [
  { id: 'state', label: 'State', width: 92 },
  { id: 'workload', label: 'Object', width: 170, grow: 1, title: (r) => `${r.workload.namespace ?? ''}/${r.workload.name}` },
  { id: 'generation', label: 'Gen.', width: 52, align: 'end', text: (r) => String(r.generation), help: 'metadata.generation: the spec version the controller had to catch up with' },
  {
    id: 'start',
    label: 'Changed',
    width: 84,
    cellClass: 'muted',
    text: (r, now) => formatMoment(r.start, now),
    title: (r) => (r.startKnown ? undefined : 'Changed before Kubedrift was watching: this is when it first saw the change, so the lag is at least this long.'),
  },
  { id: 'lag', label: 'Lag', width: 76, align: 'end', cellClass: 'strong', text: (r) => `${r.startKnown ? '' : '≥ '}${formatLag(r.lagMs)}` },
  { id: 'acted', label: '', width: 92 },
];

/**
 * Before the spec change, one second: Event times are truncated to the second, so the first
 * actions can seem to precede it. After catching up the rollout goes on: a few minutes of it.
 */
const BEFORE_MS = 1_000;
const AFTER_MS = 3 * 60_000;

/** The window "who acted" shows for a reconcile (never past `now`). */
export function actedWindow(r: Reconcile, now: number): { from: number; to: number } {
  const from = r.start - BEFORE_MS;
  const to = Math.min(now, (r.end ?? now) + AFTER_MS);
  return { from, to: Math.max(to, from + 1) };
}

export const reconcileKey = (r: Reconcile): string => `${r.workload.uid}#${r.generation}`;
export const reconcileTone = (r: Reconcile): string | undefined => reconcileState(r).tone;
