/**
 * The structural-schema rules apiextensions.k8s.io/v1 enforces on every version's
 * `openAPIV3Schema` (apiextensions-apiserver's `schema.ValidateStructural` and the v1 CRD
 * validation): a non-empty type everywhere a value is specified (unless int-or-string or
 * preserve-unknown-fields), an object root, `metadata` limited to name and generateName, no
 * types inside the logical junctors. A v1 CRD with a non-structural schema is refused with these
 * field errors (the NonStructuralSchema condition only ever applied to v1beta1 CRDs).
 */
import type { StatusCause } from '../errors.ts';
import type { JSONSchemaProps } from './types.ts';

const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;
const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

function cause(field: string, message: string, reason = 'FieldValueInvalid'): StatusCause {
  return { field, message, reason };
}

function isSchema(value: unknown): value is JSONSchemaProps {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Value validations inside allOf/anyOf/oneOf/not may not declare structure of their own. */
function checkJunctor(schema: JSONSchemaProps, path: string, out: StatusCause[]): void {
  if (schema.type !== undefined) out.push(cause(`${path}.type`, 'Forbidden: must be empty to be structural', 'FieldValueForbidden'));
  if (schema.default !== undefined) out.push(cause(`${path}.default`, 'Forbidden: must be undefined to be structural', 'FieldValueForbidden'));
  if (schema.nullable) out.push(cause(`${path}.nullable`, 'Forbidden: must be false to be structural', 'FieldValueForbidden'));
  for (const [name, inner] of Object.entries(schema.properties ?? {})) checkJunctor(inner, `${path}.properties[${name}]`, out);
  if (isSchema(schema.items)) checkJunctor(schema.items, `${path}.items`, out);
}

function checkNode(schema: JSONSchemaProps, path: string, where: 'root' | 'field' | 'items' | 'additional', out: StatusCause[]): void {
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (schema['x-kubernetes-preserve-unknown-fields'] === false) {
    out.push(cause(`${path}.x-kubernetes-preserve-unknown-fields`, 'Invalid value: false: must be true or undefined'));
  }
  if (intOrString && schema.type !== undefined) {
    out.push(cause(`${path}.type`, `Invalid value: ${JSON.stringify(schema.type)}: must be empty if x-kubernetes-int-or-string is true`));
  } else if (schema.type === undefined || schema.type === '') {
    if (where === 'root') out.push(cause(`${path}.type`, 'Required value: must not be empty at the root', 'FieldValueRequired'));
    else if (!intOrString && !preserve) {
      const what = where === 'items' ? 'for specified array items' : where === 'additional' ? 'for specified additionalProperties' : 'for specified object fields';
      out.push(cause(`${path}.type`, `Required value: must not be empty ${what}`, 'FieldValueRequired'));
    }
  } else if (!TYPES.has(schema.type)) {
    out.push(cause(`${path}.type`, `Unsupported value: ${JSON.stringify(schema.type)}: supported values: "array", "boolean", "integer", "number", "object", "string"`, 'FieldValueNotSupported'));
  } else if (where === 'root' && schema.type !== 'object') {
    out.push(cause(`${path}.type`, `Unsupported value: ${JSON.stringify(schema.type)}: supported values: "object"`, 'FieldValueNotSupported'));
  }
  if (schema['x-kubernetes-embedded-resource'] === true && schema.type !== 'object') {
    out.push(cause(`${path}.type`, 'Invalid value: "' + (schema.type ?? '') + '": must be object if x-kubernetes-embedded-resource is true'));
  }
  if (schema.properties && schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    out.push(cause(`${path}.additionalProperties`, 'Forbidden: additionalProperties and properties are mutual exclusive', 'FieldValueForbidden'));
  }
  if (schema.type === 'array' && !isSchema(schema.items)) out.push(cause(`${path}.items`, 'Required value: must be specified', 'FieldValueRequired'));
  for (const [name, inner] of Object.entries(schema.properties ?? {})) {
    if (!isSchema(inner)) continue;
    if (where === 'root' && name === 'metadata') {
      checkRootMetadata(inner, `${path}.properties[metadata]`, out);
      continue;
    }
    checkNode(inner, `${path}.properties[${name}]`, 'field', out);
  }
  if (isSchema(schema.items)) checkNode(schema.items, `${path}.items`, 'items', out);
  if (isSchema(schema.additionalProperties)) checkNode(schema.additionalProperties, `${path}.additionalProperties`, 'additional', out);
  for (const junctor of JUNCTORS) (schema[junctor] ?? []).forEach((inner, i) => isSchema(inner) && checkJunctor(inner, `${path}.${junctor}[${i}]`, out));
  if (isSchema(schema.not)) checkJunctor(schema.not, `${path}.not`, out);
}

/** The root's `metadata` may only restrict name and generateName (as strings). */
function checkRootMetadata(schema: JSONSchemaProps, path: string, out: StatusCause[]): void {
  const props = Object.keys(schema.properties ?? {});
  const onlyNames = props.every((p) => p === 'name' || p === 'generateName');
  const allowedKeys = new Set(['type', 'properties', 'description']);
  const extra = Object.keys(schema).some((k) => !allowedKeys.has(k));
  if (!onlyNames || extra || (schema.type !== undefined && schema.type !== 'object')) {
    out.push(cause(path, 'Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified', 'FieldValueForbidden'));
  }
}

/** Field errors of one version's schema, under `path` (`spec.versions[0].schema.openAPIV3Schema`). */
export function structuralErrors(schema: JSONSchemaProps, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  checkNode(schema, path, 'root', out);
  return out;
}
