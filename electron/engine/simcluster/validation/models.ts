/**
 * The Go types behind the served kinds, read from @kubernetes/client-node's generated models.
 * Unlike the simulator's hand-written OpenAPI definitions these carry every field of every type
 * (each model class has a static `attributeTypeMap` of `{ baseName, type, format }`), so strict
 * decoding against them never rejects a field a real apiserver accepts.
 *
 * Model type names follow client-node's ObjectSerializer: `string`, `number` (format int32,
 * int64 or double), `boolean`, `Date`, `any`, `IntOrString`, `Array<T>`,
 * `{ [key: string]: T; }` and model class names such as `V1PodSpec`.
 */
import * as clientNode from '@kubernetes/client-node';

/** How the apiserver's decoder treats one position of an object. */
export type TypeRef =
  | { readonly kind: 'string'; readonly goType: string }
  | { readonly kind: 'number'; readonly goType: 'int32' | 'int64' | 'float64' }
  | { readonly kind: 'boolean'; readonly goType: 'bool' }
  /** Values with their own JSON decoding (Time, MicroTime, IntOrString, Quantity, FieldsV1): never checked here. */
  | { readonly kind: 'opaque'; readonly goType: string }
  | { readonly kind: 'array'; readonly goType: string; readonly elem: TypeRef }
  | { readonly kind: 'map'; readonly goType: string; readonly elem: TypeRef }
  | { readonly kind: 'struct'; readonly goType: string; readonly model: string };

interface Attribute {
  readonly baseName: string;
  readonly type: string;
  readonly format: string;
}

interface ModelClass {
  readonly attributeTypeMap?: readonly Attribute[];
}

const MODELS = clientNode as unknown as Readonly<Record<string, ModelClass | undefined>>;

/**
 * resource.Quantity fields: client-node types them as plain strings, but a Quantity also
 * decodes from a JSON number (`cpu: 1`), so they must not be checked as strings.
 */
const QUANTITY_FIELDS = new Set([
  'V1ResourceRequirements.limits',
  'V1ResourceRequirements.requests',
  'V1VolumeResourceRequirements.limits',
  'V1VolumeResourceRequirements.requests',
  'V1PodSpec.overhead',
  'V1PodStatus.allocatedResources',
  'V1ContainerStatus.allocatedResources',
  'V1NodeStatus.allocatable',
  'V1NodeStatus.capacity',
  'V1NodeAllocatableResourceClaimStatus.resources',
  'V1PersistentVolumeClaimStatus.allocatedResources',
  'V1PersistentVolumeClaimStatus.capacity',
  'V1ResourceFieldSelector.divisor',
  'V1EmptyDirVolumeSource.sizeLimit',
  'V2MetricTarget.averageValue',
  'V2MetricTarget.value',
  'V2MetricValueStatus.averageValue',
  'V2MetricValueStatus.value',
]);

const QUANTITY: TypeRef = { kind: 'opaque', goType: 'resource.Quantity' };
const RESOURCE_LIST: TypeRef = { kind: 'map', goType: 'v1.ResourceList', elem: QUANTITY };
const ARRAY_PREFIX = 'Array<';
const MAP_PREFIX = '{ [key: string]: ';
const MAP_SUFFIX = '; }';
const MODEL_NAME = /^(?:[A-Z][a-z]+)?(V\d+(?:alpha\d+|beta\d+)?)([A-Z]\w*)$/;

/** `V1PodSpec` → `{ pkg: 'v1', name: 'PodSpec' }`; `CoreV1Event` → `{ pkg: 'v1', name: 'Event' }`. */
export function goNameOf(model: string): { pkg: string; name: string } {
  const match = MODEL_NAME.exec(model);
  return match ? { pkg: (match[1] ?? '').toLowerCase(), name: match[2] ?? model } : { pkg: 'v1', name: model };
}

function scalarRef(type: string, format: string): TypeRef | undefined {
  switch (type) {
    case 'string':
      // []byte fields (Secret.data) hold base64 text; Go names the slice type []uint8.
      return { kind: 'string', goType: format === 'byte' ? '[]uint8' : 'string' };
    case 'number':
      return { kind: 'number', goType: format === 'int32' || format === 'int64' ? format : 'float64' };
    case 'boolean':
      return { kind: 'boolean', goType: 'bool' };
    case 'Date':
      return { kind: 'opaque', goType: format === 'date-time-micro' ? 'v1.MicroTime' : 'v1.Time' };
    case 'IntOrString':
      return { kind: 'opaque', goType: 'intstr.IntOrString' };
    case 'any':
      return { kind: 'opaque', goType: 'interface {}' };
    default:
      return undefined;
  }
}

function refOf(type: string, format: string): TypeRef {
  if (type.startsWith(ARRAY_PREFIX)) {
    const elem = refOf(type.slice(ARRAY_PREFIX.length, -1), format);
    return { kind: 'array', goType: `[]${elem.goType}`, elem };
  }
  if (type.startsWith(MAP_PREFIX)) {
    const elem = refOf(type.slice(MAP_PREFIX.length, -MAP_SUFFIX.length), format);
    return { kind: 'map', goType: `map[string]${elem.goType}`, elem };
  }
  const scalar = scalarRef(type, format);
  if (scalar) return scalar;
  const { pkg, name } = goNameOf(type);
  // Types without a model class (MicroTime) have their own JSON form.
  if (!MODELS[type]?.attributeTypeMap) return { kind: 'opaque', goType: `${pkg}.${name}` };
  return { kind: 'struct', goType: `${pkg}.${name}`, model: type };
}

const FIELDS = new Map<string, ReadonlyMap<string, TypeRef>>();

/** The JSON fields of a model class and how each decodes; empty for names that are not models. */
export function fieldsOf(model: string): ReadonlyMap<string, TypeRef> {
  let fields = FIELDS.get(model);
  if (!fields) {
    const map = new Map<string, TypeRef>();
    for (const attribute of MODELS[model]?.attributeTypeMap ?? []) {
      const quantity = QUANTITY_FIELDS.has(`${model}.${attribute.baseName}`);
      const ref = quantity ? (attribute.type.startsWith(MAP_PREFIX) ? RESOURCE_LIST : QUANTITY) : refOf(attribute.type, attribute.format);
      map.set(attribute.baseName, ref);
    }
    fields = map;
    FIELDS.set(model, fields);
  }
  return fields;
}

/** Whether client-node has a model class of this name. */
function isModel(model: string): boolean {
  return MODELS[model]?.attributeTypeMap !== undefined;
}

/** Kinds whose model name does not follow `<Version><Kind>` (both Event kinds share the name Event). */
const MODEL_EXCEPTIONS: Readonly<Record<string, string>> = {
  'v1/Event': 'CoreV1Event',
  'events.k8s.io/v1/Event': 'EventsV1Event',
};

/**
 * The client-node model of `apiVersion` + `kind` (`apps/v1` Deployment → V1Deployment,
 * `autoscaling/v2` HorizontalPodAutoscaler → V2HorizontalPodAutoscaler), or undefined when
 * client-node has none (such objects are not checked).
 */
export function modelFor(apiVersion: string, kind: string): string | undefined {
  const exception = MODEL_EXCEPTIONS[`${apiVersion}/${kind}`];
  if (exception) return exception;
  const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
  const model = `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
  return isModel(model) ? model : undefined;
}
