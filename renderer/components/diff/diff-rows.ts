/** The result list's columns and its filter (status tile + search text). */
import type { DiffRow, DiffStatus } from '../../../shared/contracts/diff.ts';
import type { TableColumn } from '../table/columns.ts';
import { objectTitle, shortFile, STATUS_LOOK } from './diff-status.ts';

export function changesText(row: DiffRow): string {
  if (row.status === 'Error') return row.reason ?? '';
  if (row.status === 'Missing') return 'not in the cluster';
  if (row.status === 'InSync') return row.ignored ? `${row.ignored} ignored` : '';
  const more = row.changed - row.fields.length;
  return `${row.fields.join(', ')}${more > 0 ? ` +${more} more` : ''}`;
}

export const DIFF_COLUMNS: ReadonlyArray<TableColumn<DiffRow>> = [
  { id: 'status', label: 'Status', width: 120, text: (row) => STATUS_LOOK[row.status].label },
  { id: 'object', label: 'Object · differences', width: 240, grow: 1, text: objectTitle, title: (row) => `${objectTitle(row)}\n${row.source.file}:${row.source.line}${changesText(row) ? `\n${changesText(row)}` : ''}` },
];

/** The list's second line: what differs, why it failed, or (in sync) where it came from. */
export function detailText(row: DiffRow): string {
  return changesText(row) || `${shortFile(row.source.file)}:${row.source.line}`;
}

/** Rows with `status` (all when null) whose object, fields, reason or file contain the query. */
export function filterRows(rows: readonly DiffRow[], status: DiffStatus | null, query: string): DiffRow[] {
  const needle = query.trim().toLowerCase();
  return rows.filter((row) => {
    if (status && row.status !== status) return false;
    if (!needle) return true;
    return [objectTitle(row), row.apiVersion, row.source.file, row.reason ?? '', ...row.fields].some((text) => text.toLowerCase().includes(needle));
  });
}

export function rowTone(row: DiffRow): string | undefined {
  return row.status === 'Error' ? 'danger' : row.status === 'OutOfSync' ? 'warning' : undefined;
}
