/**
 * The list semantics of a custom resource's fields, read from its CRD schema as server-side
 * apply reads them: `x-kubernetes-list-type: map` with `x-kubernetes-list-map-keys` (items are
 * matched by their keys, order ignored), `set` (order ignored) and `atomic` (the whole list is
 * one value). A CRD list without a list type is atomic. Only the shape the comparison needs is
 * kept: which fields a node has, and what each list is. Parts the schema leaves open
 * (`x-kubernetes-preserve-unknown-fields`, `metadata`, which a CRD types only as `object`) have no
 * node, and the comparison falls back to the built-in merge-key guess there.
 */
import { isObject, type JsonObject } from '../load/types.ts';

/** How one list compares. */
export type ListRule = { type: 'map'; keys: readonly string[]; defaults: readonly unknown[] } | { type: 'set' } | { type: 'atomic' };

/** One position of a schema: the fields of an object, the values of a map, a list's rule and items. */
export interface ListSchema {
  fields?: Readonly<Record<string, ListSchema>>;
  values?: ListSchema;
  list?: ListRule;
  items?: ListSchema;
}

/** Beyond this depth a schema is not followed (recursive `$ref`s in an OpenAPI document). */
const MAX_DEPTH = 64;
const REF_PREFIXES = ['#/components/schemas/', '#/definitions/'] as const;

/** Looks a `$ref` up; the identity for documents without references (a CRD's own schema). */
export type RefResolver = (ref: string) => JsonObject | undefined;

/** A resolver over an OpenAPI v3 document's `components.schemas` (or a v2 `definitions`). */
export function refsOf(schemas: JsonObject): RefResolver {
  return (ref) => {
    const prefix = REF_PREFIXES.find((p) => ref.startsWith(p));
    const target = prefix ? schemas[ref.slice(prefix.length)] : undefined;
    return isObject(target) ? target : undefined;
  };
}

/** Follows `$ref` and the `allOf: [{$ref}]` form OpenAPI v3 uses beside a description. */
function resolved(node: JsonObject, refs: RefResolver): JsonObject {
  let current = node;
  for (let hops = 0; hops < 16; hops++) {
    const allOf = current['allOf'];
    const single = Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) ? allOf[0] : undefined;
    const ref = typeof current['$ref'] === 'string' ? current['$ref'] : typeof single?.['$ref'] === 'string' ? single['$ref'] : undefined;
    if (ref === undefined) return current;
    const target = refs(ref);
    if (!target) return {};
    // Extensions written beside the reference win over the referenced definition's.
    const { $ref: _ref, allOf: _allOf, ...beside } = current;
    current = { ...target, ...beside };
  }
  return current;
}

function listRule(node: JsonObject, rawItems: JsonObject | undefined): ListRule {
  const type = node['x-kubernetes-list-type'];
  const keys = node['x-kubernetes-list-map-keys'];
  if (type === 'map' && Array.isArray(keys) && keys.length > 0 && keys.every((k) => typeof k === 'string')) {
    const properties = rawItems && isObject(rawItems['properties']) ? rawItems['properties'] : {};
    // Server-side apply fills an absent key field from its default (a port's `protocol: TCP`).
    const defaults = (keys as string[]).map((key) => (isObject(properties[key]) ? properties[key]['default'] : undefined));
    return { type: 'map', keys: keys as string[], defaults };
  }
  if (type === 'set') return { type: 'set' };
  return { type: 'atomic' };
}

function compile(node: unknown, refs: RefResolver, depth: number): ListSchema | undefined {
  if (!isObject(node) || depth > MAX_DEPTH) return undefined;
  const schema = resolved(node, refs);
  const properties = isObject(schema['properties']) ? schema['properties'] : undefined;
  if (schema['x-kubernetes-preserve-unknown-fields'] === true && !properties) return undefined;
  if (schema['type'] === 'array' || schema['items'] !== undefined) {
    const rawItems = isObject(schema['items']) ? resolved(schema['items'], refs) : undefined;
    const items = compile(schema['items'], refs, depth + 1);
    return { list: listRule(schema, rawItems), ...(items ? { items } : {}) };
  }
  if (properties) {
    const fields: Record<string, ListSchema> = {};
    for (const [name, child] of Object.entries(properties)) {
      const compiled = compile(child, refs, depth + 1);
      if (compiled) fields[name] = compiled;
    }
    return { fields };
  }
  if (isObject(schema['additionalProperties'])) {
    const values = compile(schema['additionalProperties'], refs, depth + 1);
    return values ? { values } : {};
  }
  return {};
}

/**
 * The list semantics of a kind from its OpenAPI v3 schema (a CRD version's `openAPIV3Schema`, or
 * the kind's definition in the server's OpenAPI v3 document with its resolver). `metadata` is left
 * out: CRDs type it only as `object`, and the built-in guess knows ObjectMeta's lists.
 */
export function compileListSchema(schema: unknown, refs: RefResolver = () => undefined): ListSchema | undefined {
  const compiled = compile(schema, refs, 0);
  if (!compiled?.fields) return compiled;
  const { metadata: _metadata, ...fields } = compiled.fields;
  return { ...compiled, fields };
}

/** The schema of `key` inside an object (a declared field, else a map's value). */
export function fieldSchema(schema: ListSchema | undefined, key: string): ListSchema | undefined {
  return schema?.fields?.[key] ?? schema?.values;
}
