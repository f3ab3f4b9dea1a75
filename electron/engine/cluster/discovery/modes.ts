/**
 * How each discovered kind is watched. The rule is data, the same for built-in and custom kinds:
 * a kind that carries status (a status subresource, or a `status` in a CRD's schema) is watched
 * in full, because its desired-vs-actual state is what the views show; a kind without status is
 * only a graph node and is watched as metadata (PartialObjectMetadata), so its contents (Secret
 * values above all) never reach the engine. A few kinds override the rule (MODE_OVERRIDES), and a
 * custom resource whose schema is unknown is watched in full rather than risk hiding its status.
 */
import type { KindMode } from '../../../../shared/discovery.ts';
import { describeExclusion, findExclusion, type KindExclusion } from '../../../../shared/kind-exclusions.ts';
import type { ServedKind } from './resolve.ts';

/**
 * The groups Kubernetes itself serves (kube-apiserver and kube-aggregator, 1.20-1.33). Anything
 * else comes from a CustomResourceDefinition or an aggregated APIService, even when its name ends
 * in `.k8s.io` (gateway.networking.k8s.io, snapshot.storage.k8s.io, metrics.k8s.io).
 */
export const BUILT_IN_GROUPS: ReadonlySet<string> = new Set([
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'extensions',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/** A kind whose mode the status rule would get wrong, and why. */
export interface ModeOverride {
  group: string;
  kind: string;
  mode: 'full' | 'metadata';
  why: string;
}

/** Kinds whose content decides, not their status. */
export const MODE_OVERRIDES: readonly ModeOverride[] = [
  { group: '', kind: 'Event', mode: 'full', why: 'Events are read whole: their reason, message and reporting controller are what the views show.' },
  { group: 'events.k8s.io', kind: 'Event', mode: 'full', why: 'Events are read whole: their reason, note and reporting controller are what the views show.' },
  { group: '', kind: 'Secret', mode: 'metadata', why: 'Watched as metadata only, so Secret values never reach Kubedrift.' },
  { group: '', kind: 'ConfigMap', mode: 'metadata', why: 'Watched as metadata only: a graph node whose data no view reads.' },
  { group: '', kind: 'ServiceAccount', mode: 'metadata', why: 'Watched as metadata only: a graph node whose contents no view reads.' },
  // Its `revision` dates a StatefulSet's or DaemonSet's rollouts (history backfill); slimming keeps it and drops `data`.
  { group: 'apps', kind: 'ControllerRevision', mode: 'full', why: 'ControllerRevisions are read for their revision number, without their data.' },
  {
    group: 'apiextensions.k8s.io',
    kind: 'CustomResourceDefinition',
    mode: 'metadata',
    why: 'Watched as metadata only: discovery reads their schemas itself, and 300 CRDs hold megabytes of schema no view shows.',
  },
];

/** The Accept header of a metadata-only list. No plain-JSON fallback: a server that cannot send metadata must not send Secrets whole. */
export const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** The Accept header of a metadata-only watch (each event's object is a PartialObjectMetadata). */
export const METADATA_WATCH_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/** The Accept header an informer of a kind in `mode` sends; plain JSON for full objects. */
export function acceptFor(mode: 'full' | 'metadata', request: 'list' | 'watch'): string {
  if (mode === 'full') return 'application/json';
  return request === 'list' ? METADATA_LIST_ACCEPT : METADATA_WATCH_ACCEPT;
}

/** What the mode rule knows beyond discovery. */
export interface ModeInputs {
  exclusions: readonly KindExclusion[];
  /** Kind key -> the access check's message, for kinds the user may not list or watch. */
  forbidden: ReadonlyMap<string, string>;
  /** Whether a CustomResourceDefinition for `key` is known (the CRD watch reported it). */
  isCrd: (key: string) => boolean;
  /** Whether the CRD's schema for `key` at `version` has a status (undefined: no CRD known, or no schema). */
  crdHasStatus: (key: string, version: string) => boolean | undefined;
}

/** A kind's mode, the reason when it is not watched in full, and whether it is custom. */
export interface ModeDecision {
  mode: KindMode;
  message?: string;
  custom: boolean;
}

/** The core Events the engine reads; events.k8s.io Events are the same stored objects. */
const CORE_EVENTS_KEY = 'events';
const EVENTS_V1_GROUP = 'events.k8s.io';

function isCustom(kind: ServedKind, inputs: ModeInputs): boolean {
  return !BUILT_IN_GROUPS.has(kind.ref.group) || inputs.isCrd(kind.key);
}

/** Whether the engine reads core Events, which makes events.k8s.io Events a duplicate view. */
function coreEventsRead(all: ReadonlyMap<string, ServedKind>, inputs: ModeInputs): boolean {
  const core = all.get(CORE_EVENTS_KEY);
  if (!core || core.unavailable !== undefined || !core.watchable || inputs.forbidden.has(CORE_EVENTS_KEY)) return false;
  return findExclusion(inputs.exclusions, { group: '', kind: core.ref.kind }) === undefined;
}

function contentMode(kind: ServedKind, custom: boolean, inputs: ModeInputs): { mode: 'full' | 'metadata'; message?: string } {
  const override = MODE_OVERRIDES.find((o) => o.group === kind.ref.group && o.kind === kind.ref.kind);
  if (override) return override.mode === 'full' ? { mode: 'full' } : { mode: 'metadata', message: override.why };
  if (kind.subresources.status) return { mode: 'full' };
  if (custom) {
    // No status subresource: the schema decides; without one, assume the resource reports status.
    if (inputs.crdHasStatus(kind.key, kind.ref.version) === false) return { mode: 'metadata', message: 'Watched as metadata only: its CustomResourceDefinition defines no status.' };
    return { mode: 'full' };
  }
  return { mode: 'metadata', message: 'Watched as metadata only: it carries no status, so it is only a graph node.' };
}

/**
 * The mode of one kind, first match wins: unavailable (its group version is down, or it cannot
 * be watched), excluded (a rule, or events.k8s.io Events while core Events are read), forbidden,
 * then full or metadata by the status rule.
 */
export function decideMode(kind: ServedKind, all: ReadonlyMap<string, ServedKind>, inputs: ModeInputs): ModeDecision {
  const custom = isCustom(kind, inputs);
  if (kind.unavailable !== undefined) return { mode: 'unavailable', message: kind.unavailable, custom };
  if (!kind.watchable) return { mode: 'unavailable', message: `The server lists ${kind.key} but does not serve watch for it, so it cannot be followed live.`, custom };
  const rule = findExclusion(inputs.exclusions, { group: kind.ref.group, kind: kind.ref.kind });
  if (rule) return { mode: 'excluded', message: `Excluded by the context's rule ${describeExclusion(rule)}.`, custom };
  if (kind.ref.group === EVENTS_V1_GROUP && kind.ref.kind === 'Event' && coreEventsRead(all, inputs)) {
    return { mode: 'excluded', message: 'The same objects as core v1 Events, which are watched.', custom };
  }
  const forbidden = inputs.forbidden.get(kind.key);
  if (forbidden !== undefined) return { mode: 'forbidden', message: forbidden, custom };
  return { ...contentMode(kind, custom, inputs), custom };
}
