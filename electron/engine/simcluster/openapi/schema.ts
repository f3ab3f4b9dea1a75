/**
 * The swagger-2.0 schema shape the simulated API server publishes, and the small builders the
 * definition files use so that hundreds of fields stay readable.
 */

/** A swagger 2.0 schema as kube-apiserver publishes it (only the keywords Kubernetes uses). */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  required?: string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  uniqueItems?: boolean;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  [extension: `x-${string}`]: unknown;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
export const CORE = 'io.k8s.api.core.v1.';
export const APPS = 'io.k8s.api.apps.v1.';
export const BATCH = 'io.k8s.api.batch.v1.';
export const AUTOSCALING_V1 = 'io.k8s.api.autoscaling.v1.';
export const AUTOSCALING_V2 = 'io.k8s.api.autoscaling.v2.';
export const EVENTS = 'io.k8s.api.events.v1.';
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const TIME = `${META}Time`;
export const MICRO_TIME = `${META}MicroTime`;
export const OBJECT_META = `${META}ObjectMeta`;
export const LIST_META = `${META}ListMeta`;
export const LABEL_SELECTOR = `${META}LabelSelector`;

const DEFINITIONS_PREFIX = '#/definitions/';

export function str(description: string, extra: Schema = {}): Schema {
  return { type: 'string', description, ...extra };
}

export function int(description: string, extra: Schema = {}): Schema {
  return { type: 'integer', format: 'int32', description, ...extra };
}

export function int64(description: string): Schema {
  return { type: 'integer', format: 'int64', description };
}

export function bool(description: string): Schema {
  return { type: 'boolean', description };
}

/** A reference to another definition, carrying the field's own description as upstream does. */
export function ref(name: string, description?: string): Schema {
  return description === undefined ? { $ref: DEFINITIONS_PREFIX + name } : { $ref: DEFINITIONS_PREFIX + name, description };
}

/** The definition name a `#/definitions/...` reference points at. */
export function refTarget(reference: string): string {
  return reference.startsWith(DEFINITIONS_PREFIX) ? reference.slice(DEFINITIONS_PREFIX.length) : reference;
}

export function arr(items: Schema, description: string, extra: Schema = {}): Schema {
  return { type: 'array', items, description, ...extra };
}

/** A list of strings (args, command, finalizers...). */
export function strs(description: string, extra: Schema = {}): Schema {
  return arr({ type: 'string' }, description, extra);
}

/** A JSON object with arbitrary keys: `map[string]string` unless another value schema is given. */
export function map(description: string, value: Schema = { type: 'string' }): Schema {
  return { type: 'object', additionalProperties: value, description };
}

export interface ObjectOptions {
  required?: string[];
  /** Kinds this definition serves as (top-level kinds only). */
  gvk?: GroupVersionKind[];
  extra?: Schema;
}

export function obj(description: string, properties: Record<string, Schema>, options: ObjectOptions = {}): Schema {
  const schema: Schema = { description, type: 'object', properties };
  if (options.required && options.required.length > 0) schema.required = options.required;
  if (options.gvk) schema['x-kubernetes-group-version-kind'] = options.gvk;
  return { ...schema, ...options.extra };
}

/** `x-kubernetes-list-type: atomic`: the list is replaced whole by patches and appliers. */
export const ATOMIC: Schema = { 'x-kubernetes-list-type': 'atomic' };

/** `+structType=atomic` / `+mapType=atomic` on a struct or map. */
export const ATOMIC_MAP: Schema = { 'x-kubernetes-map-type': 'atomic' };

/** `+listType=set` with the strategic-merge `merge` strategy (metadata.finalizers). */
export const MERGE_SET: Schema = { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' };

/**
 * A list merged element by element, keyed by `mergeKey` for strategic merge patch and by
 * `mapKeys` (defaulting to the merge key) for server-side apply, as the upstream markers say.
 */
export function mergeBy(mergeKey: string, options: { mapKeys?: string[]; strategy?: string } = {}): Schema {
  return {
    'x-kubernetes-list-map-keys': options.mapKeys ?? [mergeKey],
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-patch-merge-key': mergeKey,
    'x-kubernetes-patch-strategy': options.strategy ?? 'merge',
  };
}

/** The apiVersion/kind/metadata triple every top-level kind starts with. */
export function typeMeta(): Record<string, Schema> {
  return {
    apiVersion: str(
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    ),
    kind: str(
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    ),
  };
}

export function objectMeta(): Schema {
  return ref(OBJECT_META, "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata");
}

/**
 * A top-level kind: apiVersion, kind, metadata and the given fields, tagged with its
 * group/version/kind so clients can find it.
 */
export function kind(gvk: GroupVersionKind, description: string, fields: Record<string, Schema>, required?: string[]): Schema {
  return obj(description, { ...typeMeta(), metadata: objectMeta(), ...fields }, { gvk: [gvk], ...(required ? { required } : {}) });
}

/** `<Kind>List` for a served kind, as every list endpoint returns. */
export function listKind(gvk: GroupVersionKind, itemDefinition: string): Schema {
  return obj(
    `${gvk.kind}List is a list of ${gvk.kind} objects.`,
    {
      ...typeMeta(),
      items: arr(ref(itemDefinition), `items is the list of ${gvk.kind} objects.`),
      metadata: ref(LIST_META, "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"),
    },
    { required: ['items'], gvk: [{ group: gvk.group, version: gvk.version, kind: `${gvk.kind}List` }] },
  );
}

/** A status condition in the shape every workload kind shares. */
export function condition(owner: string, extra: Record<string, Schema> = {}): Schema {
  return obj(
    `${owner}Condition describes the state of a ${owner.toLowerCase()} at a certain point.`,
    {
      lastTransitionTime: ref(TIME, 'Last time the condition transitioned from one status to another.'),
      message: str('A human readable message indicating details about the transition.'),
      reason: str("The reason for the condition's last transition."),
      status: str('Status of the condition, one of True, False, Unknown.'),
      type: str(`Type of ${owner.toLowerCase()} condition.`),
      ...extra,
    },
    { required: ['type', 'status'] },
  );
}
