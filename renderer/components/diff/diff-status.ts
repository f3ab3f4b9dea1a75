/** How each diff status looks and reads, in one place for the badges, counts and list. */
import type { DiffStatus } from '../../../shared/contracts/diff.ts';

export interface StatusLook {
  label: string;
  tone: 'success' | 'warning' | 'danger' | 'accent';
  /** What the status means, for tooltips. */
  help: string;
}

export const STATUS_LOOK: Record<DiffStatus, StatusLook> = {
  OutOfSync: { label: 'Out of sync', tone: 'warning', help: 'The cluster differs from the files: applying them would change it.' },
  Missing: { label: 'Missing', tone: 'accent', help: 'Not in the cluster: applying the files would create it.' },
  Error: { label: 'Error', tone: 'danger', help: 'Could not be compared: the reason is on the row.' },
  InSync: { label: 'In sync', tone: 'success', help: 'The cluster matches the files (after ignore rules).' },
};

/** The order of the count tiles, and of the engine's rows. */
export const STATUS_ORDER: readonly DiffStatus[] = ['OutOfSync', 'Missing', 'Error', 'InSync'];

type Identity = { kind: string; namespace?: string | undefined; name: string; source: { file: string } };

/** `shop/web`, `shop` (cluster-scoped), or the file name for a document without identity. */
export function objectName(row: Identity): string {
  if (!row.kind && !row.name) return row.source.file.split('/').pop() ?? row.source.file;
  return `${row.namespace ? `${row.namespace}/` : ''}${row.name || '(no name)'}`;
}

/** `Deployment shop/web`. */
export function objectTitle(row: Identity): string {
  return row.kind || row.name ? `${row.kind || '(no kind)'} ${objectName(row)}` : objectName(row);
}

/** The last two path segments of a source file: enough to recognise it in a list. */
export function shortFile(file: string): string {
  return file.split('/').slice(-2).join('/');
}
