/**
 * The shapes of the cause finder: what a cause says (one sentence in the cluster's own words,
 * the objects that show it, since when, and the ownership path that leads to it) and the narrow,
 * read-only view of the cache and recent Events it reads. The view names no engine module, so the
 * object cache, the graph's live index or a test's list of objects can all back it.
 */
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { SlimObject } from '../../../shared/cluster.ts';

/** What keeps an object from converging. */
export type CauseCode =
  | 'image-pull'
  | 'invalid-image'
  | 'crash-loop'
  | 'container-waiting'
  | 'pod-failed'
  | 'unschedulable'
  | 'node-not-ready'
  | 'create-refused'
  | 'readiness-probe'
  | 'pvc-pending'
  | 'hpa-metrics'
  | 'hpa-target'
  | 'rollout-paused'
  | 'progress-deadline'
  | 'job-backoff-limit'
  | 'job-failed'
  | 'condition'
  | 'not-ready'
  | 'not-in-cache';

/** An object as a cause links to it. */
export interface ObjectLink {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  uid: string;
}

/** One object showing a cause, and what it shows (the kubelet's message, the condition...). */
export interface Evidence extends ObjectLink {
  detail: string;
}

/** Why an object does not converge: one sentence, its evidence, since when, and the way to it. */
export interface Cause {
  code: CauseCode;
  /** One sentence, quoting the kubelet's, scheduler's or controller's words verbatim. */
  sentence: string;
  /** The objects that show it: pods, their node, a ReplicaSet, a PVC, an HPA. */
  evidence: Evidence[];
  /** When it started (ms since the epoch), when the cluster says: a condition's transition, an Event's first time. */
  since?: number;
  /** The ownership path from the object asked about down to the object the cause sits on. */
  chain: ObjectLink[];
  /**
   * Causes found further down, for a cause that is a controller's verdict: the leaf causes under
   * an exceeded progress deadline or a failed Job, the target's causes under an HPA, the owned
   * objects' causes under a custom resource.
   */
  underneath?: Cause[];
}

/** The causes of one drifting object, the headline first. */
export interface CauseReport {
  target: ObjectLink;
  causes: Cause[];
}

/**
 * What the finder reads: objects by uid, by owner, by node and by group/kind/namespace/name, and
 * the Events about an object. Read-only; the finder never keeps what it is given.
 */
export interface CauseView {
  get(uid: string): SlimObject | undefined;
  /** Objects that name `uid` in their ownerReferences. */
  dependents(uid: string): readonly SlimObject[];
  /** Pods whose spec.nodeName is `name`. */
  podsOnNode(name: string): readonly SlimObject[];
  /** One object by API group (`''` = core), kind, namespace (undefined: cluster-scoped) and name. */
  byName(group: string, kind: string, namespace: string | undefined, name: string): SlimObject | undefined;
  /** The Event objects (core/v1 or events.k8s.io/v1) whose involvedObject/regarding is `uid`. */
  eventsAbout(uid: string): readonly SlimObject[];
  /** Every object, for `findCauses` to pick the drifting ones from. */
  all(): Iterable<SlimObject>;
}

/** Options of `findCause` and `findCauses`. */
export interface FindOptions {
  /** Dates an Event that carries no time at all (ms since the epoch); the finder never reads the clock. */
  now?: number;
  /** The user's status rules (Settings): a custom kind's state is theirs before the built-in table's. */
  userRules?: readonly UserStatusRule[];
}
