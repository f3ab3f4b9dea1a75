/**
 * The cause finder's entry points: the causes of one object, and of every drifting object of a
 * view in one pass (each pod diagnosed once, however many owners and HPAs lead to it). Pure over
 * the view: the same objects and Events give the same causes.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { withCounts } from './counts.ts';
import { GK, groupOf, isKind, linkOf } from './objects.ts';
import { createContext, type FinderContext } from './pods.ts';
import type { Cause, CauseReport, CauseView, FindOptions } from './types.ts';
import { isDrifting, walk } from './walk.ts';

function causesWith(target: SlimObject, context: FinderContext): Cause[] {
  const chain = [linkOf(target)];
  return withCounts(target, walk(target, chain, context, new Set()), chain, context);
}

/**
 * Why `target` does not converge, the headline first; empty when nothing keeps it from its
 * desired state. Any object works: a workload, an HPA, a custom resource, a pod or a node.
 */
export function findCause(target: SlimObject, view: CauseView, options: FindOptions = {}): Cause[] {
  return causesWith(target, createContext(view, options.now ?? 0, options.userRules));
}

/** A ReplicaSet its Deployment in the view reports for (the Deployment names the same pods). */
function reportedByDeployment(object: SlimObject, view: CauseView): boolean {
  if (!isKind(object, GK.ReplicaSet)) return false;
  const owner = object.metadata.ownerReferences?.find((ref) => ref.controller === true);
  if (!owner || owner.kind !== GK.Deployment.kind || groupOf(owner.apiVersion) !== GK.Deployment.group) return false;
  return view.byName(GK.Deployment.group, GK.Deployment.kind, object.metadata.namespace, owner.name)?.metadata.uid === owner.uid;
}

/**
 * The causes of every drifting object in `view` (built-in workloads by the Overview's rule, HPAs
 * that cannot scale, custom resources by the one status rule), in the view's order. A ReplicaSet
 * whose Deployment is in the view is left to the Deployment's report.
 */
export function findCauses(view: CauseView, options: FindOptions = {}): CauseReport[] {
  const context = createContext(view, options.now ?? 0, options.userRules);
  const reports: CauseReport[] = [];
  for (const object of view.all()) {
    if (!isDrifting(object, context.userRules) || reportedByDeployment(object, view)) continue;
    reports.push({ target: linkOf(object), causes: causesWith(object, context) });
  }
  return reports;
}
