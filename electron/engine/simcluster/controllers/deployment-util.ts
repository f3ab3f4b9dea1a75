/**
 * Deployment arithmetic and bookkeeping as upstream's deploymentutil has it: spec defaults,
 * maxSurge/maxUnavailable fenceposts, the pod-template-hash, revision and replicas annotations,
 * and ReplicaSet ordering.
 */
import type { KubeObject } from '../types.ts';
import type { PodTemplate } from './pods.ts';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
/** Upstream's limit on the revision-history annotation's length. */
const MAX_REVISION_HISTORY_CHARS = 2000;

/** Annotations of a Deployment that are not copied onto its ReplicaSets. */
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

type IntOrPercent = number | string;

/** A Deployment's spec with the API's defaults filled in. */
export interface DeploymentSpecView {
  replicas: number;
  strategy: 'RollingUpdate' | 'Recreate';
  maxSurge: IntOrPercent;
  maxUnavailable: IntOrPercent;
  minReadySeconds: number;
  revisionHistoryLimit: number;
  /** Undefined when explicitly unset (no progress tracking). */
  progressDeadlineSeconds: number | undefined;
  paused: boolean;
  selector: { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> };
  template: PodTemplate;
}

export function deploymentSpec(d: KubeObject): DeploymentSpecView {
  const spec = (d['spec'] as Record<string, unknown> | undefined) ?? {};
  const strategy = (spec['strategy'] as { type?: string; rollingUpdate?: { maxSurge?: IntOrPercent; maxUnavailable?: IntOrPercent } } | undefined) ?? {};
  const recreate = strategy.type === 'Recreate';
  return {
    replicas: typeof spec['replicas'] === 'number' ? spec['replicas'] : 1,
    strategy: recreate ? 'Recreate' : 'RollingUpdate',
    maxSurge: recreate ? 0 : (strategy.rollingUpdate?.maxSurge ?? '25%'),
    maxUnavailable: recreate ? 0 : (strategy.rollingUpdate?.maxUnavailable ?? '25%'),
    minReadySeconds: Number(spec['minReadySeconds'] ?? 0),
    revisionHistoryLimit: Number(spec['revisionHistoryLimit'] ?? 10),
    progressDeadlineSeconds: spec['progressDeadlineSeconds'] === undefined ? 600 : (spec['progressDeadlineSeconds'] as number | null) ?? undefined,
    paused: spec['paused'] === true,
    selector: (spec['selector'] as DeploymentSpecView['selector'] | undefined) ?? {},
    template: (spec['template'] as PodTemplate | undefined) ?? {},
  };
}

/** intstr.GetScaledValueFromIntOrPercent: percentages of `total`, rounded up or down. */
export function scaledValue(value: IntOrPercent, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value.trim());
  if (!m) return Number.parseInt(value, 10) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** deploymentutil.ResolveFenceposts: surge rounds up, unavailable down; never both zero. */
export function resolveFenceposts(spec: DeploymentSpecView): { surge: number; unavailable: number } {
  const surge = scaledValue(spec.maxSurge, spec.replicas, true);
  let unavailable = scaledValue(spec.maxUnavailable, spec.replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(spec: DeploymentSpecView): number {
  return spec.strategy === 'RollingUpdate' ? resolveFenceposts(spec).surge : 0;
}

export function maxUnavailable(spec: DeploymentSpecView): number {
  if (spec.strategy !== 'RollingUpdate' || spec.replicas === 0) return 0;
  return Math.min(resolveFenceposts(spec).unavailable, spec.replicas);
}

/** JSON with sorted keys and empty maps/lists dropped: Semantic.DeepEqual's view of "same". */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = canonical((value as Record<string, unknown>)[key]);
      if (v !== undefined && v !== null) out[key] = v;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * controller.ComputeHash: FNV-32a of the template, its decimal form passed through
 * rand.SafeEncodeString, giving the familiar `7d9c5b8f4c`-style suffix. A `collisionCount`
 * (after a name collision) is hashed in too, as 8 little-endian bytes the way upstream writes
 * it; 0 hashes as none, so a set's names stay put when its status first says 0.
 */
export function podTemplateHash(template: PodTemplate, collisionCount = 0): string {
  const text = JSON.stringify(canonical(template) ?? {});
  let hash = 0x811c9dc5;
  const bytes = Buffer.from(text, 'utf8');
  const probe = Buffer.alloc(collisionCount > 0 ? 8 : 0);
  if (collisionCount > 0) probe.writeUInt32LE(collisionCount >>> 0, 0);
  for (const byte of Buffer.concat([bytes, probe])) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  let out = '';
  for (const ch of String(hash)) out += SAFE_ALPHABET[ch.charCodeAt(0) % SAFE_ALPHABET.length];
  return out;
}

/** Templates equal once the pod-template-hash label is ignored (EqualIgnoreHash). */
export function equalIgnoreHash(a: PodTemplate, b: PodTemplate): boolean {
  const strip = (t: PodTemplate): unknown => {
    const labels = { ...(t.metadata?.labels ?? {}) };
    delete labels[POD_TEMPLATE_HASH_LABEL];
    return canonical({ ...t, metadata: { ...(t.metadata ?? {}), labels } });
  };
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

/** `spec.replicas` of a ReplicaSet (API default 1). */
export function rsSpecReplicas(rs: KubeObject): number {
  const replicas = (rs['spec'] as { replicas?: number } | undefined)?.replicas;
  return typeof replicas === 'number' ? replicas : 1;
}

/** A numeric `status` field of a ReplicaSet (0 when absent, as omitempty drops zeros). */
export function rsStatus(rs: KubeObject, field: 'replicas' | 'readyReplicas' | 'availableReplicas' | 'fullyLabeledReplicas' | 'observedGeneration'): number {
  return Number((rs['status'] as Record<string, unknown> | undefined)?.[field] ?? 0);
}

export function revisionOf(rs: KubeObject): number {
  return Number.parseInt(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '0', 10) || 0;
}

function byCreation(a: KubeObject, b: KubeObject): number {
  const ta = a.metadata.creationTimestamp;
  const tb = b.metadata.creationTimestamp;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/** Oldest first (controller.ReplicaSetsByCreationTimestamp). */
export function sortByCreation(list: KubeObject[]): KubeObject[] {
  return [...list].sort(byCreation);
}

/** Lowest revision first (deploymentutil.ReplicaSetsByRevision). */
export function sortByRevision(list: KubeObject[]): KubeObject[] {
  return [...list].sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
}

/** Copies the Deployment's own annotations onto the ReplicaSet; returns whether any changed. */
function copyDeploymentAnnotations(d: KubeObject, annotations: Record<string, string>): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(d.metadata.annotations ?? {})) {
    if (NOT_COPIED.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  return changed;
}

/** Sets desired-replicas / max-replicas; returns whether they changed. */
export function setReplicasAnnotations(annotations: Record<string, string>, desired: number, max: number): boolean {
  let changed = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    changed = true;
  }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    annotations[MAX_REPLICAS_ANNOTATION] = String(max);
    changed = true;
  }
  return changed;
}

/**
 * deploymentutil.SetNewReplicaSetAnnotations on a mutable annotations map: copies the
 * Deployment's annotations, raises the revision (keeping the old one in revision-history when
 * an existing ReplicaSet is rolled back to), and on creation sets the replicas annotations.
 */
export function setNewReplicaSetAnnotations(d: KubeObject, annotations: Record<string, string>, newRevision: number, options: { exists: boolean }): boolean {
  let changed = copyDeploymentAnnotations(d, annotations);
  const oldText = annotations[REVISION_ANNOTATION];
  const oldRevision = Number.parseInt(oldText ?? '0', 10) || 0;
  if (oldRevision < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (oldText !== undefined) {
      const history = annotations[REVISION_HISTORY_ANNOTATION];
      const entries = history ? [...history.split(','), oldText] : [oldText];
      while (entries.join(',').length > MAX_REVISION_HISTORY_CHARS && entries.length > 1) entries.shift();
      annotations[REVISION_HISTORY_ANNOTATION] = entries.join(',');
    }
  }
  if (!options.exists) {
    const spec = deploymentSpec(d);
    if (setReplicasAnnotations(annotations, spec.replicas, spec.replicas + maxSurge(spec))) changed = true;
  }
  return changed;
}
