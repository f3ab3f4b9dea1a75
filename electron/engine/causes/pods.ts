/**
 * From pods to causes: each pod's problem (placement first, because a pod on an unreachable node
 * or without a node has container statuses that say nothing), then the pods of one owner with the
 * same problem as one cause with a count. Pods that are not ready for no reason the cluster states
 * are returned as such, for the owner to describe from its counts, never guessed at.
 */
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { containerProblem } from './containers.ts';
import { eventsOf } from './events.ts';
import { count, earliest, linkOf, names, section, text } from './objects.ts';
import { containerStatuses, isPodReady, phaseOf, type PodProblem } from './pod-problem.ts';
import { placementProblem, type NodeTrouble } from './placement.ts';
import type { Cause, CauseCode, CauseView, Evidence, ObjectLink } from './types.ts';

/** Pods listed as evidence of one cause; the sentence's count covers the rest. */
export const MAX_EVIDENCE_PODS = 20;

/** Most fundamental first: the order causes of one owner are told in. */
const RANK: readonly CauseCode[] = ['node-not-ready', 'pvc-pending', 'unschedulable', 'invalid-image', 'image-pull', 'container-waiting', 'crash-loop', 'pod-failed', 'readiness-probe'];

/** What one findCause or findCauses call shares between the objects it walks. */
export interface FinderContext {
  view: CauseView;
  now: number;
  /** Each troubled pod's diagnosis, once per findCauses however many owners read it. */
  pods: Map<string, PodProblem | 'unexplained'>;
  /** Each node's trouble (null: none), read once however many of its pods ask. */
  nodes: Map<string, NodeTrouble | null>;
  /** The user's status rules (Settings), for objects the one status rule judges. */
  userRules: readonly UserStatusRule[];
}

/** A fresh context: nothing is kept from one call to the next. */
export function createContext(view: CauseView, now: number, userRules: readonly UserStatusRule[] = []): FinderContext {
  return { view, now, pods: new Map(), nodes: new Map(), userRules };
}

/** A pod's problem, 'ok' for a ready, finished or terminating pod, 'unexplained' otherwise. */
function diagnosePod(pod: SlimObject, context: FinderContext): PodProblem | 'ok' | 'unexplained' {
  // Most pods are fine and cheap to tell so: only troubled ones are diagnosed and kept.
  const phase = phaseOf(pod);
  if (pod.metadata.deletionTimestamp || phase === 'Succeeded' || (phase === 'Running' && isPodReady(pod))) return 'ok';
  const cached = context.pods.get(pod.metadata.uid);
  if (cached) return cached;
  const podContext = { events: eventsOf(context.view, pod.metadata.uid, context.now) };
  const diagnosis = placementProblem(pod, context, podContext) ?? containerProblem(pod, podContext) ?? 'unexplained';
  context.pods.set(pod.metadata.uid, diagnosis);
  return diagnosis;
}

function dedupe(evidence: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return evidence.filter((entry) => !seen.has(entry.uid) && seen.add(entry.uid) !== undefined);
}

/** The causes among one owner's pods. */
export interface PodSetCauses {
  causes: Cause[];
  /** Pods not ready for no reason the cluster states. */
  unexplained: SlimObject[];
}

/**
 * The causes among `pods` of one owner, grouped; `chain` leads to that owner. `adjective` words
 * the pods ("2 new pods": a Deployment's newest ReplicaSet during a rollout).
 */
export function podSetCauses(pods: readonly SlimObject[], chain: ObjectLink[], context: FinderContext, adjective = ''): PodSetCauses {
  const groups = new Map<string, PodProblem[]>();
  const unexplained: SlimObject[] = [];
  for (const pod of pods) {
    const diagnosis = diagnosePod(pod, context);
    if (diagnosis === 'ok') continue;
    if (diagnosis === 'unexplained') {
      unexplained.push(pod);
      continue;
    }
    const key = `${diagnosis.code}\u0000${diagnosis.key}`;
    const group = groups.get(key);
    if (group) group.push(diagnosis);
    else groups.set(key, [diagnosis]);
  }
  const ordered = [...groups.values()].sort((a, b) => RANK.indexOf((a[0] as PodProblem).code) - RANK.indexOf((b[0] as PodProblem).code) || b.length - a.length);
  const causes = ordered.map((group): Cause => {
    const head = group[0] as PodProblem;
    const evidence = dedupe([...group.slice(0, MAX_EVIDENCE_PODS).map((problem) => ({ ...linkOf(problem.pod), detail: problem.detail })), ...group.flatMap((problem) => problem.related ?? [])]);
    const since = earliest(group.map((problem) => problem.since));
    const subject = count(group.length, `${adjective}pod`);
    return { code: head.code, sentence: `${subject} ${head.say(group)}`, evidence, ...(since !== undefined ? { since } : {}), chain };
  });
  return { causes, unexplained };
}

/** kubectl-like words for a pod not ready for no stated reason: "Running but not Ready", "Pending (ContainerCreating)". */
function podState(pod: SlimObject): string {
  const phase = phaseOf(pod);
  if (phase === 'Running') return 'Running but not Ready';
  const waiting = containerStatuses(pod)
    .map((container) => text(container.state?.waiting?.reason))
    .find((reason) => reason !== undefined);
  const reason = waiting ?? text(section(pod, 'status')['reason']);
  return reason ? `${phase} (${reason})` : phase;
}

/**
 * "pods catalog-abc, catalog-def Running but not Ready; pod catalog-xyz Pending (ContainerCreating)",
 * saying when none of a group's pods has any Event left (a readiness probe's output is gone).
 */
export function describeUnexplained(pods: readonly SlimObject[], context: FinderContext): string {
  const byState = new Map<string, SlimObject[]>();
  for (const pod of pods) {
    const state = podState(pod);
    const group = byState.get(state);
    if (group) group.push(pod);
    else byState.set(state, [pod]);
  }
  return [...byState]
    .map(([state, group]) => {
      const silent = group.every((pod) => context.view.eventsAbout(pod.metadata.uid).length === 0);
      const noEvents = silent ? ` (no Events left for ${group.length === 1 ? 'this pod' : 'these pods'})` : '';
      return `${group.length === 1 ? 'pod' : 'pods'} ${names(group.map((pod) => pod.metadata))} ${state}${noEvents}`;
    })
    .join('; ');
}

/** Evidence lines for unexplained pods. */
export function unexplainedEvidence(pods: readonly SlimObject[]): Evidence[] {
  return pods.slice(0, MAX_EVIDENCE_PODS).map((pod) => ({ ...linkOf(pod), detail: podState(pod) }));
}
