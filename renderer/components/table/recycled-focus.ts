/**
 * Keyboard focus in a table whose row elements are recycled (BaseVirtualTable's `recycleRows`):
 * an element stays at its place while the row it shows changes, so a focused link or button
 * would, after a sort or a live update, act on another row. Before the render the focus is
 * noted as (row key, column, n-th focusable in the cell); after it, the same control of the
 * same row gets the focus back, or, when the row left the view, the table itself does (never a
 * control of a row the user did not choose).
 */

/** Where the focus was: in which row (its key), which cell and which of the cell's focusable elements. */
export interface FocusedPlace {
  rowKey: string;
  cell: number;
  control: number;
  element: Element;
}

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** The focused control inside one of `table`'s body rows, or undefined when the focus is elsewhere. */
export function focusedPlace(table: HTMLElement): FocusedPlace | undefined {
  const active = table.ownerDocument.activeElement;
  if (!active || active === table || !table.contains(active)) return undefined;
  const row = active.closest<HTMLElement>('[data-row-key]');
  const cell = active.closest<HTMLElement>('[role="cell"]');
  const rowKey = row?.dataset['rowKey'];
  if (!row || !cell || rowKey === undefined || !row.contains(cell)) return undefined;
  const cells = [...row.querySelectorAll(':scope > [role="cell"]')];
  const controls = [...cell.querySelectorAll(FOCUSABLE)];
  return { rowKey, cell: cells.indexOf(cell), control: controls.indexOf(active), element: active };
}

/** Puts the focus back on `place`'s control of its row, or on `table` when that row is not rendered now. */
export function refocus(table: HTMLElement, place: FocusedPlace): void {
  const active = table.ownerDocument.activeElement;
  const rowNow = place.element.isConnected ? place.element.closest<HTMLElement>('[data-row-key]') : null;
  // The element still shows its row (nothing moved): leave the focus alone.
  if (active === place.element && rowNow?.dataset['rowKey'] === place.rowKey) return;
  // The focus moved on by itself meanwhile (to something outside the table): not ours to change.
  if (active !== place.element && active !== table.ownerDocument.body && active !== null && !table.contains(active)) return;
  const row = [...table.querySelectorAll<HTMLElement>('[data-row-key]')].find((element) => element.dataset['rowKey'] === place.rowKey);
  const cell = row?.querySelectorAll(':scope > [role="cell"]')[place.cell];
  const control = cell?.querySelectorAll<HTMLElement>(FOCUSABLE)[place.control];
  (control ?? table).focus({ preventScroll: true });
}
