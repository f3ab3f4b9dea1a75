/** The meta.k8s.io Table wire shapes kube-apiserver answers `kubectl get` with. */
import type { KubeObject, ObjectMeta } from '../types.ts';

/** What a row carries besides its cells: the `includeObject` query parameter. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The Table API versions kubectl may ask for; v1 is preferred, v1beta1 still served. */
export type TableVersion = 'v1' | 'v1beta1';

export interface TableColumnDefinition {
  name: string;
  /** OpenAPI type of the cells: `string`, `integer`, `number`, `boolean` or `date` (RFC 3339, for Created At). */
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** `name` on the column that holds the object's name, otherwise empty, as upstream sends it. */
  format: string;
  description: string;
  /** 0 for default columns, 1 for columns kubectl shows only with `-o wide`. */
  priority: number;
}

export interface TableRowCondition {
  type: 'Completed';
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: `meta.k8s.io/${TableVersion}`;
  metadata: ObjectMeta;
}

export type TableCell = string | number | boolean;

export interface TableRow {
  cells: TableCell[];
  conditions?: TableRowCondition[];
  object?: PartialObjectMetadata | KubeObject;
}

export interface TableListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface Table {
  kind: 'Table';
  apiVersion: `meta.k8s.io/${TableVersion}`;
  metadata: TableListMeta;
  /** `null` when headers were not asked for: every watch event after the first. */
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[];
}
