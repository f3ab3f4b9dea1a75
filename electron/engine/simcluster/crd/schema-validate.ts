/**
 * Validation of a custom resource against its version's structural schema, with the field
 * errors kube-apiserver returns (kube-openapi's validator as apiextensions turns its results
 * into field errors): `spec.secretName: Required value`, `spec.replicas: Invalid value:
 * "string": spec.replicas in body must be of type integer: "string"`, `Unsupported value`,
 * bounds, patterns, lengths and item counts. Embedded resources need apiVersion and kind.
 */
import type { StatusCause } from '../errors.ts';
import type { JSONSchemaProps } from './types.ts';

type Out = StatusCause[];

function goTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A value as Go's field errors print it: strings quoted, numbers and booleans bare. */
function printed(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(JSON.stringify(value));
}

function typeMatches(schema: JSONSchemaProps, value: unknown): boolean {
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
  switch (schema.type) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

function checkScalar(schema: JSONSchemaProps, value: unknown, path: string, out: Out): void {
  const invalidValue = (why: string) => out.push({ field: path, message: `Invalid value: ${printed(value)}: ${path} in body ${why}` });
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    out.push({ field: path, reason: 'FieldValueNotSupported', message: `Unsupported value: ${printed(value)}: supported values: ${schema.enum.map(printed).join(', ')}` });
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) invalidValue(`should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`);
    if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) invalidValue(`should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) out.push({ field: path, reason: 'FieldValueTooLong', message: `Too long: may not be longer than ${schema.maxLength}` });
    if (schema.minLength !== undefined && [...value].length < schema.minLength) invalidValue(`should be at least ${schema.minLength} chars long`);
    if (schema.pattern !== undefined && !safeRegExp(schema.pattern)?.test(value)) invalidValue(`should match '${schema.pattern}'`);
  }
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

function walk(schema: JSONSchemaProps, value: unknown, path: string, out: Out): void {
  if (value === null) {
    if (!schema.nullable && schema.type) out.push({ field: path, message: `Invalid value: "null": ${path} in body must be of type ${schema.type}: "null"` });
    return;
  }
  if (!typeMatches(schema, value)) {
    const expected = schema['x-kubernetes-int-or-string'] ? 'integer,string' : (schema.type ?? '');
    out.push({ field: path, message: `Invalid value: ${JSON.stringify(goTypeOf(value))}: ${path} in body must be of type ${expected}: ${JSON.stringify(goTypeOf(value))}` });
    return;
  }
  checkScalar(schema, value, path, out);
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push({ field: path, reason: 'FieldValueTooMany', message: `Too many: ${value.length}: must have at most ${schema.maxItems} items` });
    if (schema.minItems !== undefined && value.length < schema.minItems) out.push({ field: path, message: `Invalid value: ${value.length}: ${path} in body should have at least ${schema.minItems} items` });
    if (schema.items) value.forEach((item, i) => walk(schema.items as JSONSchemaProps, item, `${path}[${i}]`, out));
    return;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (schema['x-kubernetes-embedded-resource']) {
      if (!record['apiVersion']) out.push({ field: `${path}.apiVersion`, reason: 'FieldValueRequired', message: 'Required value: must not be empty' });
      if (!record['kind']) out.push({ field: `${path}.kind`, reason: 'FieldValueRequired', message: 'Required value: must not be empty' });
    }
    for (const name of schema.required ?? []) {
      if (record[name] === undefined) out.push({ field: path ? `${path}.${name}` : name, reason: 'FieldValueRequired', message: 'Required value' });
    }
    for (const [name, inner] of Object.entries(record)) {
      const child = schema.properties?.[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (child) walk(child, inner, path ? `${path}.${name}` : name, out);
    }
  }
}

/**
 * Field errors of `object` (a whole custom resource) against its version's schema. apiVersion,
 * kind and metadata are the apiserver's own and are not checked against the schema here.
 */
export function validateAgainstSchema(schema: JSONSchemaProps, object: Record<string, unknown>): StatusCause[] {
  const out: Out = [];
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = object;
  const { apiVersion: _sa, kind: _sk, metadata: _sm, ...properties } = schema.properties ?? {};
  walk({ ...schema, properties, required: (schema.required ?? []).filter((r) => r !== 'apiVersion' && r !== 'kind' && r !== 'metadata') }, rest, '', out);
  return out;
}
