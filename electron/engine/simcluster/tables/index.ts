/**
 * Server-side printing: turns stored objects into the meta.k8s.io Table kube-apiserver answers
 * `kubectl get` with, for lists, single objects and watch events alike.
 */
import type { ResourceType } from '../resources.ts';
import { ACCESS_PRINTERS } from './access.ts';
import type { KubeObject } from '../types.ts';
import { columnsFor } from './columns.ts';
import { configMapRow, endpointsRow, eventRow, fromEventsV1, namespaceRow, nodeRow, secretRow, serviceRow, type CoreEventView } from './core.ts';
import { since } from './duration.ts';
import { podRow, type PodView } from './pod.ts';
import { HISTORY_PRINTERS } from './history.ts';
import { QUOTA_PRINTERS } from './quota.ts';
import type { IncludeObject, Table, TableCell, TableListMeta, TableRow, TableRowCondition, TableVersion } from './types.ts';
import { cronJobRow, daemonSetRow, deploymentRow, hpaRow, jobRow, replicaSetRow, statefulSetRow } from './workloads.ts';

export { wantsTable, type TableRequest } from './accept.ts';
export { humanDuration } from './duration.ts';
export type * from './types.ts';

export interface ToTableOptions {
  /** The clock the ages are measured against (ms since the epoch). */
  now: number;
  /** The `includeObject` query parameter; kubectl's default is "Metadata". */
  includeObject?: IncludeObject;
  /** The list's metadata; without it a single object's own resourceVersion is used, as upstream. */
  listMeta?: TableListMeta;
  /** Omit the column definitions: kube-apiserver sends them only with a watch's first event. */
  noHeaders?: boolean;
  /** The Table API version negotiated (see wantsTable); v1 unless the client only takes v1beta1. */
  version?: TableVersion;
}

type Printer = (object: KubeObject, now: number) => { cells: TableCell[]; conditions?: TableRowCondition[] };

// The printers read typed views of the loose stored JSON; every field in the views is optional.
const cellsOnly =
  <T>(print: (view: T, now: number) => TableCell[]): Printer =>
  (object, now) => ({ cells: print(object as unknown as T, now) });

const PRINTERS: Record<string, Printer> = {
  Pod: (object, now) => podRow(object as unknown as PodView, now),
  Deployment: cellsOnly(deploymentRow),
  ReplicaSet: cellsOnly(replicaSetRow),
  StatefulSet: cellsOnly(statefulSetRow),
  DaemonSet: cellsOnly(daemonSetRow),
  Job: cellsOnly(jobRow),
  CronJob: cellsOnly(cronJobRow),
  HorizontalPodAutoscaler: cellsOnly(hpaRow),
  Service: cellsOnly(serviceRow),
  Endpoints: cellsOnly(endpointsRow),
  Namespace: cellsOnly(namespaceRow),
  Node: cellsOnly(nodeRow),
  ConfigMap: cellsOnly(configMapRow),
  Secret: cellsOnly(secretRow),
  ...ACCESS_PRINTERS,
  ...QUOTA_PRINTERS,
  ...HISTORY_PRINTERS,
};

function printerFor(type: ResourceType): Printer {
  if (type.kind === 'Event') {
    return type.group === 'events.k8s.io'
      ? (object, now) => ({ cells: eventRow(fromEventsV1(object), now) })
      : (object, now) => ({ cells: eventRow(object as unknown as CoreEventView, now) });
  }
  return PRINTERS[type.kind] ?? ((object, now) => ({ cells: [object.metadata.name, since(object.metadata.creationTimestamp, now)] }));
}

/**
 * Rows reference the stored (immutable) object instead of copying it: a Table is serialised
 * straight away, and copying 50,000 rows' metadata doubled the cost of `kubectl get pods -A`.
 */
function rowObject(object: KubeObject, includeObject: IncludeObject, version: TableVersion): TableRow['object'] {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return object;
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: object.metadata };
}

/**
 * A meta.k8s.io Table of `objects` with the columns a real kube-apiserver prints for `type`.
 * Rows always carry every column (the wide ones too, priority 1): the server prints wide and
 * kubectl hides the rest. Each row's `object` is PartialObjectMetadata for includeObject
 * "Metadata" (the default), the full object for "Object", and absent for "None". Rows of
 * finished Pods carry upstream's `Completed` row condition.
 */
export function toTable(type: ResourceType, objects: KubeObject[], options: ToTableOptions): Table {
  const version = options.version ?? 'v1';
  const includeObject = options.includeObject ?? 'Metadata';
  const print = printerFor(type);
  const rows = objects.map((object): TableRow => {
    const { cells, conditions } = print(object, options.now);
    const row: TableRow = { cells };
    if (conditions) row.conditions = conditions;
    const embedded = rowObject(object, includeObject, version);
    if (embedded) row.object = embedded;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: tableMeta(objects, options.listMeta),
    columnDefinitions: options.noHeaders ? null : columnsFor(type.kind),
    rows,
  };
}

/** ListMeta as upstream copies it: `continue` and `remainingItemCount` only when set. */
function tableMeta(objects: KubeObject[], listMeta: TableListMeta | undefined): TableListMeta {
  if (!listMeta) return { resourceVersion: objects.length === 1 ? (objects[0]?.metadata.resourceVersion ?? '') : '' };
  const metadata: TableListMeta = { resourceVersion: listMeta.resourceVersion };
  if (listMeta.continue) metadata.continue = listMeta.continue;
  if (listMeta.remainingItemCount !== undefined) metadata.remainingItemCount = listMeta.remainingItemCount;
  return metadata;
}
