/** The Overview table's columns. */
import type { TableColumn } from '../../components/table/columns.ts';
import type { OverviewRow } from '../../stores/rows/custom.ts';
import { formatAge } from '../../stores/rows/format.ts';
import type { Tone } from '../../stores/rows/workloads.ts';

/** Worst first, so an ascending sort by status or drift puts trouble on top. */
export const TONE_RANK: Record<Tone, number> = { danger: 0, warning: 1, pending: 2, neutral: 3, ok: 4 };

const count = (value: number | null): string => (value === null ? '—' : String(value));
const countKey = (value: number | null): number => value ?? Number.NaN;

/** Minimum widths add up to under 1,000 px, so every column, Why included, fits a 1,280 px window. */
export const WORKLOAD_COLUMNS: ReadonlyArray<TableColumn<OverviewRow>> = [
  // The title keeps a state cut short by the narrow column ("Progressing") readable.
  { id: 'status', label: 'Status', width: 100, sortKey: (row) => `${TONE_RANK[row.tone]}${row.status}`, title: (row) => row.status },
  { id: 'kind', label: 'Kind', width: 100, text: (row) => row.kindName, sortKey: (row) => row.kindName, cellClass: 'muted' },
  { id: 'namespace', label: 'Namespace', width: 90, grow: 1, text: (row) => row.namespace, sortKey: (row) => row.namespace, cellClass: 'muted' },
  { id: 'name', label: 'Name', width: 140, grow: 3, text: (row) => row.name, sortKey: (row) => row.name, cellClass: 'strong', title: (row) => row.name },
  {
    id: 'desired',
    label: 'Desired',
    width: 64,
    align: 'end',
    text: (row) => count(row.desired),
    sortKey: (row) => countKey(row.desired),
    firstDirection: 'desc',
    help: 'Replicas in the spec; completions for a Job; scheduled nodes for a DaemonSet',
  },
  { id: 'ready', label: 'Ready', width: 58, align: 'end', sortKey: (row) => countKey(row.ready), firstDirection: 'desc', help: 'Ready replicas; succeeded completions for a Job' },
  { id: 'available', label: 'Available', width: 80, align: 'end', text: (row) => count(row.available), sortKey: (row) => countKey(row.available), firstDirection: 'desc' },
  { id: 'upToDate', label: 'Up-to-date', width: 84, align: 'end', text: (row) => count(row.upToDate), sortKey: (row) => countKey(row.upToDate), firstDirection: 'desc' },
  { id: 'age', label: 'Age', width: 52, align: 'end', text: (row, now) => formatAge(now - row.created), sortKey: (row) => -row.created },
  { id: 'drift', label: 'Drift', width: 64, sortKey: (row) => (row.drift ? (row.drift.severity === 'danger' ? 0 : 1) : 2) },
  // Filled from the causes store (a cell slot): the engine's cause finder, else the drift rule's
  // short reason, so the badge column stays narrow and the words get the width.
  {
    id: 'why',
    label: 'Why',
    width: 158,
    grow: 6,
    help: 'Why the workload drifts, in the cluster’s own words (else what the drift rule saw); for a custom resource, the reason and message behind its state. Hover for the whole sentence',
  },
];

const byId = (id: string): TableColumn<OverviewRow> => {
  const column = WORKLOAD_COLUMNS.find((candidate) => candidate.id === id);
  if (!column) throw new Error(`no Overview column ${id}`);
  return column;
};

/**
 * Columns when only custom resources are listed (a custom group or kind): no replica counts,
 * which they do not have. `extra` (a kind's printer columns) go after the name; with them the
 * Kind column is left out, every row being of the one kind.
 */
export function customColumns(extra?: ReadonlyArray<TableColumn<OverviewRow>>): ReadonlyArray<TableColumn<OverviewRow>> {
  const head = extra ? ['status', 'namespace', 'name'] : ['status', 'kind', 'namespace', 'name'];
  return [...head.map(byId), ...(extra ?? []), ...['age', 'drift', 'why'].map(byId)];
}
