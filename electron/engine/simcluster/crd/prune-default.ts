/**
 * Pruning and defaulting of custom resources as apiextensions-apiserver does them on every write:
 * fields the structural schema does not declare are dropped (unless a node preserves unknown
 * fields) and reported by path for strict field validation (`unknown field "spec.foo"`); then
 * absent fields with a `default` get it, and nulls of non-nullable fields with a default too.
 */
import type { JSONSchemaProps } from './types.ts';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Metadata of an embedded resource or the root: only what ObjectMeta holds is kept, as is. */
const ROOT_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

function pruneNode(schema: JSONSchemaProps | undefined, value: unknown, path: string, pruned: string[], root: boolean): unknown {
  if (!schema || schema['x-kubernetes-preserve-unknown-fields'] === true && !schema.properties && typeof schema.additionalProperties !== 'object') {
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => pruneNode(schema.items, item, `${path}[${i}]`, pruned, false));
  if (!isRecord(value)) return value;
  const keepsUnknown = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = root || schema['x-kubernetes-embedded-resource'] === true;
  const out: Json = {};
  for (const [name, inner] of Object.entries(value)) {
    const childPath = path ? `${path}.${name}` : name;
    if (embedded && ROOT_FIELDS.has(name)) {
      out[name] = inner;
      continue;
    }
    const child = schema.properties?.[name] ?? (isRecord(schema.additionalProperties) ? (schema.additionalProperties as JSONSchemaProps) : undefined);
    if (child) out[name] = pruneNode(child, inner, childPath, pruned, false);
    else if (keepsUnknown || schema.additionalProperties === true) out[name] = inner;
    else pruned.push(childPath);
  }
  return out;
}

/** The object without undeclared fields, and their paths in document order. */
export function pruneObject(schema: JSONSchemaProps, object: Json): { object: Json; pruned: string[] } {
  const pruned: string[] = [];
  const result = pruneNode(schema, object, '', pruned, true) as Json;
  return { object: result, pruned };
}

function defaultNode(schema: JSONSchemaProps | undefined, value: unknown): unknown {
  if (!schema) return value;
  if (Array.isArray(value)) return value.map((item) => defaultNode(schema.items, item));
  if (!isRecord(value)) return value;
  const out: Json = { ...value };
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const missing = out[name] === undefined || (out[name] === null && !child.nullable);
    if (missing && child.default !== undefined) out[name] = structuredClone(child.default);
    if (out[name] !== undefined) out[name] = defaultNode(child, out[name]);
  }
  if (isRecord(schema.additionalProperties)) {
    for (const name of Object.keys(out)) if (!schema.properties?.[name]) out[name] = defaultNode(schema.additionalProperties as JSONSchemaProps, out[name]);
  }
  return out;
}

/** The object with the schema's defaults filled in (a new object; `object` is not changed). */
export function defaultObject(schema: JSONSchemaProps, object: Json): Json {
  // metadata is the apiserver's own; the schema may not default anything in it.
  const { metadata: _metadata, ...properties } = schema.properties ?? {};
  return defaultNode({ ...schema, properties }, object) as Json;
}
