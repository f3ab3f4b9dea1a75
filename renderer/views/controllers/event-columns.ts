/**
 * The columns of a controller's Event list. Rows not loaded yet are numbers (see
 * components/events/event-pages.ts) and show empty cells; sorting is the engine's (newest first).
 */
import type { EventRow } from '../../../shared/contracts/events.ts';
import { formatMoment } from '../../components/charts/time-format.ts';
import type { EventSlot } from '../../components/events/event-pages.ts';
import type { TableColumn } from '../../components/table/columns.ts';

const loaded = (row: EventSlot): row is EventRow => typeof row !== 'number';

function text(read: (row: EventRow, now: number) => string): (row: EventSlot, now: number) => string {
  return (row, now) => (loaded(row) ? read(row, now) : '');
}

/** "×23 since 14:02:11" for a repeated Event, nothing for a single one. */
function repeatTitle(row: EventRow, now: number): string | undefined {
  return row.count > 1 ? `${row.count} times, first ${formatMoment(row.first, now)}, last ${formatMoment(row.last, now)}` : undefined;
}

export const EVENT_COLUMNS: ReadonlyArray<TableColumn<EventSlot>> = [
  { id: 'last', label: 'Last seen', width: 112, cellClass: 'muted', text: text((row, now) => formatMoment(row.last, now)), title: (row) => (loaded(row) ? new Date(row.last).toISOString() : undefined) },
  { id: 'type', label: 'Type', width: 80 },
  { id: 'reason', label: 'Reason', width: 150, cellClass: 'strong', text: text((row) => row.reason) },
  { id: 'object', label: 'Object', width: 260, grow: 1.4 },
  { id: 'namespace', label: 'Namespace', width: 110, cellClass: 'muted', text: text((row) => row.object.namespace ?? '—') },
  { id: 'count', label: 'Count', width: 64, align: 'end', text: text((row) => (row.count > 1 ? `×${row.count.toLocaleString('en-US')}` : '')), title: (row) => (loaded(row) ? repeatTitle(row, Date.now()) : undefined) },
  { id: 'message', label: 'Message', width: 260, grow: 2, cellClass: 'muted', text: text((row) => row.message), title: (row) => (loaded(row) ? row.message : undefined) },
];

export const eventRowKey = (row: EventSlot): string => (loaded(row) ? row.id : `pending-${row}`);
export const eventRowTone = (row: EventSlot): string | undefined => (loaded(row) && row.type === 'Warning' ? 'danger' : undefined);
export { loaded as isLoadedEvent };
