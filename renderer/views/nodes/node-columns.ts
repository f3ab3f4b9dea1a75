/** The Nodes table's columns; the pod count comes from the pods, so the columns close over it. */
import type { TableColumn } from '../../components/table/columns.ts';
import { formatAge, formatBytes, formatCores } from '../../stores/rows/format.ts';
import type { NodeRow } from '../../stores/rows/nodes.ts';
import { TONE_RANK } from '../overview/workload-columns.ts';

/** Columns for nodes, reading pod counts per node name from `podCounts()`. */
export function nodeColumns(podCounts: () => ReadonlyMap<string, number>): ReadonlyArray<TableColumn<NodeRow>> {
  return [
    { id: 'status', label: 'Status', width: 180, sortKey: (row) => `${TONE_RANK[row.tone]}${row.status}` },
    { id: 'name', label: 'Name', width: 220, grow: 3, text: (row) => row.name, sortKey: (row) => row.name, cellClass: 'strong', title: (row) => row.name },
    { id: 'roles', label: 'Roles', width: 120, grow: 1, text: (row) => row.roles, sortKey: (row) => row.roles, cellClass: 'muted' },
    { id: 'version', label: 'Version', width: 110, text: (row) => row.version, sortKey: (row) => row.version, cellClass: 'muted' },
    { id: 'pods', label: 'Pods', width: 64, align: 'end', text: (row) => (podCounts().get(row.name) ?? 0).toLocaleString('en-US'), sortKey: (row) => podCounts().get(row.name) ?? 0, firstDirection: 'desc', help: 'Pods on the node that are not finished' },
    { id: 'cpu', label: 'CPU', width: 64, align: 'end', text: (row) => formatCores(row.cpu), sortKey: (row) => row.cpu, firstDirection: 'desc', help: 'Allocatable CPU cores' },
    { id: 'memory', label: 'Memory', width: 84, align: 'end', text: (row) => formatBytes(row.memory), sortKey: (row) => row.memory, firstDirection: 'desc', help: 'Allocatable memory' },
    { id: 'age', label: 'Age', width: 66, align: 'end', text: (row, now) => formatAge(now - row.created), sortKey: (row) => -row.created },
  ];
}
