/**
 * Reads a kind's server-side Table (what `kubectl get` prints): the collection GET with the
 * Table Accept header and `includeObject=Metadata`, so each row carries its object's uid and no
 * more. Paged like kubectl (`limit` and `continue`), so 10,000 custom resources arrive in pages
 * the server can answer quickly rather than in one response it has to build whole.
 */
import { apiVersionOf, collectionPath, type KindRef } from '../../../shared/kinds.ts';
import type { TableCell, TableColumnDefinition } from '../../../shared/contracts/tables.ts';
import { getJson, type Transport } from '../cluster/informers/http.ts';

/** kubectl's Accept for `get`: Table v1, then v1beta1 for servers older than 1.15. */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io';
/** Rows per page (kubectl's `--chunk-size` default). */
export const TABLE_PAGE_SIZE = 500;
/** Past this many rows the rest of the kind gets no cells (a table this long is read by filter, not by eye). */
export const TABLE_MAX_ROWS = 20_000;

/** What a Table read yields. */
export interface ReadTable {
  columns: TableColumnDefinition[];
  cells: Record<string, TableCell[]>;
  truncated: boolean;
}

export interface ReadTableOptions {
  signal: AbortSignal;
  pageSize?: number;
  maxRows?: number;
}

/** The server answered, but not with a Table: it may not print server-side. */
export class NotATableError extends Error {
  constructor(got: unknown) {
    super(`the server answered with ${typeof got === 'string' && got !== '' ? `a ${got}` : 'something'} instead of a Table, so it does not print this kind's columns`);
    this.name = 'NotATableError';
  }
}

interface TablePage {
  kind?: unknown;
  metadata?: { continue?: unknown };
  columnDefinitions?: unknown;
  rows?: unknown;
}

const asString = (value: unknown): string => (typeof value === 'string' ? value : '');

function columnOf(value: unknown): TableColumnDefinition {
  const column = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    name: asString(column['name']),
    type: asString(column['type']),
    format: asString(column['format']),
    priority: typeof column['priority'] === 'number' && Number.isInteger(column['priority']) ? column['priority'] : 0,
    description: asString(column['description']),
  };
}

/** A cell as the contract carries it: scalars as they are, anything else as its JSON text. */
function cellOf(value: unknown): TableCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return JSON.stringify(value);
}

function rowUid(row: Record<string, unknown>): string | undefined {
  const object = row['object'] as { metadata?: { uid?: unknown } } | undefined;
  const uid = object?.metadata?.uid;
  return typeof uid === 'string' && uid !== '' ? uid : undefined;
}

function pagePath(ref: KindRef, limit: number, token: string | undefined): string {
  const query = new URLSearchParams({ includeObject: 'Metadata', limit: String(limit) });
  if (token) query.set('continue', token);
  return `${collectionPath(ref)}?${query.toString()}`;
}

/**
 * GETs every page of `ref`'s Table on `transport`. Non-2xx answers reject with the transport's
 * ApiStatusError (the server's own message), an answer that is not a Table with NotATableError.
 */
export async function readTable(transport: Transport, ref: KindRef, options: ReadTableOptions): Promise<ReadTable> {
  const pageSize = options.pageSize ?? TABLE_PAGE_SIZE;
  const maxRows = options.maxRows ?? TABLE_MAX_ROWS;
  let columns: TableColumnDefinition[] | undefined;
  const cells: Record<string, TableCell[]> = {};
  let rows = 0;
  let token: string | undefined;
  do {
    const page = (await getJson(transport, pagePath(ref, pageSize, token), { signal: options.signal, accept: TABLE_ACCEPT })) as TablePage | null;
    if (page?.kind !== 'Table') throw new NotATableError(page?.kind ?? `${apiVersionOf(ref)} list`);
    // The server sends the definitions with every page; the first page's are the ones.
    if (!columns && Array.isArray(page.columnDefinitions)) columns = page.columnDefinitions.map(columnOf);
    for (const row of Array.isArray(page.rows) ? (page.rows as unknown[]) : []) {
      if (typeof row !== 'object' || row === null) continue;
      const uid = rowUid(row as Record<string, unknown>);
      const values = (row as { cells?: unknown }).cells;
      if (uid === undefined || !Array.isArray(values)) continue;
      if (rows >= maxRows) return { columns: columns ?? [], cells, truncated: true };
      cells[uid] = values.map(cellOf);
      rows += 1;
    }
    const next = page.metadata?.continue;
    token = typeof next === 'string' && next !== '' ? next : undefined;
  } while (token !== undefined);
  return { columns: columns ?? [], cells, truncated: false };
}
