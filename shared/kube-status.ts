/**
 * kubectl's STATUS words, computed the way its printers do: printPod's reason, ready count and
 * restarts, and findNodeRoles. Shared by the simulator's Table printer and the renderer's rows,
 * so `kubectl get pods` against the simulator and the Pods screen always say the same thing;
 * and how alarming each word is (the Pods screen's colour, the graph's pod health).
 */
import type { Tone } from './workload-status.ts';

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

/** The parts of a Pod that printPod's status reads. */
export interface PodStatusView {
  metadata: { deletionTimestamp?: string };
  spec?: { containers?: unknown[]; initContainers?: Array<{ name?: string; restartPolicy?: string }> };
  status?: {
    phase?: string;
    reason?: string;
    conditions?: Array<{ type?: string; status?: string; reason?: string }>;
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
}

/** What printPod derives from a pod's status. */
export interface PodStatusSummary {
  /** The STATUS column: Running, ContainerCreating, CrashLoopBackOff, Init:0/1, Terminating... */
  reason: string;
  ready: number;
  /** Containers counted in READY's denominator: the containers plus sidecar init containers. */
  total: number;
  restarts: number;
  /** When a counted container last restarted (ms since the epoch), NaN when none did. */
  lastRestart: number;
}

type Tally = Omit<PodStatusSummary, 'total'>;

/** node.NodeUnreachablePodReason: the node lifecycle controller's mark on pods of a lost node. */
const NODE_UNREACHABLE_REASON = 'NodeLost';

function conditionTrue(pod: PodStatusView, type: string): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** The later of `current` and the status's last termination, for the "(2m ago)" suffix. */
function laterRestart(current: number, status: ContainerStatus): number {
  const finishedAt = status.lastState?.terminated?.finishedAt;
  const finished = typeof finishedAt === 'string' && finishedAt !== '' ? Date.parse(finishedAt) : Number.NaN;
  return !Number.isNaN(finished) && (Number.isNaN(current) || finished > current) ? finished : current;
}

/** Init containers: the first one not done decides an "Init:..." reason; sidecars count as containers. */
function tallyInit(pod: PodStatusView, tally: Tally): { initializing: boolean; sidecarRestarts: number; sidecarLastRestart: number } {
  const specs = new Map((pod.spec?.initContainers ?? []).map((c) => [c.name, c]));
  const total = pod.spec?.initContainers?.length ?? 0;
  const statuses = pod.status?.initContainerStatuses ?? [];
  let sidecarRestarts = 0;
  let sidecarLastRestart = Number.NaN;
  for (let i = 0; i < statuses.length; i += 1) {
    const status = statuses[i] as ContainerStatus;
    const sidecar = specs.get(status.name)?.restartPolicy === 'Always';
    tally.restarts += status.restartCount ?? 0;
    tally.lastRestart = laterRestart(tally.lastRestart, status);
    if (sidecar) {
      sidecarRestarts += status.restartCount ?? 0;
      sidecarLastRestart = laterRestart(sidecarLastRestart, status);
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
function tallyContainers(pod: PodStatusView, tally: Tally): void {
  const statuses = pod.status?.containerStatuses ?? [];
  let hasRunning = false;
  for (let i = statuses.length - 1; i >= 0; i -= 1) {
    const status = statuses[i] as ContainerStatus;
    tally.restarts += status.restartCount ?? 0;
    tally.lastRestart = laterRestart(tally.lastRestart, status);
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

/** printPod's STATUS, ready and restart counts of one pod. */
export function podStatus(pod: PodStatusView): PodStatusSummary {
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

const NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';
const NODE_ROLE_LABEL = 'kubernetes.io/role';

/** findNodeRoles: `node-role.kubernetes.io/<role>` keys and the legacy `kubernetes.io/role` value. */
export function nodeRoles(labels: Record<string, string> | undefined): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (key.startsWith(NODE_ROLE_PREFIX)) {
      const role = key.slice(NODE_ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (key === NODE_ROLE_LABEL && value) {
      roles.add(value);
    }
  }
  return [...roles].sort().join(',') || '<none>';
}
