/**
 * Content negotiation for server-side printing: does the client's Accept header ask for a
 * meta.k8s.io Table (`application/json;as=Table;v=v1;g=meta.k8s.io`), and with which row objects.
 */
import { badRequest } from '../errors.ts';
import type { IncludeObject, TableVersion } from './types.ts';

export interface TableRequest {
  table: boolean;
  /** Which Table API version to answer with; meaningful only when `table` is true. */
  version: TableVersion;
  includeObject: IncludeObject;
}

interface MediaRange {
  type: string;
  subtype: string;
  params: Map<string, string>;
  q: number;
  order: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  header.split(',').forEach((clause, order) => {
    const [mediaType = '', ...rawParams] = clause.split(';').map((part) => part.trim());
    const [type = '', subtype = ''] = mediaType.toLowerCase().split('/');
    if (!type) return;
    const params = new Map<string, string>();
    for (const raw of rawParams) {
      const eq = raw.indexOf('=');
      if (eq > 0) params.set(raw.slice(0, eq).trim().toLowerCase(), raw.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1'));
    }
    const q = params.has('q') ? Number(params.get('q')) : 1;
    ranges.push({ type, subtype, params, q: Number.isNaN(q) ? 0 : q, order });
  });
  // goautoneg order: higher q first, then concrete types before wildcards, then header order.
  const specificity = (r: MediaRange) => (r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2);
  return ranges.sort((a, b) => b.q - a.q || specificity(b) - specificity(a) || a.order - b.order);
}

const acceptsJson = (r: MediaRange) => (r.type === 'application' && (r.subtype === 'json' || r.subtype === '*')) || (r.type === '*' && r.subtype === '*');

function parseIncludeObject(value: string | undefined): IncludeObject {
  if (value === undefined || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw badRequest(`unrecognized includeObject value: "${value}"`);
}

/**
 * Reads the Accept header the way kube-apiserver negotiates it: the first acceptable JSON media
 * range wins; `as=Table;g=meta.k8s.io;v=v1|v1beta1` selects a Table, a plain `application/json`
 * the object or list itself. Ranges for other transforms (PartialObjectMetadata, protobuf) are
 * skipped. `includeObject` is the query parameter of the same name ("Metadata" when absent);
 * an unknown value is a 400, as upstream answers when it builds the Table.
 */
export function wantsTable(acceptHeader: string | undefined, includeObject?: string): TableRequest {
  for (const range of parseAccept(acceptHeader ?? '')) {
    if (range.q <= 0 || !acceptsJson(range)) continue;
    const as = range.params.get('as');
    if (as === undefined) return { table: false, version: 'v1', includeObject: 'Metadata' };
    const version = range.params.get('v');
    if (as === 'Table' && range.params.get('g') === 'meta.k8s.io' && (version === 'v1' || version === 'v1beta1')) {
      return { table: true, version, includeObject: parseIncludeObject(includeObject) };
    }
  }
  return { table: false, version: 'v1', includeObject: 'Metadata' };
}
