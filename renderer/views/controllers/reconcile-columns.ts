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
  { id: 'state', label: 'State', width: 100 },
  { id: 'workload', label: 'Workload', width: 220, grow: 1 },
  { id: 'namespace', label: 'Namespace', width: 110, cellClass: 'muted', text: (r) => r.workload.namespace ?? '—' },
  { id: 'generation', label: 'Generation', width: 104, align: 'end', text: (r) => String(r.generation) },
  {
    id: 'start',
    label: 'Spec changed',
    width: 120,
    cellClass: 'muted',
    text: (r, now) => formatMoment(r.start, now),
    title: (r) => (r.startKnown ? undefined : 'Changed before Kubedrift was watching: this is when it first saw the change, so the lag is at least this long.'),
  },
  { id: 'lag', label: 'Lag', width: 96, align: 'end', cellClass: 'strong', text: (r) => `${r.startKnown ? '' : '≥ '}${formatLag(r.lagMs)}` },
];

export const reconcileKey = (r: Reconcile): string => `${r.workload.uid}#${r.generation}`;
export const reconcileTone = (r: Reconcile): string | undefined => reconcileState(r).tone;
