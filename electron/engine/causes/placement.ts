/**
 * Where a pod stands: on a node that is NotReady or unreachable (its container statuses are then
 * stale: the kubelet no longer reports), waiting for a PersistentVolumeClaim that is Pending, or
 * not scheduled at all, in the scheduler's words.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { eventsOf, firstOf, latestEvent } from './events.ts';
import { GK, isRecord, linkOf, names, section, text } from './objects.ts';
import { be, phaseOf, podCondition, these, type PodContext, type PodProblem } from './pod-problem.ts';
import type { FinderContext } from './pods.ts';
import type { CauseView } from './types.ts';

/** The taints the node lifecycle controller puts on a node that stopped reporting. */
const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
/** What the PV controller and external provisioners say about a claim that waits. */
const CLAIM_REASONS = ['ProvisioningFailed', 'FailedBinding', 'ExternalProvisioning', 'WaitForFirstConsumer', 'Provisioning'];

function nodeConditionOf(node: SlimObject): { status: string; reason?: string; message?: string; since?: number } | undefined {
  const conditions = section(node, 'status')['conditions'];
  if (!Array.isArray(conditions)) return undefined;
  const ready: unknown = conditions.find((entry) => isRecord(entry) && entry['type'] === 'Ready');
  if (!isRecord(ready)) return undefined;
  const since = typeof ready['lastTransitionTime'] === 'string' ? Date.parse(ready['lastTransitionTime']) : Number.NaN;
  const reason = text(ready['reason']);
  const message = text(ready['message']);
  return { status: text(ready['status']) ?? 'Unknown', ...(reason ? { reason } : {}), ...(message ? { message } : {}), ...(Number.isFinite(since) ? { since } : {}) };
}

function taintsOf(node: SlimObject): string[] {
  const taints = section(node, 'spec')['taints'];
  return Array.isArray(taints) ? taints.filter(isRecord).map((taint) => `${String(taint['key'])}:${String(taint['effect'] ?? '')}`) : [];
}

export interface NodeTrouble {
  /** "unreachable" (Ready=Unknown or the unreachable taint) or "NotReady". */
  state: string;
  /** The Ready condition's message, else the condition itself. */
  words: string;
  /** The condition and taints, for the node's evidence line. */
  detail: string;
  since?: number;
}

/** Why a node cannot run its pods, or undefined when it is Ready and untainted by the node controller. */
export function nodeTrouble(node: SlimObject): NodeTrouble | undefined {
  const ready = nodeConditionOf(node);
  const taints = taintsOf(node);
  const unreachable = taints.some((taint) => taint.startsWith(`${UNREACHABLE_TAINT}:`)) || ready?.status === 'Unknown';
  const notReady = unreachable || ready?.status === 'False' || taints.some((taint) => taint.startsWith(`${NOT_READY_TAINT}:`));
  if (!notReady) return undefined;
  const condition = ready ? `Ready=${ready.status}${ready.reason ? ` (${ready.reason})` : ''}` : 'no Ready condition';
  const detail = [`${condition}${ready?.message ? `: ${ready.message}` : ''}`, ...taints.map((taint) => `taint ${taint}`)].join('; ');
  return { state: unreachable ? 'unreachable' : 'NotReady', words: ready?.message ?? condition, detail, ...(ready?.since ? { since: ready.since } : {}) };
}

function nodeProblem(pod: SlimObject, context: FinderContext): PodProblem | undefined {
  const nodeName = text(section(pod, 'spec')['nodeName']);
  if (!nodeName) return undefined;
  const node = context.view.byName(GK.Node.group, GK.Node.kind, undefined, nodeName);
  if (!node) return undefined;
  let trouble = context.nodes.get(node.metadata.uid);
  if (trouble === undefined) {
    trouble = nodeTrouble(node) ?? null;
    context.nodes.set(node.metadata.uid, trouble);
  }
  if (!trouble) return undefined;
  const { state, words } = trouble;
  return {
    code: 'node-not-ready',
    key: node.metadata.uid,
    pod,
    detail: `on node ${nodeName} (${phaseOf(pod)})`,
    ...(trouble.since ? { since: trouble.since } : {}),
    related: [{ ...linkOf(node), detail: trouble.detail }],
    say: (group) => `${be(group)} on node ${nodeName}, which is ${state}: ${words}`,
  };
}

function claimsOf(pod: SlimObject): string[] {
  const volumes = section(pod, 'spec')['volumes'];
  if (!Array.isArray(volumes)) return [];
  const claims: string[] = [];
  for (const volume of volumes) {
    const source = isRecord(volume) ? volume['persistentVolumeClaim'] : undefined;
    const claim = isRecord(source) ? text(source['claimName']) : undefined;
    if (claim) claims.push(claim);
  }
  return claims;
}

function claimProblem(pod: SlimObject, view: CauseView, now: number): PodProblem | undefined {
  for (const claimName of claimsOf(pod)) {
    const claim = view.byName(GK.PersistentVolumeClaim.group, GK.PersistentVolumeClaim.kind, pod.metadata.namespace, claimName);
    if (!claim || text(section(claim, 'status')['phase']) !== 'Pending') continue;
    const events = eventsOf(view, claim.metadata.uid, now);
    const said = latestEvent(events, CLAIM_REASONS);
    const words = said ? said.message : undefined;
    const since = firstOf(events, CLAIM_REASONS);
    return {
      code: 'pvc-pending',
      key: words ?? '(no Events)',
      pod,
      claim: claimName,
      detail: `waits for PersistentVolumeClaim ${claimName}`,
      ...(since ? { since } : {}),
      related: [{ ...linkOf(claim), detail: said ? `Pending; ${said.reason}: ${said.message}` : 'Pending; no Events left for this claim' }],
      say: (group) => {
        const claims = group.map((problem) => ({ name: problem.claim ?? '' }));
        const subject = claims.length === 1 ? `PersistentVolumeClaim ${names(claims)}, which is` : `PersistentVolumeClaims ${names(claims)}, which are`;
        const said = words === undefined ? `; no Events left for ${claims.length === 1 ? 'this claim' : 'these claims'}` : `: ${words}`;
        return `${be(group)} waiting for ${subject} Pending${said}`;
      },
    };
  }
  return undefined;
}

/** The scheduler's message without its preemption report, which repeats the node counts. */
function schedulerWords(message: string): string {
  const at = message.indexOf(' preemption: ');
  return at < 0 ? message : message.slice(0, at);
}

function scheduleProblem(pod: SlimObject, context: PodContext): PodProblem | undefined {
  const scheduled = podCondition(pod, 'PodScheduled');
  if (scheduled?.status !== 'False') return undefined;
  // The condition holds the scheduler's latest attempt; the Event the same words, until it expires.
  const event = latestEvent(context.events, ['FailedScheduling']);
  const message = scheduled.message ?? event?.message;
  const since = scheduled.lastTransition ?? firstOf(context.events, ['FailedScheduling']);
  const reason = scheduled.reason ?? 'PodScheduled=False';
  if (message === undefined) {
    return {
      code: 'unschedulable',
      key: reason,
      pod,
      detail: `PodScheduled=False (${reason}), no message`,
      ...(since ? { since } : {}),
      say: (group) => `can't be scheduled (${reason}); no Events left for ${these(group)} and the PodScheduled condition holds no message`,
    };
  }
  const words = schedulerWords(message);
  return { code: 'unschedulable', key: words, pod, detail: message, ...(since ? { since } : {}), say: () => `can't be scheduled: ${words}` };
}

/** What keeps the pod from its node, or undefined. */
export function placementProblem(pod: SlimObject, context: FinderContext, podContext: PodContext): PodProblem | undefined {
  return nodeProblem(pod, context) ?? claimProblem(pod, context.view, context.now) ?? scheduleProblem(pod, podContext);
}
