/**
 * How graph nodes read: kubectl's short kind names on the cards, health words, what each flag
 * means in a sentence, and names shortened in the middle so a pod keeps its distinguishing suffix
 * ("recommendations-7c…-x2k9p").
 */
import { BUILTIN_KINDS } from '../../../shared/builtin-kinds.ts';
import type { GraphFlag, GraphHealth, GraphNode } from '../../../shared/contracts/graph.ts';
import { parseKindKey } from '../../../shared/kinds.ts';
import { layoutKind } from './layout.ts';

/** kubectl's short names (`kubectl api-resources`), for the card's kind label. */
const SHORT_KINDS: Readonly<Record<string, string>> = {
  Deployment: 'deploy',
  ReplicaSet: 'rs',
  StatefulSet: 'sts',
  DaemonSet: 'ds',
  Job: 'job',
  CronJob: 'cj',
  Service: 'svc',
  HorizontalPodAutoscaler: 'hpa',
  ConfigMap: 'cm',
  Secret: 'secret',
  PersistentVolumeClaim: 'pvc',
  ServiceAccount: 'sa',
};

/** Kind names a custom kind may share (a custom `Job`): its label then says its group too. */
const BUILT_IN_NAMES: ReadonlySet<string> = new Set([...Object.keys(BUILTIN_KINDS), 'ConfigMap', 'Secret', 'PersistentVolumeClaim', 'ServiceAccount']);

/** Whether the engine named the node's kind and it is a custom one (not a built-in, not what pods use). */
export function isCustomNode(node: Pick<GraphNode, 'kind' | 'kindKey'>): boolean {
  return node.kindKey !== undefined && layoutKind(node) === '';
}

/** Kinds alone in their column (its title names them): their cards give the name all the room. */
const OWN_COLUMN_KINDS: ReadonlySet<string> = new Set(['Pod', 'Node']);

/**
 * The card's kind label: kubectl's short name, none where the column says it; a custom kind's
 * name, with the first label of its group when a built-in kind has that name (`job.example`).
 */
export function kindLabel(node: Pick<GraphNode, 'kind' | 'group' | 'kindKey'>): string {
  if (node.kind === 'Group') return node.group?.of === 'ReplicaSet' ? 'rs ×' : 'pods ×';
  if (node.kindKey !== undefined && isCustomNode(node)) {
    const label = node.kind.toLowerCase();
    return BUILT_IN_NAMES.has(node.kind) ? `${label}.${parseKindKey(node.kindKey).group.split('.')[0] ?? ''}` : label;
  }
  if (OWN_COLUMN_KINDS.has(node.kind)) return '';
  return SHORT_KINDS[node.kind] ?? node.kind.toLowerCase();
}

export const HEALTH_LABELS: Readonly<Record<GraphHealth, string>> = {
  ready: 'Ready',
  progressing: 'Progressing',
  drifting: 'Drifting',
  failing: 'Failing',
  neutral: 'Idle',
  unknown: 'Unknown',
};

/** Legend order: the states people look for first. */
export const LEGEND: readonly GraphHealth[] = ['ready', 'progressing', 'drifting', 'failing', 'neutral'];

export const FLAG_TEXT: Readonly<Record<GraphFlag, string>> = {
  'dangling-owner': 'An owner it names is not in the cluster',
  missing: 'Named as an owner, but not in the cluster',
  external: 'A kind Kubedrift does not watch (excluded, forbidden or not served)',
  orphan: 'Carries a controller’s labels but no controller owns it',
  unmanaged: 'A bare pod: nothing will replace it if it dies',
  'selects-nothing': 'Its selector matches no pod',
  'missing-target': 'Its scale target is not in the cluster',
  deleting: 'Being deleted',
};

/** Short badge words for the card. */
export const FLAG_BADGE: Readonly<Record<GraphFlag, string>> = {
  'dangling-owner': 'dangling owner',
  missing: 'missing',
  external: 'external',
  orphan: 'orphan',
  unmanaged: 'unmanaged',
  'selects-nothing': 'no pods',
  'missing-target': 'no target',
  deleting: 'deleting',
};

/** `text` cut to `max` characters by its middle, keeping more of the end (a pod's unique suffix). */
export function middleEllipsis(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.ceil((max - 1) * 0.45);
  const head = max - 1 - tail;
  return `${text.slice(0, head)}…${text.slice(text.length - tail)}`;
}

/** `text` cut at the end. */
export function endEllipsis(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Whether a node stands for an object the engine can describe (not a group or a reference). */
export function isObjectNode(node: Pick<GraphNode, 'id' | 'kind'>): boolean {
  return node.kind !== 'Group' && !node.id.startsWith('ref:') && !node.id.startsWith('group:');
}

/** Kinds whose detail starts with their ready count, which says "Ready" already. */
const COUNTED_KINDS: ReadonlySet<string> = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);

/** The card's status line: the status word, then the detail ("Running · 1/1 · worker-2"); "Ready · 3/3 ready" says it twice, so a workload's plain Ready is left out. */
export function statusLine(node: Pick<GraphNode, 'kind' | 'status' | 'detail'>): string {
  if (!node.detail) return node.status;
  return node.status === 'Ready' && COUNTED_KINDS.has(node.kind) ? node.detail : `${node.status} · ${node.detail}`;
}

let measure: CanvasRenderingContext2D | null | undefined;
const widths = new Map<string, number>();

/** The rendered width of `text` in `font` (a canvas measures it; estimated where there is none). */
export function textWidth(text: string, font: string): number {
  const key = `${font}|${text}`;
  const cached = widths.get(key);
  if (cached !== undefined) return cached;
  if (measure === undefined) {
    try {
      measure = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      measure = null;
    }
  }
  let width: number;
  if (measure) {
    measure.font = font;
    width = measure.measureText(text).width;
  } else width = text.length * (Number.parseFloat(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? '12') * 0.6);
  if (widths.size > 20_000) widths.clear();
  widths.set(key, width);
  return width;
}

/** `text` shortened (in the middle, or at the end) until it fits `maxWidth` pixels in `font`. */
export function fitText(text: string, maxWidth: number, font: string, cut: 'middle' | 'end'): string {
  if (textWidth(text, font) <= maxWidth) return text;
  let low = 1;
  let high = text.length - 1;
  let best = cut === 'middle' ? middleEllipsis(text, 2) : endEllipsis(text, 2);
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const candidate = cut === 'middle' ? middleEllipsis(text, mid) : endEllipsis(text, mid);
    if (textWidth(candidate, font) <= maxWidth) {
      best = candidate;
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}

/** Segments of a group's phase bar, in a fixed order. */
export function phaseSegments(byPhase: Readonly<Record<string, number>>): Array<{ phase: string; count: number; share: number }> {
  const order = ['Running', 'Pending', 'Succeeded', 'Failed', 'Unknown'];
  const total = Object.values(byPhase).reduce((sum, count) => sum + count, 0);
  return Object.entries(byPhase)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b))
    .map(([phase, count]) => ({ phase, count, share: total > 0 ? count / total : 0 }));
}
