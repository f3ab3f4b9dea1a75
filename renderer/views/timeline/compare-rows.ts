/**
 * "Compare T1 with T2" as table rows: for each workload whose desired or actual state changed,
 * the before → after of each count and one sentence saying what happened (scaled, spec
 * changed, lost or regained readiness, created, deleted), worst news first. A custom
 * resource's state change reads in the status rule's words with its condition's reason.
 */
import type { Sample, WorkloadChange } from '../../../shared/contracts/history.ts';
import type { ObjectState } from '../../../shared/contracts/status-rules.ts';
import type { TableColumn } from '../../components/table/columns.ts';
import { kindLabelOf } from './kind-label.ts';

export type ChangeTone = 'danger' | 'warning' | 'ok' | 'neutral';

export interface ChangeRow {
  uid: string;
  kind: string;
  namespace: string;
  name: string;
  summary: string;
  tone: ChangeTone;
  desired: string;
  ready: string;
  available: string;
  updated: string;
  generation: string;
  /** Lower-cased "kind namespace/name" for the text filter. */
  search: string;
}

type Field = 'desired' | 'ready' | 'available' | 'updated' | 'generation';

/** "3", or "3 → 5" when it changed ("—" where unset). */
export function pair(before: Sample | null, after: Sample | null, field: Field): string {
  const a = before?.[field] ?? null;
  const b = after?.[field] ?? null;
  const text = (value: number | null): string => (value === null ? '—' : String(value));
  if (before === null) return text(b);
  if (after === null) return text(a);
  return a === b ? text(a) : `${text(a)} → ${text(b)}`;
}

const NOT_CONVERGED: ReadonlySet<ObjectState> = new Set(['unobserved', 'progressing', 'drifting']);
/** Fewer (or more) ready than desired, where the object has both counts. */
const short = (sample: Sample | null): boolean => sample !== null && sample.desired !== null && sample.ready !== null && sample.ready !== sample.desired;
/** Short of ready replicas, or a custom resource whose status says it is not converged. */
const drifting = (sample: Sample | null): boolean => short(sample) || (!!sample?.state && NOT_CONVERGED.has(sample.state));
const stalled = (sample: Sample | null): boolean => sample?.progressingCondition === 'False' || sample?.state === 'failed';

/** A custom resource's states as the views say them. */
const STATE_WORDS: Readonly<Record<ObjectState, string>> = {
  terminating: 'terminating',
  unobserved: 'spec not observed',
  progressing: 'in progress',
  drifting: 'drifting',
  failed: 'failed',
  suspended: 'suspended',
  current: 'current',
  none: 'no status signal',
};

/** "in progress → failed (UnsupportedVersion)": a custom resource's state change. */
function stateChange(before: Sample, after: Sample): string {
  const word = (sample: Sample): string => (sample.state ? STATE_WORDS[sample.state] : '—');
  return `${word(before)} → ${word(after)}${after.progressingReason ? ` (${after.progressingReason})` : ''}`;
}

/** How the less telling fields read when nothing above says more. */
const FIELD_WORDS: Record<string, string> = {
  current: 'pods',
  available: 'available',
  updated: 'up-to-date',
  unavailable: 'unavailable',
  observedGeneration: 'observed generation',
  availableCondition: 'Available',
  progressingCondition: 'Progressing',
  progressingReason: 'progress',
};

function otherChanges(before: Sample, after: Sample, changed: readonly string[]): string[] {
  const parts = changed.flatMap((field) => {
    const word = FIELD_WORDS[field];
    if (!word) return [];
    const value = (sample: Sample): string => String((sample as unknown as Record<string, unknown>)[field] ?? '—');
    return [`${word} ${value(before)} → ${value(after)}`];
  });
  return parts.length > 0 ? parts : [`${changed.join(', ')} changed`];
}

function describe(change: WorkloadChange): { summary: string; tone: ChangeTone } {
  const { before, after, changed } = change;
  if (changed.includes('created') || before === null) {
    return { summary: `Created${after?.desired !== null && after?.desired !== undefined ? ` with ${after.desired} desired` : ''}`, tone: drifting(after) ? 'warning' : 'neutral' };
  }
  if (changed.includes('deleted') || after === null) return { summary: 'Deleted', tone: 'neutral' };
  const parts: string[] = [];
  if (changed.includes('desired')) parts.push(`scaled ${before.desired ?? '—'} → ${after.desired ?? '—'}`);
  if (changed.includes('generation')) parts.push(`spec changed (generation ${before.generation ?? '—'} → ${after.generation ?? '—'})`);
  if (changed.includes('state')) parts.push(stateChange(before, after));
  else if (stalled(after) && !stalled(before)) parts.push(`rollout stalled${after.progressingReason ? ` (${after.progressingReason})` : ''}`);
  if (changed.includes('ready')) {
    if (short(after)) parts.push(`${after.ready ?? 0} of ${after.desired ?? 0} ready (was ${before.ready ?? '—'})`);
    else if (after.desired !== 0) parts.push(`all ${after.ready ?? 0} ready again`);
  } else if (short(after)) {
    parts.push(`${after.ready ?? 0} of ${after.desired ?? 0} ready`);
  }
  if (parts.length === 0) parts.push(...otherChanges(before, after, changed));
  const sentence = parts.join('; ');
  const tone: ChangeTone = stalled(after) ? 'danger' : drifting(after) ? 'warning' : drifting(before) || stalled(before) ? 'ok' : 'neutral';
  return { summary: sentence.charAt(0).toUpperCase() + sentence.slice(1), tone };
}

export function changeRow(change: WorkloadChange): ChangeRow {
  const { workload, before, after } = change;
  return {
    uid: workload.uid,
    kind: kindLabelOf(workload).kind,
    namespace: workload.namespace,
    name: workload.name,
    ...describe(change),
    desired: pair(before, after, 'desired'),
    ready: pair(before, after, 'ready'),
    available: pair(before, after, 'available'),
    updated: pair(before, after, 'updated'),
    generation: pair(before, after, 'generation'),
    search: `${kindLabelOf(workload).kind} ${kindLabelOf(workload).custom ? `${kindLabelOf(workload).group} ` : ''}${workload.namespace}/${workload.name}`.toLowerCase(),
  };
}

const TONE_RANK: Record<ChangeTone, number> = { danger: 0, warning: 1, ok: 2, neutral: 3 };

export const CHANGE_COLUMNS: ReadonlyArray<TableColumn<ChangeRow>> = [
  { id: 'summary', label: 'What changed', width: 260, grow: 3, text: (row) => row.summary, sortKey: (row) => `${TONE_RANK[row.tone]}${row.summary}`, title: (row) => row.summary },
  { id: 'kind', label: 'Kind', width: 92, text: (row) => row.kind, sortKey: (row) => row.kind, cellClass: 'muted' },
  { id: 'name', label: 'Workload', width: 180, grow: 2, text: (row) => `${row.namespace}/${row.name}`, sortKey: (row) => `${row.namespace}/${row.name}`, cellClass: 'strong' },
  { id: 'desired', label: 'Desired', width: 80, align: 'end', text: (row) => row.desired },
  { id: 'ready', label: 'Ready', width: 80, align: 'end', text: (row) => row.ready },
  { id: 'available', label: 'Available', width: 96, align: 'end', text: (row) => row.available },
  { id: 'updated', label: 'Up-to-date', width: 104, align: 'end', text: (row) => row.updated },
  { id: 'generation', label: 'Generation', width: 104, align: 'end', text: (row) => row.generation },
];
