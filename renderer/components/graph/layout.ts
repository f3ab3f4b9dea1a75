/**
 * The graph's layered layout, deterministic and stable under live updates.
 *
 * Columns by kind: workloads (Deployment, StatefulSet, DaemonSet, CronJob), then ReplicaSets,
 * Jobs and Services, then pods and pod groups, then what pods use (ConfigMaps, Secrets, claims,
 * ServiceAccounts), then nodes. Kinds are read by kind key where the engine gives one, so a
 * custom `Job` is not laid out as a batch Job. Custom resources and owners the app does not watch
 * sit one column left of what they own.
 *
 * Rows come in bands, one per top-level object (a workload with everything it owns), ordered
 * by namespace and name. A band's first rows hold what points at it: its HPAs above the
 * workload (same column, an edge straight down) and the Services in front of its pods (next
 * column); what its pods use takes the free rows of its own column, from the top. Then its tree, top-aligned (a parent on the row of its first child, so a new last child moves nothing above
 * it). Siblings are ordered so that new ones arrive at the end: ReplicaSets and Jobs newest
 * first (the live one on top), pods oldest first, ties by name. A band keeps the rows it once
 * needed while it shrinks by up to SLACK_ROWS (a rollout's surge pod coming and going does not
 * shift every band below), and Nodes stack in their own column by name.
 */
import { builtinKind } from '../../../shared/builtin-kinds.ts';
import type { GraphEdge, GraphNode } from '../../../shared/contracts/graph.ts';

export const CARD_WIDTH = 224;
export const CARD_HEIGHT = 48;
export const COLUMN_GAP = 60;
export const ROW_HEIGHT = 60;
export const BAND_GAP = 18;
/** Room above the first band of each namespace when the graph spans several. */
export const SECTION_GAP = 44;
/** Rows a band may keep unused before it shrinks. */
export const SLACK_ROWS = 2;

const WORKLOAD_COLUMN = 0;
const MIDDLE_COLUMN = 1;
const POD_COLUMN = 2;
const USES_COLUMN = 3;
const NODE_COLUMN = 4;

/** What pods use, by kind key (all core kinds). */
const USED_KINDS: Readonly<Record<string, string>> = { configmaps: 'ConfigMap', secrets: 'Secret', persistentvolumeclaims: 'PersistentVolumeClaim', serviceaccounts: 'ServiceAccount' };

/**
 * The kind name the layout places a node by: its `kind` when the engine gave no key (groups,
 * references), the built-in kind of its key, and '' for a custom kind, whatever it is named.
 */
export function layoutKind(node: Pick<GraphNode, 'kind' | 'kindKey'>): string {
  if (node.kindKey === undefined) return node.kind;
  return builtinKind(node.kindKey)?.ref.kind ?? USED_KINDS[node.kindKey] ?? '';
}

const isUsedKind = (node: GraphNode): boolean => node.kindKey !== undefined && USED_KINDS[node.kindKey] !== undefined;

const KIND_COLUMNS: Readonly<Record<string, number>> = {
  HorizontalPodAutoscaler: WORKLOAD_COLUMN,
  Deployment: WORKLOAD_COLUMN,
  StatefulSet: WORKLOAD_COLUMN,
  DaemonSet: WORKLOAD_COLUMN,
  CronJob: WORKLOAD_COLUMN,
  ReplicaSet: MIDDLE_COLUMN,
  Job: MIDDLE_COLUMN,
  Service: MIDDLE_COLUMN,
  Pod: POD_COLUMN,
  ConfigMap: USES_COLUMN,
  Secret: USES_COLUMN,
  PersistentVolumeClaim: USES_COLUMN,
  ServiceAccount: USES_COLUMN,
  Node: NODE_COLUMN,
};

/** Column titles; -1 is the owners' column (custom resources owning workloads). */
export const COLUMN_TITLES: Readonly<Record<number, string>> = { [-1]: 'Owners', 0: 'Workloads', 1: 'ReplicaSets · Jobs · Services', 2: 'Pods', 3: 'Config · Secrets · Claims', 4: 'Nodes' };

export interface Placed {
  x: number;
  y: number;
  column: number;
}

export interface Band {
  id: string;
  y: number;
  height: number;
}

/** Rows each band reserved, carried from one layout of the same view to the next. */
export type LayoutMemory = ReadonlyMap<string, number>;

export interface Layout {
  positions: ReadonlyMap<string, Placed>;
  bands: readonly Band[];
  /** Where each namespace's bands start, when the graph spans more than one. */
  sections: ReadonlyArray<{ namespace: string; y: number }>;
  /** The x of each used column, with its title. */
  columns: ReadonlyArray<{ column: number; x: number; title: string }>;
  width: number;
  height: number;
  memory: LayoutMemory;
}

const naturalCompare = new Intl.Collator('en', { numeric: true }).compare;

function columnOf(node: GraphNode, children: readonly GraphNode[], columnCache: Map<string, number>, childrenOf: (id: string) => readonly GraphNode[]): number {
  const cached = columnCache.get(node.id);
  if (cached !== undefined) return cached;
  let column: number;
  if (node.kind === 'Group') column = node.group?.of === 'ReplicaSet' ? MIDDLE_COLUMN : POD_COLUMN;
  else if (KIND_COLUMNS[layoutKind(node)] !== undefined) column = KIND_COLUMNS[layoutKind(node)] as number;
  else {
    // A custom resource or an owner of a kind the app does not know: just left of the leftmost thing it owns.
    const own = children.map((child) => columnOf(child, childrenOf(child.id), columnCache, childrenOf));
    column = Math.min(POD_COLUMN, ...own) - 1;
  }
  columnCache.set(node.id, column);
  return column;
}

/** Sibling order: ReplicaSets/Jobs newest first, then old-revision groups, pods oldest first, then pod groups. */
function siblingRank(node: GraphNode): number {
  const kind = layoutKind(node);
  if (kind === 'ReplicaSet' || kind === 'Job') return 0;
  if (kind === 'Group') return node.group?.of === 'ReplicaSet' ? 1 : 3;
  return kind === 'Pod' ? 2 : 4;
}

function compareSiblings(a: GraphNode, b: GraphNode): number {
  const rank = siblingRank(a) - siblingRank(b);
  if (rank !== 0) return rank;
  const newestFirst = siblingRank(a) === 0 ? -1 : 1;
  const created = ((a.created ?? 0) - (b.created ?? 0)) * newestFirst;
  return created || naturalCompare(a.name, b.name) || a.id.localeCompare(b.id);
}

function compareRoots(a: GraphNode, b: GraphNode): number {
  return naturalCompare(a.namespace ?? '', b.namespace ?? '') || naturalCompare(a.name, b.name) || a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id);
}

/** Nodes that join a band instead of starting one: Services, HPAs (and Nodes, in their own column). */
const ATTACHED_KINDS: ReadonlySet<string> = new Set(['Service', 'HorizontalPodAutoscaler', 'Node']);

/** Lays out `nodes`; `memory` is the previous layout's of the same view (empty for a new view). */
export function layoutGraph(nodes: readonly GraphNode[], edges: readonly GraphEdge[], memory: LayoutMemory = new Map()): Layout {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  /** Joins a band rather than sitting in a tree: Services, HPAs, Nodes, and what pods use with no drawn owner. */
  const joins = (node: GraphNode): boolean => ATTACHED_KINDS.has(layoutKind(node)) || (isUsedKind(node) && (node.parent === undefined || !byId.has(node.parent)));
  const children = new Map<string, GraphNode[]>();
  for (const node of nodes) {
    if (node.parent === undefined || !byId.has(node.parent) || joins(node)) continue;
    const list = children.get(node.parent);
    if (list) list.push(node);
    else children.set(node.parent, [node]);
  }
  for (const list of children.values()) list.sort(compareSiblings);
  const childrenOf = (id: string): readonly GraphNode[] => children.get(id) ?? [];
  const columnCache = new Map<string, number>();
  const column = (node: GraphNode): number => columnOf(node, childrenOf(node.id), columnCache, childrenOf);

  const rootOf = (id: string): string => {
    let current = id;
    for (let depth = 0; depth < 32; depth += 1) {
      const node = byId.get(current);
      if (!node || node.parent === undefined || !byId.has(node.parent) || joins(node)) return current;
      current = node.parent;
    }
    return current;
  };

  // Bands: one per top-level object; Services, HPAs and what pods use join the band of what they point at.
  const roots = nodes.filter((node) => !joins(node) && rootOf(node.id) === node.id);
  // Each joins the first band (in band order) holding something it selects or scales, or a pod using it.
  const hostOf = new Map<string, GraphNode>();
  for (const edge of edges) {
    if (edge.type !== 'selects' && edge.type !== 'scales' && edge.type !== 'uses') continue;
    const [joiner, member] = edge.type === 'uses' ? [edge.to, edge.from] : [edge.from, edge.to];
    const node = byId.get(joiner);
    if (!node || !byId.has(member) || !joins(node)) continue;
    const host = byId.get(rootOf(member)) as GraphNode;
    const best = hostOf.get(joiner);
    if (!joins(host) && (!best || compareRoots(host, best) < 0)) hostOf.set(joiner, host);
  }
  const attached = new Map<string, GraphNode[]>();
  for (const node of nodes) {
    if (!joins(node) || layoutKind(node) === 'Node') continue;
    const host = hostOf.get(node.id);
    if (!host) {
      roots.push(node);
      continue;
    }
    const list = attached.get(host.id);
    if (list) list.push(node);
    else attached.set(host.id, [node]);
  }
  for (const list of attached.values()) list.sort(compareRoots);
  roots.sort(compareRoots);

  const rows = new Map<string, { row: number; column: number; band: number }>();
  const nextMemory = new Map<string, number>();
  const bandRows: number[] = [];
  roots.forEach((root, band) => {
    const taken = new Set<string>();
    const take = (node: GraphNode, row: number): void => {
      const col = column(node);
      rows.set(node.id, { row, column: col, band });
      taken.add(`${col}/${row}`);
    };
    const extras = attached.get(root.id) ?? [];
    const hpas = extras.filter((node) => layoutKind(node) === 'HorizontalPodAutoscaler');
    const services = extras.filter((node) => layoutKind(node) === 'Service');
    hpas.forEach((hpa, i) => take(hpa, i));
    services.forEach((service, i) => take(service, i));
    const top = Math.max(hpas.length, services.length);
    const place = (node: GraphNode, row: number): number => {
      take(node, row);
      let height = 0;
      for (const child of childrenOf(node.id)) height += place(child, row + height);
      return Math.max(1, height);
    };
    let height = top + place(root, top);
    // What the band's pods use: the free rows of its column, from the top (its tree may hold some: an owned Secret).
    let row = 0;
    for (const used of extras.filter(isUsedKind)) {
      while (taken.has(`${column(used)}/${row}`)) row += 1;
      take(used, row);
      height = Math.max(height, row + 1);
    }
    const previous = memory.get(root.id);
    const reserved = previous !== undefined && previous > height && previous - height <= SLACK_ROWS ? previous : height;
    nextMemory.set(root.id, reserved);
    bandRows.push(reserved);
  });

  // Column x: only the columns in use, left to right.
  const used = new Set<number>();
  for (const { column: col } of rows.values()) used.add(col);
  const clusterNodes = nodes.filter((node) => layoutKind(node) === 'Node').sort((a, b) => naturalCompare(a.name, b.name));
  if (clusterNodes.length > 0) used.add(NODE_COLUMN);
  const columnList = [...used].sort((a, b) => a - b);
  const xOf = new Map(columnList.map((col, i) => [col, i * (CARD_WIDTH + COLUMN_GAP)]));

  const positions = new Map<string, Placed>();
  const bands: Band[] = [];
  const sections: Array<{ namespace: string; y: number }> = [];
  const namespaces = new Set(roots.map((root) => root.namespace ?? ''));
  let y = 0;
  bandRows.forEach((count, band) => {
    const root = roots[band] as GraphNode;
    if (namespaces.size > 1 && sections.at(-1)?.namespace !== (root.namespace ?? '')) {
      if (sections.length > 0) y += SECTION_GAP;
      sections.push({ namespace: root.namespace ?? '', y });
    }
    bands.push({ id: root.id, y, height: count * ROW_HEIGHT });
    y += count * ROW_HEIGHT + BAND_GAP;
  });
  for (const [id, place] of rows) {
    const bandTop = bands[place.band]?.y ?? 0;
    positions.set(id, { x: xOf.get(place.column) ?? 0, y: bandTop + place.row * ROW_HEIGHT, column: place.column });
  }
  clusterNodes.forEach((node, i) => positions.set(node.id, { x: xOf.get(NODE_COLUMN) ?? 0, y: i * ROW_HEIGHT, column: NODE_COLUMN }));

  const height = Math.max(y - BAND_GAP, clusterNodes.length * ROW_HEIGHT, 0);
  return {
    positions,
    bands,
    sections,
    columns: columnList.map((col) => ({ column: col, x: xOf.get(col) ?? 0, title: COLUMN_TITLES[col] ?? 'Owners' })),
    width: columnList.length > 0 ? columnList.length * (CARD_WIDTH + COLUMN_GAP) - COLUMN_GAP : 0,
    height,
    memory: nextMemory,
  };
}
