/**
 * Per-kind status rules as data: what a rule table entry may test and what it concludes. One
 * interpreter (interpret.ts) reads them, so adding a kind is adding data, never a code branch.
 */
import type { ConditionStatus, ObjectState } from '../contracts/status-rules.ts';

/**
 * What the status rules read: any Kubernetes object in its JSON shape. Only apiVersion, kind,
 * metadata.generation / deletionTimestamp / finalizers, spec and status are looked at.
 */
export interface StatusSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly generation?: number; readonly deletionTimestamp?: string; readonly finalizers?: unknown };
  readonly spec?: unknown;
  readonly status?: unknown;
}

/** A state and the words that explain it. */
export interface Verdict {
  state: ObjectState;
  /** A short reason, the cluster's own when it gave one (a condition's reason, a phase). */
  reason: string;
  /** The cluster's message when it gave one, verbatim; '' when it said nothing more. */
  message: string;
}

/** A value a field test compares with. */
export type Scalar = string | number | boolean;

/**
 * One test on an object. Field paths are dotted (`spec.suspend`, `status.phase`). A field is
 * `present` when it is set and, for objects and lists, not empty: `status: {}` is no status.
 */
export type StatusTest =
  /** The last condition of `condition`'s type exists, with one of `status` and one of `reason` when given. */
  | { readonly condition: string; readonly status?: readonly ConditionStatus[]; readonly reason?: readonly string[] }
  | { readonly field: string; readonly equals: Scalar }
  | { readonly field: string; readonly oneOf: readonly Scalar[] }
  | { readonly field: string; readonly present: boolean }
  /** The object's kind is one of these (for group-wide rules with per-kind exceptions). */
  | { readonly kindIn: readonly string[] }
  /**
   * `false` matches when the controller has not observed the spec: no status at all, or a
   * numeric status.observedGeneration (a number or a numeric string) other than
   * metadata.generation. A non-numeric one (old Argo Rollouts wrote a hash) counts as observed.
   */
  | { readonly generationObserved: boolean }
  | { readonly allOf: readonly StatusTest[] }
  | { readonly anyOf: readonly StatusTest[] };

/**
 * Where a verdict's words come from. By default they are the cluster's own: the reason and
 * message of the condition that made the test true, or the value of the field that did. Fixed
 * words stand in when the object says nothing (`{kind}` becomes the object's kind); a named
 * condition or message field, when present on the object, takes precedence over them.
 */
export interface StatusWords {
  readonly reason?: string;
  readonly message?: string;
  /** Take reason and message from this condition when the object has it. */
  readonly condition?: string;
  /** Take the message from this field when it is a non-empty string (Argo Rollouts' status.message). */
  readonly messageField?: string;
}

/** When `when` holds, the object is in `state`. */
export interface StatusMatcher {
  readonly when: StatusTest;
  readonly state: ObjectState;
  readonly say?: StatusWords;
}

/**
 * The rule for one or more kinds, e.g. `cert-manager.io/Certificate` or `*.crossplane.io/*`.
 * Its matchers are tried in order and the first that holds decides; when none does, `otherwise`
 * decides, and without `otherwise` the generic checks (Stalled, Reconciling, built-in kinds,
 * Ready) go on as if the kind had no rule.
 */
export interface KindRule {
  /** `group/Kind` patterns: the group exact, "" or "core" for the core group, `*.domain` or `*`; the kind exact or `*`. */
  readonly kinds: readonly string[];
  /** Where the rule comes from, for the reader (an Argo CD health check, Flux's docs, kstatus). */
  readonly source: string;
  readonly matchers: readonly StatusMatcher[];
  readonly otherwise?: { readonly state: ObjectState; readonly say: StatusWords };
}
