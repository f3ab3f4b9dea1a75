/**
 * Which nodes a DaemonSet's pods belong on (upstream's NodeShouldRunDaemonPod): nodeSelector,
 * required node affinity and taints against the pod's tolerations, plus the tolerations and
 * node affinity the controller writes into every daemon pod.
 */
import type { KubeObject } from '../types.ts';
import { matchesNodeSelectorTerm, tolerates, type NodeSelectorTerm, type Taint, type Toleration } from './scheduler-fit.ts';

type Spec = Record<string, unknown>;

/** What the node can do for the daemon pod: run a new one, or keep an existing one running. */
export interface NodeFit {
  shouldRun: boolean;
  shouldContinueRunning: boolean;
}

function requiredTerms(spec: Spec): NodeSelectorTerm[] | undefined {
  const affinity = spec['affinity'] as { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } } } | undefined;
  return affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
}

/** Whether a pod spec's nodeSelector and required node affinity admit the node. */
function nodeMatchesPodSpec(spec: Spec, node: KubeObject): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [key, value] of Object.entries((spec['nodeSelector'] as Record<string, string> | undefined) ?? {})) {
    if (labels[key] !== value) return false;
  }
  const terms = requiredTerms(spec);
  return terms === undefined || terms.some((term) => matchesNodeSelectorTerm(term, node));
}

/** The taints that keep pods off a node (NoSchedule, NoExecute). */
function nodeTaints(node: KubeObject): Taint[] {
  return ((node['spec'] as { taints?: Taint[] } | undefined)?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
}

/** Whether the daemon pod (with the controller's tolerations added) belongs on `node`. */
export function daemonNodeFit(podSpec: Spec, node: KubeObject): NodeFit {
  if (!nodeMatchesPodSpec(podSpec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = (podSpec['tolerations'] as Toleration[] | undefined) ?? [];
  const untolerated = nodeTaints(node).filter((taint) => !tolerations.some((t) => tolerates(t, taint)));
  return {
    shouldRun: untolerated.length === 0,
    shouldContinueRunning: !untolerated.some((t) => t.effect === 'NoExecute'),
  };
}

/** util.AddOrUpdateDaemonPodTolerations: daemon pods ride out node problems. Mutates `spec`. */
export function addDaemonTolerations(spec: Spec): void {
  const wanted: Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (spec['hostNetwork'] === true) wanted.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  const tolerations = [...((spec['tolerations'] as Toleration[] | undefined) ?? [])];
  for (const toleration of wanted) {
    const index = tolerations.findIndex((t) => t.key === toleration.key && t.effect === toleration.effect);
    if (index >= 0) tolerations[index] = toleration;
    else tolerations.push(toleration);
  }
  spec['tolerations'] = tolerations;
}

/**
 * util.ReplaceDaemonSetPodNodeNameNodeAffinity: pins the pod to one node by a required
 * `matchFields metadata.name In [node]` term, which the scheduler then honours. Mutates `spec`.
 */
export function pinToNode(spec: Spec, nodeName: string): void {
  const affinity = ((spec['affinity'] as Record<string, unknown> | undefined) ?? {}) as { nodeAffinity?: Record<string, unknown> };
  const nodeAffinity = affinity.nodeAffinity ?? {};
  nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution'] = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] };
  affinity.nodeAffinity = nodeAffinity;
  spec['affinity'] = affinity;
}

/** The node a daemon pod is bound to, or pinned to while it waits for the scheduler. */
export function daemonPodNode(pod: KubeObject): string | undefined {
  const spec = (pod['spec'] as Spec | undefined) ?? {};
  if (typeof spec['nodeName'] === 'string' && spec['nodeName'] !== '') return spec['nodeName'];
  for (const term of requiredTerms(spec) ?? []) {
    const field = term.matchFields?.find((f) => f.key === 'metadata.name' && f.operator === 'In');
    if (field?.values?.length === 1) return field.values[0];
  }
  return undefined;
}
