/**
 * Slimming, before an object enters the cache: no managedFields, no last-applied annotation,
 * only the top-level fields a kind's views use (so Secret-like `data` never survives), pod
 * specs reduced (slim-pod.ts), node image lists dropped. Lists omit `kind` and `apiVersion` per
 * item; every slim object carries them. events.k8s.io/v1 Events take the core/v1 shape: both
 * APIs show the same stored object under the same uid, so the cache keeps one canonical form.
 */
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';
import type { KindKey, SlimObject } from '../../../../shared/cluster.ts';
import { pick, slimPodSpec, slimPodStatus, slimPodTemplate } from './slim-pod.ts';

type Json = Record<string, unknown>;

/** The API an object came from (its list or watch). */
export interface ObjectSource {
  /** The kind key. */
  kind: KindKey;
  /** The objects' Kubernetes kind (`Deployment`), written into each slim object. */
  objectKind: string;
  apiVersion: string;
  /**
   * The kind is read as metadata only (PartialObjectMetadata): the slim object is its metadata,
   * and anything but a PartialObjectMetadata from the server is refused rather than taken in.
   */
  metadataOnly?: boolean;
  /**
   * The objects reach no renderer (a background recorder's informers): the renderer's form of a
   * kind with one (stream/view.ts) is not made for them.
   */
  noView?: boolean;
}

/** Written by `kubectl apply`: a full copy of the manifest, often the largest part of an object. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** StatefulSets' and DaemonSets' template history (apps/v1 ControllerRevision). */
const CONTROLLER_REVISIONS = 'controllerrevisions.apps';

const METADATA_FIELDS = ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'generation', 'deletionTimestamp', 'labels', 'finalizers'];
const OWNER_FIELDS = ['apiVersion', 'kind', 'name', 'uid', 'controller'];

function slimMetadata(metadata: unknown): Json {
  if (!isObject(metadata)) return {};
  const out = pick(metadata, METADATA_FIELDS);
  if (isObject(metadata['annotations'])) {
    const { [LAST_APPLIED_ANNOTATION]: _lastApplied, ...annotations } = metadata['annotations'];
    if (Object.keys(annotations).length > 0) out['annotations'] = annotations;
  }
  if (Array.isArray(metadata['ownerReferences'])) out['ownerReferences'] = metadata['ownerReferences'].map((o: unknown) => (isObject(o) ? pick(o, OWNER_FIELDS) : {}));
  return out;
}

/** A workload spec with its pod template slimmed (`template`, or a CronJob's `jobTemplate`). */
function slimWorkloadSpec(spec: unknown): Json {
  if (!isObject(spec)) return {};
  const out: Json = { ...spec };
  if (spec['template'] !== undefined) out['template'] = slimPodTemplate(spec['template']);
  if (Array.isArray(spec['volumeClaimTemplates'])) {
    out['volumeClaimTemplates'] = spec['volumeClaimTemplates'].map((t: unknown) => ({ metadata: { name: isObject(t) && isObject(t['metadata']) ? t['metadata']['name'] : undefined } }));
  }
  const jobTemplate = spec['jobTemplate'];
  if (isObject(jobTemplate)) {
    out['jobTemplate'] = {
      metadata: isObject(jobTemplate['metadata']) ? pick(jobTemplate['metadata'], ['labels', 'annotations']) : {},
      spec: slimWorkloadSpec(jobTemplate['spec']),
    };
  }
  return out;
}

/** Node status without the image list and attached volumes, the bulk of a node's size. */
function slimNodeStatus(status: unknown): Json {
  if (!isObject(status)) return {};
  const { images: _images, volumesAttached: _attached, volumesInUse: _inUse, ...rest } = status;
  return rest;
}

/** core/v1 field <- events.k8s.io/v1 field, upstream's conversion (pkg/apis/events/v1). */
const EVENT_RENAMES: ReadonlyArray<[string, string]> = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['reportingComponent', 'reportingController'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];
const EVENT_FIELDS = ['involvedObject', 'related', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'series', 'action', 'reportingComponent', 'reportingInstance'];

/** An events.k8s.io/v1 Event in the core/v1 shape, exactly as the core API shows the same object. */
export function eventToCore(event: Json): Json {
  const out: Json = {};
  for (const field of ['related', 'reason', 'type', 'eventTime', 'series', 'action', 'reportingInstance']) if (event[field] !== undefined) out[field] = event[field];
  for (const [core, events] of EVENT_RENAMES) if (event[events] !== undefined) out[core] = event[events];
  return out;
}

function body(kind: KindKey, raw: Json, source: ObjectSource): Json {
  switch (kind) {
    case BUILTIN_KEYS.Pod:
      return { spec: slimPodSpec(raw['spec']), status: slimPodStatus(raw['status']) };
    case BUILTIN_KEYS.Deployment:
    case BUILTIN_KEYS.ReplicaSet:
    case BUILTIN_KEYS.StatefulSet:
    case BUILTIN_KEYS.DaemonSet:
    case BUILTIN_KEYS.Job:
    case BUILTIN_KEYS.CronJob:
      return { spec: slimWorkloadSpec(raw['spec']), status: raw['status'] };
    case BUILTIN_KEYS.Node:
      return { spec: raw['spec'], status: slimNodeStatus(raw['status']) };
    case BUILTIN_KEYS.Event:
      return pick(source.apiVersion === 'v1' ? raw : eventToCore(raw), EVENT_FIELDS);
    case CONTROLLER_REVISIONS:
      // The revision number dates a rollout (history backfill); `data`, a whole pod template, is never kept.
      return { revision: raw['revision'] };
    default:
      // Namespaces, Services, HPAs and any other kind: spec and status, never a top-level `data`.
      return { spec: raw['spec'], status: raw['status'] };
  }
}

/** The slim form of one object from `source`'s list or watch. */
export function slimObject(raw: unknown, source: ObjectSource): SlimObject {
  const object = isObject(raw) ? raw : {};
  if (source.metadataOnly) {
    // List items may leave kind out (client-go's metadata client accepts that too).
    if (object['kind'] !== undefined && object['kind'] !== 'PartialObjectMetadata') {
      throw new Error(`a metadata-only read of ${source.kind} answered ${typeof object['kind'] === 'string' ? `a ${object['kind']}` : 'something'} instead of PartialObjectMetadata`);
    }
    return { apiVersion: source.apiVersion, kind: source.objectKind, metadata: slimMetadata(object['metadata']) } as SlimObject;
  }
  const out: Json = {
    apiVersion: source.kind === BUILTIN_KEYS.Event ? 'v1' : source.apiVersion,
    kind: source.objectKind,
    metadata: slimMetadata(object['metadata']),
  };
  for (const [field, value] of Object.entries(body(source.kind, object, source))) if (value !== undefined) out[field] = value;
  return out as SlimObject;
}
