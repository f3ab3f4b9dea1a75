/**
 * The default scheduler's filters and scoring, reduced to what the simulation needs:
 * NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector and required node affinity),
 * NodeResourcesFit, and NodeResourcesLeastAllocated scoring. Failure reasons are the real
 * plugins' strings, which make up the FailedScheduling message.
 */
import type { KubeObject } from '../types.ts';
import { podRequests } from './pods.ts';
import { bytes, cpuMillis, parseQuantity } from './quantity.ts';

/** Resources requested by the pods on one node. */
export interface NodeUsage {
  cpuMillis: number;
  memoryBytes: number;
  pods: number;
  /** Requests with the scheduler's non-zero defaults (100m / 200Mi per container), for scoring. */
  scoreCpuMillis: number;
  scoreMemoryBytes: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/** A node that failed, and whether preemption could ever help (UnschedulableAndUnresolvable). */
export interface FitFailure {
  reasons: string[];
  unresolvable: boolean;
}

const DEFAULT_CPU_MILLIS = 100;
const DEFAULT_MEMORY_BYTES = 200 * 1024 * 1024;

export function emptyUsage(): NodeUsage {
  return { cpuMillis: 0, memoryBytes: 0, pods: 0, scoreCpuMillis: 0, scoreMemoryBytes: 0 };
}

/** What a pod adds to its node's usage. */
export function podUsage(pod: KubeObject): NodeUsage {
  const requests = podRequests(pod);
  const containers = ((pod['spec'] as { containers?: Array<{ resources?: { requests?: Record<string, unknown> } }> } | undefined)?.containers) ?? [];
  let scoreCpu = 0;
  let scoreMemory = 0;
  for (const c of containers) {
    const cpu = c.resources?.requests?.['cpu'];
    const memory = c.resources?.requests?.['memory'];
    scoreCpu += cpu === undefined ? DEFAULT_CPU_MILLIS : cpuMillis(cpu);
    scoreMemory += memory === undefined ? DEFAULT_MEMORY_BYTES : bytes(memory);
  }
  return { cpuMillis: requests.cpuMillis, memoryBytes: requests.memoryBytes, pods: 1, scoreCpuMillis: scoreCpu, scoreMemoryBytes: scoreMemory };
}

export function addUsage(a: NodeUsage, b: NodeUsage, sign: 1 | -1): NodeUsage {
  return {
    cpuMillis: a.cpuMillis + sign * b.cpuMillis,
    memoryBytes: a.memoryBytes + sign * b.memoryBytes,
    pods: a.pods + sign * b.pods,
    scoreCpuMillis: a.scoreCpuMillis + sign * b.scoreCpuMillis,
    scoreMemoryBytes: a.scoreMemoryBytes + sign * b.scoreMemoryBytes,
  };
}

export function nodeTaints(node: KubeObject): Taint[] {
  return ((node['spec'] as { taints?: Taint[] } | undefined)?.taints) ?? [];
}

export function podTolerations(pod: KubeObject): Toleration[] {
  return ((pod['spec'] as { tolerations?: Toleration[] } | undefined)?.tolerations) ?? [];
}

/** v1helper's ToleratesTaint. */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  if (!toleration.key && toleration.operator !== 'Exists') return false;
  if (toleration.operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

function allocatable(node: KubeObject): { cpuMillis: number; memoryBytes: number; pods: number } {
  const status = (node['status'] as { allocatable?: Record<string, unknown>; capacity?: Record<string, unknown> } | undefined) ?? {};
  const source = status.allocatable ?? status.capacity ?? {};
  return { cpuMillis: cpuMillis(source['cpu']), memoryBytes: bytes(source['memory']), pods: parseQuantity(source['pods']) ?? 0 };
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

function matchesRequirement(expr: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = expr.values ?? [];
  switch (expr.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && Number(value) > Number(values[0]);
    case 'Lt':
      return value !== undefined && Number(value) < Number(values[0]);
    default:
      return false;
  }
}

/** A term with neither expressions nor fields selects nothing, as upstream's NodeSelector does. */
export function matchesNodeSelectorTerm(term: NodeSelectorTerm, node: KubeObject): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return (
    expressions.every((expr) => matchesRequirement(expr, Object.hasOwn(labels, expr.key) ? labels[expr.key] : undefined)) &&
    // metadata.name is the only field node selectors support (DaemonSet pods pin with it).
    fields.every((expr) => matchesRequirement(expr, expr.key === 'metadata.name' ? node.metadata.name : undefined))
  );
}

function matchesNodeAffinity(pod: KubeObject, node: KubeObject): boolean {
  const spec = (pod['spec'] as Record<string, unknown> | undefined) ?? {};
  const labels = node.metadata.labels ?? {};
  const selector = (spec['nodeSelector'] as Record<string, string> | undefined) ?? {};
  if (!Object.entries(selector).every(([k, v]) => labels[k] === v)) return false;
  const required = (spec['affinity'] as { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } } } | undefined)
    ?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return !required || required.some((term) => matchesNodeSelectorTerm(term, node));
}

/** Runs the filters in the default profile's order; undefined when the pod fits. */
export function filterNode(pod: KubeObject, node: KubeObject, usage: NodeUsage): FitFailure | undefined {
  const tolerations = podTolerations(pod);
  if ((node['spec'] as { unschedulable?: boolean } | undefined)?.unschedulable) {
    const taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
    if (!tolerations.some((t) => tolerates(t, taint))) return { reasons: ['node(s) were unschedulable'], unresolvable: true };
  }
  for (const taint of nodeTaints(node)) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerations.some((t) => tolerates(t, taint))) return { reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`], unresolvable: true };
  }
  if (!matchesNodeAffinity(pod, node)) return { reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true };
  const capacity = allocatable(node);
  const wanted = podUsage(pod);
  const reasons: string[] = [];
  if (usage.pods + 1 > capacity.pods) reasons.push('Too many pods');
  if (wanted.cpuMillis > 0 && usage.cpuMillis + wanted.cpuMillis > capacity.cpuMillis) reasons.push('Insufficient cpu');
  if (wanted.memoryBytes > 0 && usage.memoryBytes + wanted.memoryBytes > capacity.memoryBytes) reasons.push('Insufficient memory');
  return reasons.length > 0 ? { reasons, unresolvable: false } : undefined;
}

/** NodeResourcesFit's LeastAllocated score (0..100) with the pod placed on the node. */
export function scoreNode(pod: KubeObject, node: KubeObject, usage: NodeUsage): number {
  const capacity = allocatable(node);
  const wanted = podUsage(pod);
  const free = (requested: number, total: number): number => (total <= 0 || requested > total ? 0 : ((total - requested) * 100) / total);
  return (free(usage.scoreCpuMillis + wanted.scoreCpuMillis, capacity.cpuMillis) + free(usage.scoreMemoryBytes + wanted.scoreMemoryBytes, capacity.memoryBytes)) / 2;
}

/** FitError.Error(): `0/3 nodes are available: 3 Insufficient cpu. preemption: ...` */
export function fitErrorMessage(nodeCount: number, failures: FitFailure[]): string {
  if (nodeCount === 0) return 'no nodes available to schedule pods';
  const histogram = (entries: string[]): string => {
    const counts = new Map<string, number>();
    for (const entry of entries) counts.set(entry, (counts.get(entry) ?? 0) + 1);
    return [...counts].map(([reason, count]) => `${count} ${reason}`).sort().join(', ');
  };
  const filterMsg = histogram(failures.flatMap((f) => f.reasons));
  const preemptionMsg = histogram(failures.map((f) => (f.unresolvable ? 'Preemption is not helpful for scheduling' : 'No preemption victims found for incoming pod')));
  // The doubled period is upstream's: the post-filter message ends with one, and the
  // separator format adds another.
  return `0/${nodeCount} nodes are available: ${filterMsg}. preemption: 0/${nodeCount} nodes are available: ${preemptionMsg}..`;
}
