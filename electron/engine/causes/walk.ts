/**
 * The walk down ownership to the leaves that keep an object from converging: a Deployment to its
 * newest ReplicaSet and that one's pods; a ReplicaSet, StatefulSet, DaemonSet or Job to its pods;
 * an HPA to its scale target; a custom resource to what it owns (matched by group, kind and uid).
 * A controller's own verdict (progress deadline, backoffLimit, metrics) heads the causes and
 * carries the leaf causes found under it.
 */
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { workloadState } from '../../../shared/workload-status.ts';
import { withCounts } from './counts.ts';
import { count, GK, groupOf, isKind, linkOf, names, newestReplicaSet, ownedBy, section, text } from './objects.ts';
import { nodeTrouble } from './placement.ts';
import { MAX_EVIDENCE_PODS, podSetCauses, type FinderContext } from './pods.ts';
import type { Cause, ObjectLink } from './types.ts';
import { createRefused, deploymentVerdicts, hpaVerdicts, isStatusDrifting, jobVerdict, statusVerdict } from './verdicts.ts';

/** What a walk found: causes, and the pods not ready for no stated reason (for the counts sentence). */
export interface Walked {
  causes: Cause[];
  unexplained: SlimObject[];
  /** The pods' owner the unexplained pods belong to, and the chain to it. */
  podOwner?: { object: SlimObject; chain: ObjectLink[] };
}

const POD_OWNERS = [GK.ReplicaSet, GK.StatefulSet, GK.DaemonSet, GK.Job];
const WORKLOADS = [GK.Deployment, ...POD_OWNERS];

/** Whether `object` has drifted from its desired state: the Overview's rule for built-in workloads, the one status rule for the rest. */
export function isDrifting(object: SlimObject, userRules: readonly UserStatusRule[] = []): boolean {
  if (WORKLOADS.some((gk) => isKind(object, gk))) return workloadState(object).drift !== null;
  if (isKind(object, GK.HorizontalPodAutoscaler)) return hpaVerdicts(object, []).length > 0;
  const group = groupOf(object.apiVersion);
  // Core objects (pods, nodes, claims) are leaves, not drifting objects; Events are not objects of their own.
  if (group === '' || group === GK.EventsV1.group || isKind(object, GK.CronJob)) return false;
  return isStatusDrifting(object, userRules);
}

/**
 * A controller verdict heads the list and carries the leaves found under it; with a verdict but
 * no leaf cause, the pods not ready for no stated reason are the leaf (from the counts).
 */
function headed(verdicts: Cause[], object: SlimObject, walked: Walked, chain: ObjectLink[], context: FinderContext): Cause[] {
  const [head, ...rest] = verdicts;
  if (!head) return walked.causes;
  const leaves = walked.causes.length === 0 && walked.unexplained.length > 0 ? withCounts(object, walked, chain, context) : walked.causes;
  return [leaves.length > 0 ? { ...head, underneath: leaves } : head, ...rest];
}

const nothing = (causes: Cause[]): Walked => ({ causes, unexplained: [] });

function podsOf(owner: SlimObject, context: FinderContext): SlimObject[] {
  return ownedBy(owner, context.view.dependents(owner.metadata.uid), GK.Pod);
}

function podOwnerWalk(owner: SlimObject, chain: ObjectLink[], context: FinderContext, adjective = ''): Walked {
  const refused = createRefused(owner, chain, context);
  const { causes, unexplained } = podSetCauses(podsOf(owner, context), chain, context, adjective);
  return { causes: refused ? [refused, ...causes] : causes, unexplained, podOwner: { object: owner, chain } };
}

function deploymentWalk(deployment: SlimObject, chain: ObjectLink[], context: FinderContext): Walked {
  const verdicts = deploymentVerdicts(deployment, chain);
  const replicaSets = ownedBy(deployment, context.view.dependents(deployment.metadata.uid), GK.ReplicaSet);
  const newest = newestReplicaSet(replicaSets);
  if (!newest) {
    // The ReplicaSet may not be listed yet: say so rather than guess from the Deployment alone.
    const refused = createRefused(deployment, chain, context);
    const missing: Cause = {
      code: 'not-in-cache',
      sentence: `No ReplicaSet of ${deployment.kind} ${deployment.metadata.name} is in the cache yet, so its pods can't be read`,
      evidence: [{ ...linkOf(deployment), detail: 'no owned ReplicaSet in the cache' }],
      chain,
    };
    const wanted = section(deployment, 'spec')['replicas'] !== 0;
    return nothing(headed(verdicts, deployment, nothing(refused ? [refused] : wanted ? [missing] : []), chain, context));
  }
  // "2 new pods": the newest ReplicaSet's pods while an older one still runs some (a rollout).
  const rollingOut = replicaSets.some((rs) => rs !== newest && (section(rs, 'spec')['replicas'] !== 0 || podsOf(rs, context).length > 0));
  const walked = podOwnerWalk(newest, [...chain, linkOf(newest)], context, rollingOut ? 'new ' : '');
  return { ...walked, causes: headed(verdicts, deployment, walked, chain, context) };
}

function jobWalk(job: SlimObject, chain: ObjectLink[], context: FinderContext): Walked {
  const walked = podOwnerWalk(job, chain, context);
  const failed = jobVerdict(job, chain);
  return { ...walked, causes: headed(failed ? [failed] : [], job, walked, chain, context) };
}

function hpaWalk(hpa: SlimObject, chain: ObjectLink[], context: FinderContext, visiting: Set<string>): Walked {
  const verdicts = hpaVerdicts(hpa, chain);
  const ref = section(hpa, 'spec')['scaleTargetRef'];
  const target = ref && typeof ref === 'object' ? (ref as Record<string, unknown>) : {};
  const kind = text(target['kind']);
  const name = text(target['name']);
  if (!kind || !name) return nothing(verdicts);
  // The HPA controller reads the target through its apiVersion's group; no apiVersion is the core group.
  const group = groupOf(target['apiVersion']);
  const found = context.view.byName(group, kind, hpa.metadata.namespace, name);
  if (!found) {
    const named = `${kind}${group ? `.${group}` : ''} ${name}`;
    if (verdicts.length > 0) return nothing(verdicts);
    const missing: Cause = { code: 'not-in-cache', sentence: `${hpa.kind} ${hpa.metadata.name}'s target ${named} is not in the cache`, evidence: [{ ...linkOf(hpa), detail: `scaleTargetRef: ${named}` }], chain };
    return nothing([missing]);
  }
  if (!isDrifting(found, context.userRules)) return nothing(verdicts);
  const below = walk(found, [...chain, linkOf(found)], context, visiting);
  const leaves = withCounts(found, below, [...chain, linkOf(found)], context);
  if (verdicts.length > 0) return nothing(headed(verdicts, found, nothing(leaves), chain, context));
  const [first] = leaves;
  if (!first) return nothing([]);
  const head: Cause = {
    code: 'hpa-target',
    sentence: `${hpa.kind} ${hpa.metadata.name}'s target ${found.kind} ${found.metadata.name} drifts: ${first.sentence}`,
    evidence: [{ ...linkOf(found), detail: `scale target of ${hpa.kind} ${hpa.metadata.name}` }],
    ...(first.since !== undefined ? { since: first.since } : {}),
    chain,
    underneath: leaves,
  };
  return nothing([head]);
}

function ownerWalk(owner: SlimObject, chain: ObjectLink[], context: FinderContext, visiting: Set<string>): Walked {
  const own = statusVerdict(owner, chain, context.userRules);
  const owned = ownedBy(owner, context.view.dependents(owner.metadata.uid));
  const pods = owned.filter((child) => isKind(child, GK.Pod));
  const leaves: Cause[] = [];
  for (const child of owned) {
    if (isKind(child, GK.Pod) || !isDrifting(child, context.userRules)) continue;
    const childChain = [...chain, linkOf(child)];
    leaves.push(...withCounts(child, walk(child, childChain, context, visiting), childChain, context));
  }
  const direct = podSetCauses(pods, chain, context);
  const walked: Walked = { causes: [...leaves, ...direct.causes], unexplained: direct.unexplained, podOwner: { object: owner, chain } };
  return { ...walked, causes: headed(own ? [own] : [], owner, walked, chain, context) };
}

/** A node that is NotReady or unreachable, and the pods on it. */
function nodeCauses(node: SlimObject, chain: ObjectLink[], context: FinderContext): Cause[] {
  const trouble = nodeTrouble(node);
  if (!trouble) return [];
  const pods = context.view.podsOnNode(node.metadata.name).filter((pod) => !pod.metadata.deletionTimestamp);
  const onIt = pods.length > 0 ? `; ${count(pods.length, 'pod')} on it: ${names(pods.map((pod) => pod.metadata))}` : '; no pods on it';
  const cause: Cause = {
    code: 'node-not-ready',
    sentence: `${node.kind} ${node.metadata.name} is ${trouble.state}: ${trouble.words}${onIt}`,
    evidence: [{ ...linkOf(node), detail: trouble.detail }, ...pods.slice(0, MAX_EVIDENCE_PODS).map((pod) => ({ ...linkOf(pod), detail: `on ${node.metadata.name}` }))],
    ...(trouble.since !== undefined ? { since: trouble.since } : {}),
    chain,
  };
  return [cause];
}

/** The causes under `object`, `chain` leading to it (it included); `visiting` stops ownership loops. */
export function walk(object: SlimObject, chain: ObjectLink[], context: FinderContext, visiting: Set<string>): Walked {
  const uid = object.metadata.uid;
  if (visiting.has(uid)) return nothing([]);
  visiting.add(uid);
  try {
    if (isKind(object, GK.Deployment)) return deploymentWalk(object, chain, context);
    if (isKind(object, GK.Job)) return jobWalk(object, chain, context);
    if (POD_OWNERS.some((gk) => isKind(object, gk))) return podOwnerWalk(object, chain, context);
    if (isKind(object, GK.HorizontalPodAutoscaler)) return hpaWalk(object, chain, context, visiting);
    if (isKind(object, GK.Node)) return nothing(nodeCauses(object, chain, context));
    if (isKind(object, GK.Pod)) return { ...podSetCauses([object], chain, context), podOwner: { object, chain } };
    if (groupOf(object.apiVersion) === '' || isKind(object, GK.CronJob)) return nothing([]);
    return ownerWalk(object, chain, context, visiting);
  } finally {
    visiting.delete(uid);
  }
}
