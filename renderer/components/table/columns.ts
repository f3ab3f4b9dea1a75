/**
 * Column definitions for BaseVirtualTable (sorting is in sort.ts). Columns have fixed minimum
 * widths (rows are a CSS grid, never measured), so any row can render on its own.
 */

export interface TableColumn<Row> {
  id: string;
  label: string;
  /** Minimum width in px; the column never gets narrower (the table scrolls sideways instead). */
  width: number;
  /** Share of the spare width, like CSS `fr`; 0 or absent keeps the column at `width`. */
  grow?: number;
  align?: 'start' | 'end';
  /** The cell's text (`now` is for ages). A `cell-<id>` slot replaces it with richer content. */
  text?: (row: Row, now: number) => string;
  /** Sort key; a column without one is not sortable. */
  sortKey?: (row: Row) => string | number;
  /** Which direction a first click sorts (ages and counts read best largest-first). */
  firstDirection?: SortDirection;
  /** Tooltip for the cell. */
  title?: (row: Row) => string | undefined;
  /** Extra class on every cell of the column (`mono`, `muted`, `strong`). */
  cellClass?: string;
  /** Header tooltip, for columns whose meaning differs by kind. */
  help?: string;
}

export type SortDirection = 'asc' | 'desc';

export interface SortState {
  column: string;
  direction: SortDirection;
}

/** The grid template and minimum row width for a set of columns. */
export function columnLayout(columns: ReadonlyArray<TableColumn<never>>): { template: string; minWidth: number } {
  const template = columns.map((column) => (column.grow ? `minmax(${column.width}px, ${column.grow}fr)` : `${column.width}px`)).join(' ');
  return { template, minWidth: columns.reduce((sum, column) => sum + column.width, 0) };
}

/** The sort a click on `column` asks for, given the current one. */
export function nextSort(current: SortState | null, column: TableColumn<never>): SortState {
  if (current?.column === column.id) return { column: column.id, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column: column.id, direction: column.firstDirection ?? 'asc' };
}
