/**
 * Decoding a JSON object into a kind's Go types the way kube-apiserver's strict decoder does
 * (sigs.k8s.io/json with DisallowUnknownFields): fields the type does not declare are reported
 * with their full path (`spec.template.spec.containers[0].imagee`; list items by index, map
 * values by key) and dropped, and a value of the wrong JSON type is the decoder's fatal
 * `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`.
 *
 * Matching is case-sensitive, as in the apiserver (`Replicas` is an unknown field). Unknown
 * fields are not looked into, and nor are values with their own JSON decoding (times,
 * IntOrString, quantities, FieldsV1), exactly as the decoder skips them. Go's named string
 * types (`v1.Protocol`, `v1.PullPolicy`) are not in client-node's models: type errors on them
 * name the underlying `string`.
 */
import type { KubeObject } from '../types.ts';
import { fieldsOf, goNameOf, modelFor, type TypeRef } from './models.ts';

/** A value the decoder cannot store in the field's Go type. */
export interface TypeMismatch {
  /** Where, in strict-path form: `spec.template.spec.containers[0].ports[0].containerPort`. */
  path: string;
  /** The JSON value's kind as Go's decoder names it: `string`, `number`, `bool`, `array`, `object`, or `number 1.5` for a number out of the type's range. */
  value: string;
  /** The innermost Go struct holding the field (`DeploymentSpec`). */
  struct: string;
  /** JSON field names from the root, without list indexes or map keys (`spec.replicas`). */
  field: string;
  /** The Go type that cannot hold the value (`int32`, `[]v1.Container`, `map[string]string`). */
  goType: string;
  /** What the field is, for the unstructured converter's messages. */
  target: TypeRef['kind'];
  /** The offending value itself. */
  actual: unknown;
}

/** The outcome of decoding one object. */
export interface TypedDecode {
  /** Unknown fields' paths, in document order (as far as object key order tells it). */
  unknownFields: string[];
  /** The first value of the wrong type; the decoder fails on it whatever the field validation. */
  typeError?: TypeMismatch;
  /** Paths the decoder never looks into (unknown fields and values with their own decoding): duplicates there go unreported. */
  opaquePaths: string[];
  /** The object without its unknown fields (the same reference when there were none). */
  pruned: unknown;
}

interface GoContext {
  readonly struct: string;
  readonly field: string;
}

interface Walk {
  unknownFields: string[];
  opaquePaths: string[];
  typeError?: TypeMismatch;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

const INT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-2147483648, 2147483647],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** `undefined` when the number fits the Go type, else the decoder's `number 1.5`. */
function numberMismatch(goType: string, value: number): string | undefined {
  const range = INT_RANGES[goType];
  if (!range) return undefined;
  return Number.isInteger(value) && value >= range[0] && value <= range[1] ? undefined : `number ${String(value)}`;
}

function mismatch(walk: Walk, ref: TypeRef, value: unknown, path: string, go: GoContext, kind: string): void {
  walk.opaquePaths.push(path);
  walk.typeError ??= { path, value: kind, struct: go.struct, field: go.field, goType: ref.goType, target: ref.kind, actual: value };
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function walkStruct(model: string, value: Record<string, unknown>, path: string, walk: Walk, go: GoContext): unknown {
  const fields = fieldsOf(model);
  const struct = goNameOf(model).name;
  let pruned: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const ref = fields.get(key);
    const itemPath = childPath(path, key);
    if (!ref) {
      walk.unknownFields.push(itemPath);
      walk.opaquePaths.push(itemPath);
      pruned ??= { ...value };
      delete pruned[key];
      continue;
    }
    const next = walkValue(ref, item, itemPath, walk, { struct, field: childPath(go.field, key) });
    if (next !== item) {
      pruned ??= { ...value };
      pruned[key] = next;
    }
  }
  return pruned ?? value;
}

function walkValue(ref: TypeRef, value: unknown, path: string, walk: Walk, go: GoContext): unknown {
  // null decodes into any field (it leaves the zero value).
  if (value === null || value === undefined) return value;
  switch (ref.kind) {
    case 'opaque':
      if (ref.goType === 'interface {}') walk.opaquePaths.push(path);
      return value;
    case 'string':
    case 'boolean': {
      const wanted = ref.kind === 'string' ? 'string' : 'boolean';
      if (typeof value !== wanted) mismatch(walk, ref, value, path, go, jsonKind(value));
      return value;
    }
    case 'number': {
      if (typeof value !== 'number') mismatch(walk, ref, value, path, go, jsonKind(value));
      else {
        const outOfRange = numberMismatch(ref.goType, value);
        if (outOfRange) mismatch(walk, ref, value, path, go, outOfRange);
      }
      return value;
    }
    case 'array': {
      if (!Array.isArray(value)) {
        mismatch(walk, ref, value, path, go, jsonKind(value));
        return value;
      }
      let pruned: unknown[] | undefined;
      value.forEach((item: unknown, index) => {
        const next = walkValue(ref.elem, item, `${path}[${index}]`, walk, go);
        if (next !== item) {
          pruned ??= [...value];
          pruned[index] = next;
        }
      });
      return pruned ?? value;
    }
    case 'map': {
      if (!isPlainObject(value)) {
        mismatch(walk, ref, value, path, go, jsonKind(value));
        return value;
      }
      let pruned: Record<string, unknown> | undefined;
      for (const [key, item] of Object.entries(value)) {
        const next = walkValue(ref.elem, item, childPath(path, key), walk, go);
        if (next !== item) {
          pruned ??= { ...value };
          pruned[key] = next;
        }
      }
      return pruned ?? value;
    }
    case 'struct':
      if (!isPlainObject(value)) {
        mismatch(walk, ref, value, path, go, jsonKind(value));
        return value;
      }
      return walkStruct(ref.model, value, path, walk, go);
  }
}

/** Decodes `value` into the client-node model `model` (`V1Deployment`), as the apiserver's strict decoder would. */
export function decodeTyped(model: string, value: Record<string, unknown>): TypedDecode {
  const walk: Walk = { unknownFields: [], opaquePaths: [] };
  const pruned = walkStruct(model, value, '', walk, { struct: goNameOf(model).name, field: '' });
  return { unknownFields: walk.unknownFields, opaquePaths: walk.opaquePaths, ...(walk.typeError ? { typeError: walk.typeError } : {}), pruned };
}

/**
 * The unknown fields of an object of `apiVersion` + `kind` (from its client-node model), as
 * the apiserver reports them: `spec.replicass`, `spec.template.spec.containers[0].imagee`,
 * `metadata.labelz`. Empty for kinds client-node has no model of.
 */
export function unknownFields(apiVersion: string, kind: string, object: KubeObject | Record<string, unknown>): string[] {
  const model = modelFor(apiVersion, kind);
  return model ? decodeTyped(model, object).unknownFields : [];
}

/** Go's json.UnmarshalTypeError text for a mismatch. */
export function jsonTypeErrorMessage(error: TypeMismatch): string {
  return `json: cannot unmarshal ${error.value} into Go struct field ${error.struct}.${error.field} of type ${error.goType}`;
}

/** Go's reflect kind of a decoded JSON value in an unstructured map (integers are int64). */
function unstructuredKind(value: unknown): string {
  if (Array.isArray(value)) return 'slice';
  if (isPlainObject(value)) return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/**
 * The error runtime.DefaultUnstructuredConverter gives for a mismatch, as a strategic merge
 * patch reports it: `unrecognized type: int32`, `cannot convert int64 to string`,
 * `cannot restore struct from: string`, `cannot restore slice from string`.
 */
export function converterTypeErrorMessage(error: TypeMismatch): string {
  const source = unstructuredKind(error.actual);
  if (error.goType === '[]uint8') return `cannot restore slice from ${source}`;
  switch (error.target) {
    case 'struct':
      return `cannot restore struct from: ${source}`;
    case 'array':
      return `cannot restore slice from ${source}`;
    case 'map':
      return `cannot restore map from ${source}`;
    default:
      // Go converts an integer to a string or a float, and a float to an integer, before
      // refusing the value: those are the only pairs that are "convertible but not allowed".
      if ((source === 'int64' && error.target === 'string') || (source === 'float64' && error.target === 'number')) {
        return `cannot convert ${source} to ${error.goType}`;
      }
      return `unrecognized type: ${error.goType}`;
  }
}
