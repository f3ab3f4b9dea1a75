/**
 * Tables for `kubectl get` of custom resources, as apiextensions-apiserver's table convertor
 * builds them: NAME, then one column per `additionalPrinterColumns` entry (their jsonPath
 * evaluated on the object; `date` cells as ages), or NAME and AGE when the CRD declares none.
 * CRDs themselves get the default convertor's NAME and CREATED AT.
 */
import type { ResourceType } from '../resources.ts';
import { humanDuration } from '../tables/duration.ts';
import { AGE_DOC, NAME_DOC } from '../tables/columns.ts';
import type { IncludeObject, TableListMeta, TableVersion } from '../tables/types.ts';
import type { KubeObject } from '../types.ts';
import { evaluateJsonPath } from './jsonpath.ts';
import type { PrinterColumn } from './types.ts';

type Cell = string | number | boolean | null;

interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** What `toTable` needs besides the objects. */
export interface CustomTableOptions {
  now: number;
  includeObject?: IncludeObject;
  listMeta?: TableListMeta;
  version?: TableVersion;
}

const NAME_COLUMN: Column = { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 };
const DEFAULT_COLUMNS: PrinterColumn[] = [{ name: 'Age', type: 'date', description: AGE_DOC, jsonPath: '.metadata.creationTimestamp' }];

/** A printed value as kubectl's JSONPath printer writes it. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** apiextensions' cellForJSONValue: the value in the column's type, or null. */
function cell(column: PrinterColumn, value: unknown, now: number): Cell {
  if (value === undefined || value === null) return null;
  switch (column.type) {
    case 'string':
      return text(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const at = Date.parse(value);
      return Number.isNaN(at) ? '<invalid>' : humanDuration(now - at);
    }
    default:
      return null;
  }
}

function rowObject(object: KubeObject, includeObject: IncludeObject, version: TableVersion): object | undefined {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return object;
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: object.metadata };
}

function tableOf(columns: Column[], rows: Array<{ cells: Cell[]; object: KubeObject }>, objects: KubeObject[], options: CustomTableOptions): object {
  const version = options.version ?? 'v1';
  const includeObject = options.includeObject ?? 'Metadata';
  const listMeta = options.listMeta;
  const metadata: TableListMeta = listMeta
    ? { resourceVersion: listMeta.resourceVersion, ...(listMeta.continue ? { continue: listMeta.continue } : {}), ...(listMeta.remainingItemCount !== undefined ? { remainingItemCount: listMeta.remainingItemCount } : {}) }
    : { resourceVersion: objects.length === 1 ? (objects[0]?.metadata.resourceVersion ?? '') : '' };
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata,
    columnDefinitions: columns,
    rows: rows.map((row) => {
      const embedded = rowObject(row.object, includeObject, version);
      return embedded ? { cells: row.cells, object: embedded } : { cells: row.cells };
    }),
  };
}

/** The Table of custom resources of `type` (a kind a CRD serves). */
export function customResourceTable(type: ResourceType, objects: KubeObject[], options: CustomTableOptions): object {
  const declared = type.custom?.printerColumns ?? [];
  const printerColumns = declared.length > 0 ? declared : DEFAULT_COLUMNS;
  const columns: Column[] = [
    NAME_COLUMN,
    ...printerColumns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`, priority: c.priority ?? 0 })),
  ];
  const rows = objects.map((object) => ({
    object,
    cells: [object.metadata.name, ...printerColumns.map((c) => cell(c, evaluateJsonPath(object, c.jsonPath)[0], options.now))],
  }));
  return tableOf(columns, rows, objects, options);
}

/** The default convertor's Table (NAME, CREATED AT), which CustomResourceDefinitions are printed with. */
export function createdAtTable(objects: KubeObject[], options: CustomTableOptions): object {
  const columns: Column[] = [NAME_COLUMN, { name: 'Created At', type: 'date', format: '', description: AGE_DOC, priority: 0 }];
  const rows = objects.map((object) => ({ object, cells: [object.metadata.name, object.metadata.creationTimestamp] }));
  return tableOf(columns, rows, objects, options);
}
