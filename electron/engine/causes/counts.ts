/**
 * The cause of last resort, from what the object's own numbers say: "2 of 4 replicas not ready;
 * pods catalog-abc, catalog-def Running but not Ready". Used when no condition, Event or pod
 * status names a cause (objects with no conditions at all, Events expired), so it states what
 * is known and what could not be seen, and never guesses.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { workloadState } from '../../../shared/workload-status.ts';
import { GK, isKind, linkOf, ownedBy } from './objects.ts';
import { describeUnexplained, unexplainedEvidence, type FinderContext } from './pods.ts';
import type { Cause, ObjectLink } from './types.ts';
import type { Walked } from './walk.ts';

const WORKLOADS = [GK.Deployment, GK.ReplicaSet, GK.StatefulSet, GK.DaemonSet, GK.Job];

/** What the object's numbers and drift reasons say, or undefined for an object without them. */
function headline(object: SlimObject): { text: string; desired: number | null } | undefined {
  if (!WORKLOADS.some((gk) => isKind(object, gk))) return undefined;
  const { counts, drift } = workloadState(object);
  const { desired, ready } = counts;
  if (desired !== null && ready !== null && ready < desired && !isKind(object, GK.Job)) {
    const unit = isKind(object, GK.DaemonSet) ? 'pods' : 'replicas';
    return { text: `${desired - ready} of ${desired} ${unit} not ready`, desired };
  }
  return drift ? { text: drift.reasons.join('; '), desired } : undefined;
}

/** The pods' owner holds no pod at all in the cache. */
function podlessOwner(walked: Walked, context: FinderContext): SlimObject | undefined {
  const owner = walked.podOwner?.object;
  if (!owner || isKind(owner, GK.Pod)) return undefined;
  const pods = ownedBy(owner, context.view.dependents(owner.metadata.uid), GK.Pod);
  return pods.length === 0 ? owner : undefined;
}

/**
 * The walk's causes, or, when it found none, one `not-ready` cause from the counts and the pods
 * that are not ready for no stated reason; empty when there is nothing to say.
 */
export function withCounts(object: SlimObject, walked: Walked, chain: ObjectLink[], context: FinderContext): Cause[] {
  if (walked.causes.length > 0) return walked.causes;
  const head = headline(object);
  const parts: string[] = head ? [head.text] : [];
  if (walked.unexplained.length > 0) parts.push(describeUnexplained(walked.unexplained, context));
  else {
    const podless = head && head.desired !== 0 ? podlessOwner(walked, context) : undefined;
    if (podless) parts.push(`no pods of ${podless.kind} ${podless.metadata.name} in the cache`);
  }
  if (parts.length === 0) return [];
  const [first, ...rest] = parts;
  const sentence = [(first as string).charAt(0).toUpperCase() + (first as string).slice(1), ...rest].join('; ');
  const ownerChain = walked.podOwner?.chain ?? chain;
  return [
    {
      code: 'not-ready',
      sentence,
      evidence: [{ ...linkOf(object), detail: head?.text ?? 'no status numbers' }, ...unexplainedEvidence(walked.unexplained)],
      chain: ownerChain,
    },
  ];
}
