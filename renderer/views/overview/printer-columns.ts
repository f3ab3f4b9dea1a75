/**
 * A custom kind's printer columns in the Overview: the server's Table (`cluster:table`, built from
 * the CRD's additionalPrinterColumns) asked for when one kind is shown, and asked again at most
 * once a second while that kind's objects change. Only the columns `kubectl get` shows (priority
 * 0) become table columns, minus Name and Age, which every Overview row has already. A failed
 * read shows its message instead of the columns; the rows stay.
 */
import { onScopeDispose, shallowRef, watch, type ShallowRef } from 'vue';
import type { ClusterTable, TableCell, TableColumnDefinition } from '../../../shared/contracts/tables.ts';
import { api } from '../../api/index.ts';
import type { TableColumn } from '../../components/table/columns.ts';
import type { OverviewRow } from '../../stores/rows/custom.ts';

/** Least time between two reads of the same kind's table while its objects change. */
export const PRINTER_REFRESH_MS = 1_000;

/** A cell as text: nothing printed reads "—" (kubectl's `<none>`), objects arrive as JSON text already. */
export function cellText(cell: TableCell | undefined): string {
  if (cell === undefined) return '';
  if (cell === null || cell === '') return '—';
  return String(cell);
}

/** Whether a Table column is one the Overview shows beside its own. */
function shown(column: TableColumnDefinition): boolean {
  if (column.priority !== 0) return false;
  // The row's own Name and Age columns say these (Age live, the server's only as of the read).
  if (column.format === 'name') return false;
  return !(column.type === 'date' && column.name === 'Age');
}

const CHAR_PX = 7;

/** The table columns of a kind's Table, reading each row's cells by uid. */
export function printerColumns(table: ClusterTable): Array<TableColumn<OverviewRow>> {
  const columns: Array<TableColumn<OverviewRow>> = [];
  table.columns.forEach((definition, index) => {
    if (!shown(definition)) return;
    const text = (row: OverviewRow): string => cellText(table.cells[row.uid]?.[index]);
    const numeric = definition.type === 'integer' || definition.type === 'number';
    columns.push({
      id: `printer-${index}`,
      label: definition.name,
      width: numeric ? Math.max(64, definition.name.length * CHAR_PX + 28) : Math.min(160, Math.max(96, definition.name.length * CHAR_PX + 28)),
      grow: numeric ? 0 : 2,
      align: numeric ? 'end' : 'start',
      text,
      // Long values (a condition's message) are cut by the cell's width; the tooltip has them whole.
      title: text,
      help: definition.description || `${definition.name} (${definition.type}), as \`kubectl get\` prints it`,
    });
  });
  return columns;
}

export interface PrinterTableOptions {
  /** The custom kind on view alone, or null (no table wanted). */
  kind: () => string | null;
  /** Changes when the kind's objects change (its store revision). */
  revision: () => unknown;
  /** Changes on a context switch (the store epoch): the table is read again. */
  epoch: () => unknown;
  refreshMs?: number;
}

export interface PrinterTable {
  table: ShallowRef<ClusterTable | null>;
  /** Why the columns could not be read, in the engine's words; null when they could. */
  error: ShallowRef<string | null>;
}

/** Keeps the Table of the kind on view, as described above. */
export function usePrinterTable(options: PrinterTableOptions): PrinterTable {
  const refreshMs = options.refreshMs ?? PRINTER_REFRESH_MS;
  const table = shallowRef<ClusterTable | null>(null);
  const error = shallowRef<string | null>(null);
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function cancel(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  async function read(kind: string): Promise<void> {
    cancel();
    const mine = ++asked;
    const result = await api().request('cluster:table', { kind });
    // A newer read (another kind, a later change) has the last word.
    if (mine !== asked) return;
    if (result.ok) {
      table.value = result.value;
      error.value = null;
    } else {
      table.value = null;
      error.value = result.error.message;
    }
  }

  watch(
    [options.kind, options.epoch],
    ([kind]) => {
      cancel();
      asked += 1;
      table.value = null;
      error.value = null;
      if (kind !== null) void read(kind);
    },
    { immediate: true },
  );

  // Not a pure debounce: with objects changing every few hundred ms that would never read.
  watch(options.revision, () => {
    const kind = options.kind();
    if (kind === null || timer !== null) return;
    timer = setTimeout(() => void read(kind), refreshMs);
  });

  onScopeDispose(() => {
    cancel();
    asked += 1;
  });

  return { table, error };
}
