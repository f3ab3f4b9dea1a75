/**
 * Pods table rows. STATUS follows kubectl's printPod exactly (Running, ContainerCreating,
 * CrashLoopBackOff, Init:0/2, Init:Error, Completed, Terminating, Unknown...), because that
 * word is what people search their memory and runbooks for.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { podStatus, podTone, type PodStatusView } from '../../../shared/kube-status.ts';
import type { Tone } from '../../../shared/workload-status.ts';
import { parseTime } from './format.ts';

interface PodView extends SlimObject {
  spec?: PodStatusView['spec'] & { nodeName?: string };
  status?: PodStatusView['status'];
}

export interface PodRow {
  uid: string;
  namespace: string;
  name: string;
  readyContainers: number;
  totalContainers: number;
  /** kubectl's STATUS column. */
  status: string;
  tone: Tone;
  restarts: number;
  /** When a container last restarted (ms), NaN when none did. */
  lastRestart: number;
  node: string;
  /** "ReplicaSet/web-7d9f" for the controlling owner, "" for a bare pod. */
  controlledBy: string;
  created: number;
  search: string;
}

function controlledBy(pod: SlimObject): string {
  const owner = (pod.metadata.ownerReferences ?? []).find((ref) => ref.controller) ?? pod.metadata.ownerReferences?.[0];
  return owner ? `${owner.kind}/${owner.name}` : '';
}

/** One Pods row. */
export function podRow(object: SlimObject): PodRow {
  const pod = object as PodView;
  const status = podStatus(pod);
  const namespace = object.metadata.namespace ?? '';
  const node = pod.spec?.nodeName ?? '';
  return {
    uid: object.metadata.uid,
    namespace,
    name: object.metadata.name,
    readyContainers: status.ready,
    totalContainers: status.total,
    status: status.reason,
    tone: podTone(status.reason, status.ready, status.total),
    restarts: status.restarts,
    lastRestart: status.lastRestart,
    node,
    controlledBy: controlledBy(object),
    created: parseTime(object.metadata.creationTimestamp),
    search: `${namespace}/${object.metadata.name} ${node} ${status.reason}`.toLowerCase(),
  };
}

/** Pods that still hold a node's resources (kubectl describe node's "Non-terminated Pods"), per node. */
export function podsPerNode(pods: Iterable<SlimObject>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const object of pods) {
    const pod = object as PodView;
    const node = pod.spec?.nodeName;
    const phase = pod.status?.phase;
    if (!node || phase === 'Succeeded' || phase === 'Failed') continue;
    counts.set(node, (counts.get(node) ?? 0) + 1);
  }
  return counts;
}
