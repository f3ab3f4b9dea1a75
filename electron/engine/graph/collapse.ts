/**
 * Collapsing keeps a graph drawable: an owner's pods beyond a threshold become one group node
 * with counts by phase and health (expandable on request, up to a limit, the rest staying in a
 * smaller group), and a Deployment's scaled-down old ReplicaSets become one "old revisions"
 * node. Members are ordered by creation then name, so which pods show first is stable.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { GraphGroup, GraphHealth, GraphNode } from '../../../shared/contracts/graph.ts';
import { podPhase } from './health.ts';
import { nodeNameOf } from './objects.ts';

export interface Limits {
  /** An owner with more pods than this shows them as a group. */
  groupThreshold: number;
  /** Pods shown one by one across the whole graph before every further owner's pods are grouped. */
  podBudget: number;
  /** Members an expanded group shows one by one; the rest stay grouped. */
  expandLimit: number;
  /** Nodes in one answer before whole workloads are left out. */
  maxNodes: number;
  /** Cluster nodes drawn before the Node column is left out. */
  maxClusterNodes: number;
}

export const DEFAULT_LIMITS: Limits = { groupThreshold: 10, podBudget: 400, expandLimit: 300, maxNodes: 1000, maxClusterNodes: 40 };

/** Worst first: a group is as healthy as its least healthy member. */
const HEALTH_RANK: readonly GraphHealth[] = ['failing', 'drifting', 'progressing', 'unknown', 'ready', 'neutral'];

export function worstHealth(counts: Partial<Record<GraphHealth, number>>): GraphHealth {
  return HEALTH_RANK.find((health) => (counts[health] ?? 0) > 0) ?? 'neutral';
}

const naturalCompare = new Intl.Collator('en', { numeric: true }).compare;

/** Parsed creation times by timestamp text: pods of one owner mostly share a handful of seconds. */
const parsedTimes = new Map<string, number>();

export function createdMs(object: SlimObject): number | undefined {
  const created = object.metadata.creationTimestamp;
  if (!created) return undefined;
  let ms = parsedTimes.get(created);
  if (ms === undefined) {
    ms = Date.parse(created);
    if (parsedTimes.size > 10_000) parsedTimes.clear();
    parsedTimes.set(created, ms);
  }
  return Number.isNaN(ms) ? undefined : ms;
}

/** Oldest first, then by name (numeric-aware: web-2 before web-10). */
export function byCreation(a: SlimObject, b: SlimObject): number {
  return (createdMs(a) ?? 0) - (createdMs(b) ?? 0) || naturalCompare(a.metadata.name, b.metadata.name);
}

/** `objects` sorted by creation then name, each time parsed once. */
export function sortByCreation(objects: readonly SlimObject[]): SlimObject[] {
  return objects
    .map((object) => ({ object, at: createdMs(object) ?? 0 }))
    .sort((a, b) => a.at - b.at || naturalCompare(a.object.metadata.name, b.object.metadata.name))
    .map((entry) => entry.object);
}

const PHASE_ORDER = ['Running', 'Pending', 'Succeeded', 'Failed', 'Unknown'];

function phaseLine(byPhase: Record<string, number>): string {
  return Object.entries(byPhase)
    .sort(([a], [b]) => (PHASE_ORDER.indexOf(a) + 1 || 99) - (PHASE_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b))
    .map(([phase, count]) => `${count} ${phase}`)
    .join(' · ');
}

export interface GroupInput {
  id: string;
  parent: string | undefined;
  namespace: string | undefined;
  members: readonly SlimObject[];
  health: (object: SlimObject) => GraphHealth;
  expandable: boolean;
  /** "more": the remainder of an expanded group. */
  remainder?: boolean;
}

/** A group node of pods with counts by phase, health and node. */
export function podGroupNode(input: GroupInput): GraphNode {
  const byPhase: Record<string, number> = {};
  const byHealth: Partial<Record<GraphHealth, number>> = {};
  const nodes = new Set<string>();
  for (const pod of input.members) {
    const phase = podPhase(pod);
    byPhase[phase] = (byPhase[phase] ?? 0) + 1;
    const health = input.health(pod);
    byHealth[health] = (byHealth[health] ?? 0) + 1;
    const node = nodeNameOf(pod);
    if (node) nodes.add(node);
  }
  const count = input.members.length;
  const group: GraphGroup = { of: 'Pod', count, byPhase, byHealth, nodes: nodes.size, expandable: input.expandable };
  return {
    id: input.id,
    kind: 'Group',
    name: input.remainder ? `${count.toLocaleString('en-US')} more pods` : `${count.toLocaleString('en-US')} pods`,
    ...(input.namespace !== undefined ? { namespace: input.namespace } : {}),
    health: worstHealth(byHealth),
    status: `${count.toLocaleString('en-US')} ${count === 1 ? 'pod' : 'pods'}${nodes.size > 0 ? ` on ${nodes.size} ${nodes.size === 1 ? 'node' : 'nodes'}` : ''}`,
    detail: phaseLine(byPhase),
    flags: [],
    ...(input.parent !== undefined ? { parent: input.parent } : {}),
    group,
  };
}

/** A Deployment's ReplicaSet revision number (the deployment controller's annotation). */
export function revisionOf(replicaSet: SlimObject): number {
  const revision = Number(replicaSet.metadata.annotations?.['deployment.kubernetes.io/revision']);
  return Number.isFinite(revision) ? revision : 0;
}

/** A ReplicaSet scaled to zero with no pods left: an old revision kept for rollbacks. */
export function isIdleReplicaSet(replicaSet: SlimObject): boolean {
  const rs = replicaSet as { spec?: { replicas?: number }; status?: { replicas?: number } };
  return rs.spec?.replicas === 0 && (rs.status?.replicas ?? 0) === 0;
}

/** A group node of a Deployment's old ReplicaSets. */
export function replicaSetGroupNode(input: GroupInput): GraphNode {
  const revisions = input.members.map(revisionOf).filter((revision) => revision > 0);
  const count = input.members.length;
  const range = revisions.length > 0 ? `revisions ${Math.min(...revisions)}–${Math.max(...revisions)}` : undefined;
  return {
    id: input.id,
    kind: 'Group',
    name: `${count} old ReplicaSets`,
    ...(input.namespace !== undefined ? { namespace: input.namespace } : {}),
    health: 'neutral',
    status: 'Scaled to 0',
    ...(range ? { detail: range } : {}),
    flags: [],
    ...(input.parent !== undefined ? { parent: input.parent } : {}),
    group: { of: 'ReplicaSet', count, byPhase: { 'Scaled to 0': count }, byHealth: { neutral: count }, nodes: 0, expandable: input.expandable },
  };
}
