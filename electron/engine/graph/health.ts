/**
 * How each object in the graph is doing, in the graph's four colours (ready, progressing,
 * drifting, failing, plus neutral and unknown) and one or two short lines. Workloads use the
 * Overview's own rule (shared/workload-status.ts), pods kubectl's STATUS (shared/kube-status.ts),
 * custom resources the one status rule (shared/object-status.ts), so the graph never disagrees
 * with the tables about what drifts. What pods use (ConfigMaps, Secrets, claims, ServiceAccounts)
 * says how many pods use it.
 */
import { BUILTIN_KEYS, BUILTIN_RESOLVER, LEGACY_KIND_KEYS, type KindResolver } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { findCondition, readConditions } from '../../../shared/conditions.ts';
import type { GraphFlag, GraphHealth } from '../../../shared/contracts/graph.ts';
import { nodeRoles, podStatus, podTone, type PodStatusSummary, type PodStatusView } from '../../../shared/kube-status.ts';
import { isWorkloadKind, workloadState, type Tone } from '../../../shared/workload-status.ts';
import { builtinNameOf, isKind, usedKeyOf, USED_KEYS } from './kinds.ts';
import { nodeNameOf, ownersOf, scaleTargetOf, serviceSelector, type GraphIndex } from './objects.ts';
import { describeByStatus } from './status.ts';

export interface Description {
  health: GraphHealth;
  status: string;
  detail?: string;
  flags: GraphFlag[];
}

/** Labels only controllers put on what they create: without a controller owner, the object was orphaned. */
const CONTROLLER_LABELS = ['pod-template-hash', 'controller-revision-hash', 'job-name', 'batch.kubernetes.io/job-name', 'batch.kubernetes.io/controller-uid', 'controller-uid'];

/**
 * Whether a reference names a watched kind, by group and kind: one `resolver` knows (the built-in
 * kinds, and those the cache holds), Events aside. An owner of such a kind that is not in the
 * cache is dangling; of any other kind, external. A reference without an apiVersion (an HPA's
 * scaleTargetRef may leave it out) is read by its kind name among the built-in kinds.
 */
export function isWatchedKind(ref: { apiVersion?: string | undefined; kind: string }, resolver: KindResolver = BUILTIN_RESOLVER): boolean {
  const key = ref.apiVersion === undefined ? LEGACY_KIND_KEYS[ref.kind] : resolver.keyOf(ref.apiVersion, ref.kind);
  return key !== undefined && key !== BUILTIN_KEYS.Event;
}

const TONE_HEALTH: Record<Tone, GraphHealth> = { ok: 'ready', pending: 'progressing', warning: 'drifting', danger: 'failing', neutral: 'neutral' };

/** "ghcr.io/acme/catalog:v5.1.0" -> "catalog:v5.1.0". */
export function shortImage(image: string): string {
  const slash = image.lastIndexOf('/');
  return slash >= 0 ? image.slice(slash + 1) : image;
}

function templateImage(object: SlimObject): string | undefined {
  const spec = (object as { spec?: { template?: { spec?: { containers?: Array<{ image?: unknown }> } }; jobTemplate?: { spec?: { template?: { spec?: { containers?: Array<{ image?: unknown }> } } } } } }).spec;
  const containers = spec?.template?.spec?.containers ?? spec?.jobTemplate?.spec?.template?.spec?.containers ?? [];
  const image = containers[0]?.image;
  return typeof image === 'string' ? shortImage(image) + (containers.length > 1 ? ` +${containers.length - 1}` : '') : undefined;
}

const join = (...parts: Array<string | undefined | false>): string | undefined => {
  const text = parts.filter((part): part is string => typeof part === 'string' && part !== '').join(' · ');
  return text === '' ? undefined : text;
};

/**
 * A pod's kubectl STATUS and tone, computed once per pod version: a pod is read by its own
 * node, its Services and its owners' health. Slim objects are replaced, never changed, on update.
 */
const podSummaries = new WeakMap<SlimObject, { status: PodStatusSummary; tone: Tone }>();

function podSummary(pod: SlimObject): { status: PodStatusSummary; tone: Tone } {
  let summary = podSummaries.get(pod);
  if (!summary) {
    const status = podStatus(pod as unknown as PodStatusView);
    summary = { status, tone: podTone(status.reason, status.ready, status.total) };
    podSummaries.set(pod, summary);
  }
  return summary;
}

/** Whether pods under `object` (its own, or its ReplicaSets' and Jobs') are still starting. */
function hasStartingPods(object: SlimObject, index: GraphIndex): boolean {
  for (const child of index.dependents(object.metadata.uid)) {
    if (isKind(child, 'Pod')) {
      if (podSummary(child).tone === 'pending') return true;
    } else if ((isKind(child, 'ReplicaSet') || isKind(child, 'Job')) && hasStartingPods(child, index)) return true;
  }
  return false;
}

function describeWorkload(object: SlimObject, index: GraphIndex): Description {
  const state = workloadState(object);
  const { counts } = state;
  let health = TONE_HEALTH[state.tone];
  // A rollout or a scale is the controller at work: progressing, though desired != ready. So is
  // a workload whose missing replicas are pods still starting (pulling, creating): the Overview
  // calls it drifting, and it is, but the graph tells waiting apart from stuck.
  if (state.tone === 'pending') health = 'progressing';
  else if (state.drift?.severity === 'danger') health = 'failing';
  else if (state.drift) health = hasStartingPods(object, index) ? 'progressing' : 'drifting';
  const ready = counts.desired !== null && counts.ready !== null ? (isKind(object, 'Job') ? `${counts.ready}/${counts.desired} done` : `${counts.ready}/${counts.desired} ready`) : undefined;
  const schedule = isKind(object, 'CronJob') ? (object as { spec?: { schedule?: string } }).spec?.schedule : undefined;
  return { health, status: state.status, detail: join(ready, schedule, templateImage(object)), flags: [] };
}

function describePod(object: SlimObject): Description {
  const { status, tone } = podSummary(object);
  const health = TONE_HEALTH[tone];
  const restarts = status.restarts > 0 ? `${status.restarts} ${status.restarts === 1 ? 'restart' : 'restarts'}` : undefined;
  return { health, status: status.reason || 'Unknown', detail: join(`${status.ready}/${status.total}`, restarts, nodeNameOf(object) ?? 'unscheduled'), flags: [] };
}

function describeNode(object: SlimObject): Description {
  const conditions = readConditions((object as { status?: { conditions?: unknown } }).status);
  const ready = findCondition(conditions, 'Ready');
  const unschedulable = (object as { spec?: { unschedulable?: boolean } }).spec?.unschedulable === true;
  const roles = nodeRoles(object.metadata.labels);
  const detail = roles === '<none>' ? undefined : roles;
  if (!ready) return { health: 'unknown', status: 'Unknown', ...(detail ? { detail } : {}), flags: [] };
  if (ready.status !== 'True') return { health: 'failing', status: ready.status === 'Unknown' ? 'NotReady (unreachable)' : 'NotReady', ...(detail ? { detail } : {}), flags: [] };
  return unschedulable ? { health: 'drifting', status: 'Ready,SchedulingDisabled', ...(detail ? { detail } : {}), flags: [] } : { health: 'ready', status: 'Ready', ...(detail ? { detail } : {}), flags: [] };
}

function describeService(object: SlimObject, index: GraphIndex): Description {
  const spec = (object as { spec?: { type?: string; clusterIP?: string; ports?: Array<{ port?: number }> } }).spec ?? {};
  const ports = (spec.ports ?? []).map((port) => port.port).filter((port) => port !== undefined);
  const detail = join(spec.type ?? 'ClusterIP', ports.length > 0 ? ports.join(',') : undefined);
  if (!serviceSelector(object)) return { health: 'neutral', status: 'No selector', ...(detail ? { detail } : {}), flags: [] };
  const pods = index.selectedPods(object).filter((pod) => !pod.metadata.deletionTimestamp);
  if (pods.length === 0) return { health: 'drifting', status: 'Selects no pods', ...(detail ? { detail } : {}), flags: ['selects-nothing'] };
  let ready = 0;
  for (const pod of pods) {
    const { status } = podSummary(pod);
    if (status.reason === 'Running' && status.ready === status.total) ready += 1;
  }
  const health: GraphHealth = ready === pods.length ? 'ready' : ready === 0 ? 'failing' : 'drifting';
  return { health, status: `${ready}/${pods.length} ${pods.length === 1 ? 'pod' : 'pods'} ready`, ...(detail ? { detail } : {}), flags: [] };
}

function describeHpa(object: SlimObject, index: GraphIndex): Description {
  const hpa = object as { spec?: { minReplicas?: number; maxReplicas?: number }; status?: { currentReplicas?: number; desiredReplicas?: number; conditions?: unknown } };
  const range = `min ${hpa.spec?.minReplicas ?? 1} · max ${hpa.spec?.maxReplicas ?? '?'}`;
  const target = scaleTargetOf(object);
  if (!target || !index.byName(object.metadata.namespace, target.kind, target.name)) {
    return { health: 'failing', status: target ? `${target.kind} ${target.name} not found` : 'No scale target', detail: range, flags: ['missing-target'] };
  }
  const current = hpa.status?.currentReplicas ?? 0;
  const desired = hpa.status?.desiredReplicas ?? current;
  const conditions = readConditions(hpa.status);
  const blocked = ['AbleToScale', 'ScalingActive'].map((type) => findCondition(conditions, type)).find((condition) => condition?.status === 'False');
  if (blocked) return { health: 'failing', status: `${blocked.type}=False${blocked.reason ? `: ${blocked.reason}` : ''}`, detail: range, flags: [] };
  if (current !== desired) return { health: 'progressing', status: `Scaling ${current} → ${desired}`, detail: range, flags: [] };
  return { health: 'ready', status: `${current} ${current === 1 ? 'replica' : 'replicas'}`, detail: range, flags: [] };
}

/** An ownerReference names an object of a watched kind that is not in the cluster. */
export function hasDanglingOwner(object: SlimObject, index: GraphIndex): boolean {
  // The owner first: memoised per reference, and found for nearly every object.
  return ownersOf(object).some((owner) => !index.owner(owner) && isWatchedKind(owner, index.resolver));
}

/** No owner, though a controller's labels say one made it (a Pod, ReplicaSet or Job). */
export function isOrphan(object: SlimObject): boolean {
  if (ownersOf(object).length > 0 || !(isKind(object, 'Pod') || isKind(object, 'ReplicaSet') || isKind(object, 'Job'))) return false;
  const labels = object.metadata.labels ?? {};
  return CONTROLLER_LABELS.some((label) => labels[label] !== undefined);
}

function ownershipFlags(object: SlimObject, index: GraphIndex): GraphFlag[] {
  const flags: GraphFlag[] = [];
  if (hasDanglingOwner(object, index)) flags.push('dangling-owner');
  if (isOrphan(object)) flags.push('orphan');
  else if (isKind(object, 'Pod') && ownersOf(object).length === 0) flags.push('unmanaged');
  if (object.metadata.deletionTimestamp) flags.push('deleting');
  return flags;
}

/** A pod's health alone: what a group counts, without the card's lines. */
export function podHealth(pod: SlimObject): GraphHealth {
  return TONE_HEALTH[podSummary(pod).tone];
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * A ConfigMap, Secret or ServiceAccount (metadata only: nothing to be healthy about, so neutral)
 * or a claim (by its phase), with the pods using it.
 */
function describeUsed(object: SlimObject, index: GraphIndex): Description {
  const users = index.usersOf(object).length;
  const used = users > 0 ? `used by ${plural(users, 'pod')}` : 'used by no pod';
  if (usedKeyOf(object) !== USED_KEYS.PersistentVolumeClaim) return { health: 'neutral', status: used.replace(/^u/, 'U'), flags: [] };
  const claim = object as { spec?: { storageClassName?: unknown }; status?: { phase?: unknown; capacity?: { storage?: unknown } } };
  const phase = typeof claim.status?.phase === 'string' ? claim.status.phase : 'Pending';
  const health: GraphHealth = phase === 'Bound' ? 'ready' : phase === 'Lost' ? 'failing' : 'drifting';
  const size = typeof claim.status?.capacity?.storage === 'string' ? claim.status.capacity.storage : undefined;
  const storageClass = typeof claim.spec?.storageClassName === 'string' ? claim.spec.storageClassName : undefined;
  return { health, status: phase, detail: join(size, storageClass, used) as string, flags: [] };
}

/** The health, status lines and flags of one object. */
export function describeObject(object: SlimObject, index: GraphIndex): Description {
  let description: Description;
  const name = builtinNameOf(object);
  if (name !== undefined && isWorkloadKind(name)) description = describeWorkload(object, index);
  else if (name === 'Pod') description = describePod(object);
  else if (name === 'Node') description = describeNode(object);
  else if (name === 'Service') description = describeService(object, index);
  else if (name === 'HorizontalPodAutoscaler') description = describeHpa(object, index);
  else if (usedKeyOf(object) !== undefined) description = describeUsed(object, index);
  else description = describeByStatus(object, { userRules: index.userRules });
  const flags = [...description.flags, ...ownershipFlags(object, index)];
  return { ...description, flags };
}

/** A pod's status.phase, for the group counts ("Unknown" when absent). */
export function podPhase(pod: SlimObject): string {
  const phase = (pod as { status?: { phase?: unknown } }).status?.phase;
  return typeof phase === 'string' && phase !== '' ? phase : 'Unknown';
}
