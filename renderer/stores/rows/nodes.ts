/** Nodes table rows: kubectl's STATUS and ROLES, the kubelet version and what the node can offer. */
import type { SlimObject } from '../../../shared/cluster.ts';
import { nodeRoles } from '../../../shared/kube-status.ts';
import { findCondition, readConditions, type ConditionView } from '../../../shared/conditions.ts';
import { parseQuantity, parseTime } from './format.ts';
import type { Tone } from './workloads.ts';

interface NodeView extends SlimObject {
  spec?: { unschedulable?: boolean };
  status?: {
    conditions?: unknown;
    allocatable?: Record<string, string>;
    nodeInfo?: { kubeletVersion?: string };
  };
}

export interface NodeRow {
  uid: string;
  name: string;
  /** kubectl's STATUS: Ready, NotReady or Unknown, then ",SchedulingDisabled" when cordoned. */
  status: string;
  tone: Tone;
  roles: string;
  version: string;
  /** Allocatable CPU in cores and memory in bytes (NaN when not reported). */
  cpu: number;
  memory: number;
  /** Pressure and other conditions that are not in their healthy state, for the hover. */
  problems: ConditionView[];
  conditions: ConditionView[];
  created: number;
  search: string;
}

/** One Nodes row. */
export function nodeRow(object: SlimObject): NodeRow {
  const node = object as NodeView;
  const conditions = readConditions(node.status);
  const ready = findCondition(conditions, 'Ready');
  const readiness = ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown';
  const cordoned = node.spec?.unschedulable === true;
  const problems = conditions.filter((condition) => (condition.type === 'Ready' ? condition.status !== 'True' : condition.status !== 'False'));
  const tone: Tone = readiness !== 'Ready' ? 'danger' : cordoned || problems.length > 0 ? 'warning' : 'ok';
  return {
    uid: object.metadata.uid,
    name: object.metadata.name,
    status: cordoned ? `${readiness},SchedulingDisabled` : readiness,
    tone,
    roles: nodeRoles(object.metadata.labels),
    version: node.status?.nodeInfo?.kubeletVersion ?? '',
    cpu: parseQuantity(node.status?.allocatable?.['cpu']),
    memory: parseQuantity(node.status?.allocatable?.['memory']),
    problems,
    conditions,
    created: parseTime(object.metadata.creationTimestamp),
    search: object.metadata.name.toLowerCase(),
  };
}
