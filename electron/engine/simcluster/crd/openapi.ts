/**
 * OpenAPI for custom resources as kube-apiserver publishes it from a CRD: a definition named by
 * the reversed group (`io.cert-manager.v1.Certificate`) built from the version's openAPIV3Schema
 * with apiVersion, kind and an ObjectMeta `metadata`, tagged with its group/version/kind; the
 * matching `<Kind>List`; and the resource paths. The v2 form drops what swagger 2.0 cannot say
 * (nullable, the logical junctors).
 */
import { kind as kindSchema, listKind, type Schema } from '../openapi/schema.ts';
import type { ResourceType } from '../resources.ts';
import type { JSONSchemaProps } from './types.ts';

/** `cert-manager.io` → `io.cert-manager`: the group reversed, as the CRD OpenAPI builder names it. */
function reversedGroup(group: string): string {
  return group.split('.').reverse().join('.');
}

/** The definition name of a custom kind (or of its list kind). */
export function customDefinitionName(type: Pick<ResourceType, 'group' | 'version'>, kind: string): string {
  return `${reversedGroup(type.group)}.${type.version}.${kind}`;
}

const DROPPED_IN_V2 = new Set(['nullable', 'allOf', 'anyOf', 'oneOf', 'not']);

/** A CRD schema node as a swagger 2.0 schema (or, with `v3`, as OpenAPI 3 keeps it). */
export function toOpenApiSchema(schema: JSONSchemaProps, options: { v3: boolean }): Schema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!options.v3 && DROPPED_IN_V2.has(key)) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, JSONSchemaProps>).map(([name, inner]) => [name, toOpenApiSchema(inner, options)]));
    } else if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      out[key] = toOpenApiSchema(value as JSONSchemaProps, options);
    } else {
      out[key] = value;
    }
  }
  return out as Schema;
}

/** The definitions a custom kind adds: the kind and its list. */
export function customDefinitions(type: ResourceType, options: { v3: boolean }): Record<string, Schema> {
  const schema = type.custom?.schema ?? { type: 'object' };
  const converted = toOpenApiSchema(schema, options);
  const { apiVersion: _a, kind: _k, metadata: _m, ...fields } = converted.properties ?? {};
  const gvk = { group: type.group, kind: type.kind, version: type.version };
  const name = customDefinitionName(type, type.kind);
  const base = kindSchema(gvk, schema.description ?? '', fields, converted.required);
  const { description: _d, ...withoutDescription } = base;
  const extensions = Object.fromEntries(Object.entries(converted).filter(([key]) => key.startsWith('x-kubernetes-') && key !== 'x-kubernetes-group-version-kind'));
  const definition: Schema = { ...(schema.description ? base : withoutDescription), ...extensions };
  const list = listKind({ ...gvk, kind: type.kind }, name);
  return { [name]: definition, [customDefinitionName(type, type.custom?.listKind ?? `${type.kind}List`)]: list };
}
