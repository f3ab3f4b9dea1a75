/**
 * Pods table rows. STATUS follows kubectl's printPod exactly (Running, ContainerCreating,
 * CrashLoopBackOff, Init:0/2, Init:Error, Completed, Terminating, Unknown...), because that
 * word is what people search their memory and runbooks for.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { Tone } from './workloads.ts';
import { parseTime } from './format.ts';

interface ContainerState {
  waiting?: { reason?: string };
  running?: object;
  terminated?: { reason?: string; exitCode?: number; signal?: number; finishedAt?: string };
}

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  state?: ContainerState;
  lastState?: ContainerState;
}

interface PodView extends SlimObject {
  spec?: { containers?: unknown[]; initContainers?: Array<{ name?: string; restartPolicy?: string }>; nodeName?: string };
  status?: {
    phase?: string;
    reason?: string;
    conditions?: Array<{ type?: string; status?: string; reason?: string }>;
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
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

/** node.NodeUnreachablePodReason: the node lifecycle controller's mark on pods of a lost node. */
const NODE_UNREACHABLE_REASON = 'NodeLost';

interface Tally {
  reason: string;
  ready: number;
  restarts: number;
  lastRestart: number;
}

function conditionTrue(pod: PodView, type: string): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

function noteRestart(current: number, status: ContainerStatus): number {
  const finished = parseTime(status.lastState?.terminated?.finishedAt);
  return !Number.isNaN(finished) && (Number.isNaN(current) || finished > current) ? finished : current;
}

/** Init containers: the first one not done decides an "Init:..." reason; sidecars count as containers. */
function tallyInit(pod: PodView, tally: Tally): { initializing: boolean; sidecarRestarts: number; sidecarLastRestart: number } {
  const specs = new Map((pod.spec?.initContainers ?? []).map((c) => [c.name, c]));
  const total = pod.spec?.initContainers?.length ?? 0;
  const statuses = pod.status?.initContainerStatuses ?? [];
  let sidecarRestarts = 0;
  let sidecarLastRestart = Number.NaN;
  for (let i = 0; i < statuses.length; i += 1) {
    const status = statuses[i] as ContainerStatus;
    const sidecar = specs.get(status.name)?.restartPolicy === 'Always';
    tally.restarts += status.restartCount ?? 0;
    tally.lastRestart = noteRestart(tally.lastRestart, status);
    if (sidecar) {
      sidecarRestarts += status.restartCount ?? 0;
      sidecarLastRestart = noteRestart(sidecarLastRestart, status);
    }
    const { terminated, waiting } = status.state ?? {};
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (sidecar && status.started === true) {
      if (status.ready) tally.ready += 1;
      continue;
    }
    if (terminated) {
      if (terminated.reason) tally.reason = `Init:${terminated.reason}`;
      else tally.reason = terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode ?? 0}`;
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') {
      tally.reason = `Init:${waiting.reason}`;
    } else {
      tally.reason = `Init:${i}/${total}`;
    }
    return { initializing: true, sidecarRestarts, sidecarLastRestart };
  }
  return { initializing: false, sidecarRestarts, sidecarLastRestart };
}

/** Containers, last to first so the first container's reason wins, as kubectl does. */
function tallyContainers(pod: PodView, tally: Tally): void {
  const statuses = pod.status?.containerStatuses ?? [];
  let hasRunning = false;
  for (let i = statuses.length - 1; i >= 0; i -= 1) {
    const status = statuses[i] as ContainerStatus;
    tally.restarts += status.restartCount ?? 0;
    tally.lastRestart = noteRestart(tally.lastRestart, status);
    const { waiting, terminated, running } = status.state ?? {};
    if (waiting?.reason) tally.reason = waiting.reason;
    else if (terminated?.reason) tally.reason = terminated.reason;
    else if (terminated) tally.reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
    else if (status.ready && running) {
      hasRunning = true;
      tally.ready += 1;
    }
  }
  if (tally.reason === 'Completed' && hasRunning) tally.reason = conditionTrue(pod, 'Ready') ? 'Running' : 'NotReady';
}

/** kubectl's STATUS, ready and restart counts of one pod. */
export function podStatus(pod: PodView): Tally & { total: number } {
  const phase = pod.status?.phase ?? '';
  const tally: Tally = { reason: pod.status?.reason || phase, ready: 0, restarts: 0, lastRestart: Number.NaN };
  if ((pod.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) tally.reason = 'SchedulingGated';
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').length;
  const total = (pod.spec?.containers?.length ?? 0) + sidecars;
  const init = tallyInit(pod, tally);
  if (!init.initializing || conditionTrue(pod, 'Initialized')) {
    // Once initialised, only sidecar init containers count towards restarts.
    tally.restarts = init.sidecarRestarts;
    tally.lastRestart = init.sidecarLastRestart;
    tallyContainers(pod, tally);
  }
  if (pod.metadata.deletionTimestamp && pod.status?.reason === NODE_UNREACHABLE_REASON) tally.reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') tally.reason = 'Terminating';
  return { ...tally, total };
}

const PENDING_STATUSES = new Set(['Pending', 'ContainerCreating', 'PodInitializing', 'Terminating', 'SchedulingGated']);
const DONE_STATUSES = new Set(['Completed', 'Succeeded']);

/** How alarming a STATUS is: anything kubectl prints that is not a healthy or passing state is danger. */
export function podTone(status: string, ready: number, total: number): Tone {
  if (status === 'Running') return ready === total ? 'ok' : 'warning';
  if (DONE_STATUSES.has(status)) return 'neutral';
  if (PENDING_STATUSES.has(status) || /^Init:\d+\/\d+$/.test(status)) return 'pending';
  if (status === 'NotReady') return 'warning';
  return 'danger';
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
