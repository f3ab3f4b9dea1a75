/**
 * The Pod row: upstream printPod's status reason, ready count and restart summary, which is
 * what `kubectl get pods` shows (Running, ContainerCreating, CrashLoopBackOff, Init:0/1, ...).
 */
import { podStatus, type PodStatusView } from '../../../../shared/kube-status.ts';
import { humanDuration, parseTimestamp } from './duration.ts';
import type { TableCell, TableRowCondition } from './types.ts';

/** The parts of a Pod the printer reads. */
export interface PodView extends PodStatusView {
  metadata: { name: string; creationTimestamp?: string; deletionTimestamp?: string };
  spec?: PodStatusView['spec'] & {
    nodeName?: string;
    readinessGates?: Array<{ conditionType?: string }>;
  };
  status?: PodStatusView['status'] & {
    podIP?: string;
    podIPs?: Array<{ ip?: string }>;
    nominatedNodeName?: string;
  };
}

const SUCCEEDED_CONDITIONS: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const FAILED_CONDITIONS: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

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
  const tally = podStatus(pod);
  const restarts = tally.restarts !== 0 && !Number.isNaN(tally.lastRestart) ? `${tally.restarts} (${humanDuration(now - tally.lastRestart)} ago)` : String(tally.restarts);
  const created = parseTimestamp(pod.metadata.creationTimestamp);
  const ip = pod.status?.podIPs?.[0]?.ip || pod.status?.podIP || '<none>';
  const cells: TableCell[] = [
    pod.metadata.name,
    `${tally.ready}/${tally.total}`,
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
