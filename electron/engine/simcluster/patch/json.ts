/** Small helpers over parsed JSON values shared by the patch engines. */
import { jsonEqual } from '../../../../shared/json-equal.ts';

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural JSON equality: member order is irrelevant, array order is not (shared/json-equal.ts). */
export const deepEqual = jsonEqual;

/** A deep copy, so that results never share structure with the caller's inputs. */
export function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

/** `obj` without `key`, as a new object. */
export function omit(obj: JsonObject, key: string): JsonObject {
  const { [key]: _dropped, ...rest } = obj;
  return rest;
}

/**
 * A value printed the way Go's `%v` prints decoded JSON (`map[name:c]`, `[a b]`, `<nil>`):
 * kube-apiserver puts such renderings into strategic-merge-patch error messages.
 */
export function goFormat(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`;
  if (isObject(value)) {
    return `map[${Object.keys(value)
      .sort()
      .map((key) => `${key}:${goFormat(value[key])}`)
      .join(' ')}]`;
  }
  return String(value);
}

/** The Go type name json.Unmarshal reports for a value it cannot decode into the wanted type. */
export function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}
