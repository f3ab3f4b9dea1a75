/** The Pods table's columns and filters. */
import type { TableColumn } from '../../components/table/columns.ts';
import { formatAge } from '../../stores/rows/format.ts';
import type { PodRow } from '../../stores/rows/pods.ts';
import { TONE_RANK } from '../overview/workload-columns.ts';
import { searchWords } from '../overview/workload-filter.ts';

/** RESTARTS as kubectl prints it: "3 (5m ago)" once a container restarted. */
export function restartsText(row: PodRow, now: number): string {
  if (row.restarts === 0 || Number.isNaN(row.lastRestart)) return String(row.restarts);
  return `${row.restarts} (${formatAge(now - row.lastRestart)} ago)`;
}

export const POD_COLUMNS: ReadonlyArray<TableColumn<PodRow>> = [
  { id: 'status', label: 'Status', width: 168, sortKey: (row) => `${TONE_RANK[row.tone]}${row.status}`, title: (row) => row.status },
  { id: 'namespace', label: 'Namespace', width: 120, grow: 1, text: (row) => row.namespace, sortKey: (row) => row.namespace, cellClass: 'muted' },
  { id: 'name', label: 'Name', width: 220, grow: 3, text: (row) => row.name, sortKey: (row) => row.name, cellClass: 'strong', title: (row) => row.name },
  { id: 'ready', label: 'Ready', width: 58, align: 'end', sortKey: (row) => (row.totalContainers === 0 ? 1 : row.readyContainers / row.totalContainers) },
  { id: 'restarts', label: 'Restarts', width: 90, align: 'end', text: restartsText, sortKey: (row) => row.restarts, firstDirection: 'desc' },
  { id: 'controlledBy', label: 'Controlled by', width: 140, grow: 1, text: (row) => row.controlledBy || '—', sortKey: (row) => row.controlledBy, cellClass: 'muted', title: (row) => row.controlledBy || undefined },
  { id: 'node', label: 'Node', width: 130, grow: 1, text: (row) => row.node || '—', sortKey: (row) => row.node, cellClass: 'muted' },
  { id: 'age', label: 'Age', width: 66, align: 'end', text: (row, now) => formatAge(now - row.created), sortKey: (row) => -row.created },
];

export interface PodFilter {
  namespace: string;
  search: string;
  problemsOnly: boolean;
}

/** Filters sorted rows; `problems` counts the not-healthy pods under the other filters. */
export function filterPods(sorted: readonly PodRow[], filter: PodFilter): { rows: readonly PodRow[]; problems: number } {
  const words = searchWords(filter.search);
  const rows: PodRow[] = [];
  let problems = 0;
  // Unfiltered, the sorted list is the answer: count, do not copy 50,000 rows.
  if (!filter.namespace && words.length === 0 && !filter.problemsOnly) {
    for (const row of sorted) if (row.tone === 'warning' || row.tone === 'danger') problems += 1;
    return { rows: sorted, problems };
  }
  for (const row of sorted) {
    if (filter.namespace && row.namespace !== filter.namespace) continue;
    if (words.length > 0 && !words.every((word) => row.search.includes(word))) continue;
    const problem = row.tone === 'warning' || row.tone === 'danger';
    if (problem) problems += 1;
    if (filter.problemsOnly && !problem) continue;
    rows.push(row);
  }
  return { rows, problems };
}
