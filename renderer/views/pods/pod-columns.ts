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

const isProblem = (row: PodRow): boolean => row.tone === 'warning' || row.tone === 'danger';

/**
 * Per sorted list (a new array whenever its order or rows change), built when first asked: its
 * rows by namespace, each in the list's order, so a namespace filter walks that namespace's rows
 * and not all 150,000.
 */
const byNamespace = new WeakMap<readonly PodRow[], Map<string, PodRow[]>>();

function namespaceIndex(sorted: readonly PodRow[]): Map<string, PodRow[]> {
  let index = byNamespace.get(sorted);
  if (!index) {
    index = new Map();
    for (const row of sorted) {
      const rows = index.get(row.namespace);
      if (rows) rows.push(row);
      else index.set(row.namespace, [row]);
    }
    byNamespace.set(sorted, index);
  }
  return index;
}

/** The not-healthy pods among `rows`. */
export function problemsIn(rows: readonly PodRow[]): number {
  let problems = 0;
  for (const row of rows) if (isProblem(row)) problems += 1;
  return problems;
}

/**
 * Filters sorted rows; `problems` counts the not-healthy pods under the other filters.
 * `allProblems` gives the count over every row, which does not depend on their order: a caller
 * that keeps it per revision spares a click on a header counting 150,000 rows again.
 */
export function filterPods(sorted: readonly PodRow[], filter: PodFilter, allProblems: () => number = () => problemsIn(sorted)): { rows: readonly PodRow[]; problems: number } {
  const words = searchWords(filter.search);
  // Unfiltered, the sorted list is the answer: count, do not copy 150,000 rows.
  if (!filter.namespace && words.length === 0 && !filter.problemsOnly) return { rows: sorted, problems: allProblems() };
  const candidates = filter.namespace ? (namespaceIndex(sorted).get(filter.namespace) ?? []) : sorted;
  const rows: PodRow[] = [];
  let problems = 0;
  for (const row of candidates) {
    if (words.length > 0 && !words.every((word) => row.search.includes(word))) continue;
    const problem = isProblem(row);
    if (problem) problems += 1;
    if (filter.problemsOnly && !problem) continue;
    rows.push(row);
  }
  return { rows, problems };
}
