/**
 * The Pod row: upstream printPod's status reason, ready count and restart summary, which is
 * what `kubectl get pods` shows (Running, ContainerCreating, CrashLoopBackOff, Init:0/1, ...).
 */
import { humanDuration, parseTimestamp } from './duration.ts';
import type { TableCell, TableRowCondition } from './types.ts';

interface ContainerState {
  waiting?: { reason?: string };
  running?: { startedAt?: string };
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

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
}

/** The parts of a Pod the printer reads. */
export interface PodView {
  metadata: { name: string; creationTimestamp?: string; deletionTimestamp?: string };
  spec?: {
    containers?: unknown[];
    initContainers?: Array<{ name?: string; restartPolicy?: string }>;
    nodeName?: string;
    readinessGates?: Array<{ conditionType?: string }>;
  };
  status?: {
    phase?: string;
    reason?: string;
    conditions?: Condition[];
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
    podIP?: string;
    podIPs?: Array<{ ip?: string }>;
    nominatedNodeName?: string;
  };
}

/** node.NodeUnreachablePodReason: set by the node lifecycle controller on pods of a lost node. */
const NODE_UNREACHABLE_REASON = 'NodeLost';

const SUCCEEDED_CONDITIONS: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const FAILED_CONDITIONS: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

function conditionTrue(conditions: Condition[] | undefined, type: string): boolean {
  return (conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** Latest lastState.terminated.finishedAt seen, for the "(2m ago)" suffix. */
function laterRestart(current: number, status: ContainerStatus): number {
  const finished = parseTimestamp(status.lastState?.terminated?.finishedAt);
  return !Number.isNaN(finished) && (Number.isNaN(current) || finished > current) ? finished : current;
}

interface Tally {
  reason: string;
  ready: number;
  restarts: number;
  lastRestart: number;
}

/** Init containers: the first one not done decides an "Init:..." reason. */
function tallyInit(pod: PodView, tally: Tally): { initializing: boolean; sidecarRestarts: number; sidecarLastRestart: number } {
  const specs = new Map((pod.spec?.initContainers ?? []).map((c) => [c.name, c]));
  const total = pod.spec?.initContainers?.length ?? 0;
  let initializing = false;
  let sidecarRestarts = 0;
  let sidecarLastRestart = Number.NaN;
  const statuses = pod.status?.initContainerStatuses ?? [];
  for (let i = 0; i < statuses.length; i += 1) {
    const status = statuses[i] as ContainerStatus;
    const sidecar = specs.get(status.name)?.restartPolicy === 'Always';
    tally.restarts += status.restartCount ?? 0;
    tally.lastRestart = laterRestart(tally.lastRestart, status);
    if (sidecar) {
      sidecarRestarts += status.restartCount ?? 0;
      sidecarLastRestart = laterRestart(sidecarLastRestart, status);
    }
    const terminated = status.state?.terminated;
    const waiting = status.state?.waiting;
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
    initializing = true;
    break;
  }
  return { initializing, sidecarRestarts, sidecarLastRestart };
}

/** Containers, walked last to first so the first container's reason wins, as upstream. */
function tallyContainers(pod: PodView, tally: Tally): void {
  const statuses = pod.status?.containerStatuses ?? [];
  let hasRunning = false;
  for (let i = statuses.length - 1; i >= 0; i -= 1) {
    const status = statuses[i] as ContainerStatus;
    tally.restarts += status.restartCount ?? 0;
    tally.lastRestart = laterRestart(tally.lastRestart, status);
    const waiting = status.state?.waiting;
    const terminated = status.state?.terminated;
    if (waiting?.reason) tally.reason = waiting.reason;
    else if (terminated?.reason) tally.reason = terminated.reason;
    else if (terminated) tally.reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
    else if (status.ready && status.state?.running) {
      hasRunning = true;
      tally.ready += 1;
    }
  }
  if (tally.reason === 'Completed' && hasRunning) {
    tally.reason = conditionTrue(pod.status?.conditions, 'Ready') ? 'Running' : 'NotReady';
  }
}

function readinessGates(pod: PodView): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const trueCount = gates.filter((gate) => conditions.find((c) => c.type === gate.conditionType)?.status === 'True').length;
  return `${trueCount}/${gates.length}`;
}

/** Cells (all nine, wide included) and row conditions of one Pod. */
export function podRow(pod: PodView, now: number): { cells: TableCell[]; conditions?: TableRowCondition[] } {
  const phase = pod.status?.phase ?? '';
  const tally: Tally = { reason: pod.status?.reason || phase, ready: 0, restarts: 0, lastRestart: Number.NaN };
  if ((pod.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) tally.reason = 'SchedulingGated';

  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').length;
  const total = (pod.spec?.containers?.length ?? 0) + sidecars;
  const init = tallyInit(pod, tally);
  if (!init.initializing || conditionTrue(pod.status?.conditions, 'Initialized')) {
    // Once initialised, only sidecar init containers count towards restarts.
    tally.restarts = init.sidecarRestarts;
    tally.lastRestart = init.sidecarLastRestart;
    tallyContainers(pod, tally);
  }

  if (pod.metadata.deletionTimestamp && pod.status?.reason === NODE_UNREACHABLE_REASON) tally.reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') tally.reason = 'Terminating';

  const restarts = tally.restarts !== 0 && !Number.isNaN(tally.lastRestart) ? `${tally.restarts} (${humanDuration(now - tally.lastRestart)} ago)` : String(tally.restarts);
  const created = parseTimestamp(pod.metadata.creationTimestamp);
  const ip = pod.status?.podIPs?.[0]?.ip || pod.status?.podIP || '<none>';
  const cells: TableCell[] = [
    pod.metadata.name,
    `${tally.ready}/${total}`,
    tally.reason,
    restarts,
    Number.isNaN(created) ? '<unknown>' : humanDuration(now - created),
    ip,
    pod.spec?.nodeName || '<none>',
    pod.status?.nominatedNodeName || '<none>',
    readinessGates(pod),
  ];
  if (phase === 'Succeeded') return { cells, conditions: SUCCEEDED_CONDITIONS.map((c) => ({ ...c })) };
  if (phase === 'Failed') return { cells, conditions: FAILED_CONDITIONS.map((c) => ({ ...c })) };
  return { cells };
}
