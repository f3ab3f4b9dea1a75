/**
 * The tables part of the IPC contract (merged into shared/contract.ts): a kind's printer
 * columns as the API server prints them (a meta.k8s.io Table, built from a CRD's
 * additionalPrinterColumns), so the Overview shows a custom resource's columns the way
 * `kubectl get` does. Cells are keyed by object uid, so the renderer joins them to the rows it
 * already has from the live store instead of receiving the objects a second time.
 */
import { z } from 'zod';
import { KIND_KEY_PATTERN } from '../kinds.ts';

/** A Table column as the server defines it (metav1.TableColumnDefinition). */
export const TableColumnDefinitionSchema = z.object({
  name: z.string(),
  /** OpenAPI type: `string`, `integer`, `number`, `boolean`, `date`. */
  type: z.string(),
  /** OpenAPI format: `name` for the Name column, `int32`, `date-time`... ('' when none). */
  format: z.string(),
  /** 0 is shown by `kubectl get`; higher only with `-o wide`. */
  priority: z.number().int(),
  description: z.string(),
});
export type TableColumnDefinition = z.infer<typeof TableColumnDefinitionSchema>;

/** One cell: what the server printed (objects and lists arrive as their JSON text). */
export const TableCellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type TableCell = z.infer<typeof TableCellSchema>;

/** A kind's Table in the selected context. */
export const ClusterTableSchema = z.object({
  context: z.string().nullable(),
  /** The kind key (`certificates.cert-manager.io`). */
  kind: z.string(),
  /** When the engine read it (ms since the epoch). */
  at: z.number(),
  columns: z.array(TableColumnDefinitionSchema),
  /** Cells per object uid, in the columns' order. */
  cells: z.record(z.string(), z.array(TableCellSchema)),
  /** True when the kind has more objects than the engine reads for one table; the rest have no cells. */
  truncated: z.boolean(),
});
export type ClusterTable = z.infer<typeof ClusterTableSchema>;

export const ClusterTableRequestSchema = z.strictObject({
  /** A kind key discovery found in the selected context. */
  kind: z.string().max(320).regex(KIND_KEY_PATTERN, { error: 'expected a kind key: "plural" or "plural.group"' }),
});

export const tablesRequests = {
  /** The printer columns and cells of every object of one kind, cluster-wide. */
  'cluster:table': { request: ClusterTableRequestSchema, response: ClusterTableSchema },
} as const;

export const tablesStreams = {} as const;
