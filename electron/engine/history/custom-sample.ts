/**
 * What the history records of a custom resource (a cert-manager Certificate, a Flux
 * Kustomization, the demo's Database): the generic status rule (shared/object-status.ts) says
 * where it stands, and its counts are kept where it has them.
 *
 * | field                | read from                                                        |
 * |----------------------|------------------------------------------------------------------|
 * | desired              | the scale subresource's specReplicasPath when known, else spec.replicas |
 * | current              | the scale subresource's statusReplicasPath when known, else status.replicas |
 * | ready                | status.readyReplicas                                             |
 * | available / updated  | status.availableReplicas / status.updatedReplicas                |
 * | generation / observedGeneration | metadata.generation / status.observedGeneration (as the status rule reads it) |
 * | availableCondition   | the Ready condition's status                                     |
 * | state                | the status rule's state                                          |
 * | progressingReason    | the status rule's reason (the deciding condition's own reason)   |
 *
 * A count the resource does not report stays null (no false zero); a resource without any is
 * recorded by its state transitions alone. Only objects that carry a `status` are recorded: a
 * custom resource no controller has written to yet has nothing to compare with its spec.
 *
 * The drift of a custom resource is its state: `unobserved` -> `generation`, `progressing` ->
 * `progressing`, `failed` -> `stalled`, `drifting` -> `ready`; and, while it is not converged,
 * `ready` too when its ready count differs from the desired one. Terminating, suspended,
 * current and "no status signal" are not drift.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { DriftReason } from '../../../shared/contracts/history.ts';
import type { ObjectState } from '../../../shared/contracts/status-rules.ts';
import { KIND_KEY_PATTERN, parseKindKey } from '../../../shared/kinds.ts';
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import { objectStatus, type ObjectStatus } from '../../../shared/object-status.ts';
import { BUILT_IN_GROUPS } from '../cluster/discovery/modes.ts';
import type { Drift } from './drift.ts';
import { EMPTY_VALUES, type SampleValues } from './sample-codec.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const int = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null);

/** Kind keys already classified: the recorder asks once per object change. */
const customKinds = new Map<string, boolean>();

/**
 * Whether `key` names a kind outside the groups Kubernetes serves itself: a custom resource (or
 * an aggregated API's kind), even in a `*.k8s.io` group such as gateway.networking.k8s.io.
 */
export function isCustomKind(key: string): boolean {
  let custom = customKinds.get(key);
  if (custom === undefined) {
    // A malformed key (never from the cache, which holds discovered kinds) is nobody's custom kind.
    custom = KIND_KEY_PATTERN.test(key) && key.includes('.') && !BUILT_IN_GROUPS.has(parseKindKey(key).group);
    customKinds.set(key, custom);
  }
  return custom;
}

/**
 * Where a CRD's scale subresource reads replicas (`spec.versions[].subresources.scale`): JSON
 * paths without array notation, as the API server requires (`.spec.replicas`, `.status.size`).
 */
export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
}

/** The value at a scale subresource path such as `.spec.members.count` (undefined when absent). */
export function valueAt(object: unknown, path: string): unknown {
  if (!path.startsWith('.')) return undefined;
  let at: unknown = object;
  for (const field of path.slice(1).split('.')) {
    if (!isObject(at)) return undefined;
    at = at[field];
  }
  return at;
}

/** A custom resource's recorded values and the verdict they came from. */
export interface CustomReading {
  values: SampleValues;
  status: ObjectStatus;
}

function readyStatus(status: Json): SampleValues['availableCondition'] {
  const conditions = Array.isArray(status['conditions']) ? status['conditions'] : [];
  for (const condition of conditions) {
    if (!isObject(condition) || condition['type'] !== 'Ready') continue;
    const value = condition['status'];
    return value === 'True' || value === 'False' || value === 'Unknown' ? value : null;
  }
  return null;
}

/**
 * The reading of a custom resource, or null when it carries no status to read; `scale` when its
 * CRD declares a scale subresource, `userRules` the user's status rules (Settings), read before
 * the built-in ones as every other view reads them.
 */
export function customReading(object: SlimObject, scale?: ScalePaths, userRules?: readonly UserStatusRule[]): CustomReading | null {
  const status = object['status'];
  if (!isObject(status) || Object.keys(status).length === 0) return null;
  const spec = isObject(object['spec']) ? object['spec'] : {};
  const verdict = objectStatus(object, userRules && userRules.length > 0 ? { userRules } : {});
  return {
    status: verdict,
    values: {
      ...EMPTY_VALUES,
      desired: int(scale ? valueAt(object, scale.specReplicasPath) : spec['replicas']),
      current: int(scale ? valueAt(object, scale.statusReplicasPath) : status['replicas']),
      ready: int(status['readyReplicas']),
      available: int(status['availableReplicas']),
      updated: int(status['updatedReplicas']),
      generation: verdict.generation ?? null,
      observedGeneration: verdict.observedGeneration ?? null,
      availableCondition: readyStatus(status),
      progressingReason: verdict.reason,
      state: verdict.state,
    },
  };
}

const STATE_REASONS: Partial<Record<ObjectState, DriftReason>> = { unobserved: 'generation', progressing: 'progressing', failed: 'stalled', drifting: 'ready' };

/** A custom resource's drift, from its recorded values (see the file comment). */
export function customDrift(values: SampleValues): Drift {
  const reason = values.state ? STATE_REASONS[values.state] : undefined;
  if (!reason) return { reasons: [], gap: 0 };
  const counted = values.desired !== null && values.ready !== null;
  const reasons: DriftReason[] = counted && values.ready !== values.desired && reason !== 'ready' ? [reason, 'ready'] : [reason];
  return { reasons, gap: counted ? Math.abs((values.desired ?? 0) - (values.ready ?? 0)) : 0 };
}

/**
 * Whether a custom resource's change of `generation` is over: its controller observed it (or
 * reports no observedGeneration at all) and the resource converged. A stalled one stays open,
 * as a Deployment's rollout past its progress deadline does.
 */
export function customRolloutComplete(values: SampleValues, generation: number): boolean {
  const observed = values.observedGeneration;
  if (observed !== null && observed < generation) return false;
  return values.state === 'current' || values.state === 'none' || values.state === 'suspended';
}

/** How bad a state is, for the one an episode keeps: a controller that gave up beats a lag. */
export const STATE_SEVERITY: Readonly<Record<ObjectState, number>> = { failed: 3, drifting: 2, progressing: 1, unobserved: 1, terminating: 0, suspended: 0, current: 0, none: 0 };
