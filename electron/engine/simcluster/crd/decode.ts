/**
 * Field validation of custom resource bodies: the fields pruning would drop are the "unknown
 * fields" of `fieldValidation` (a 400 `strict decoding error: unknown field "spec.foo"` under
 * Strict, Warning headers under Warn, dropped silently under Ignore), as apiextensions-apiserver
 * reports them from its pruning step.
 */
import { badRequest } from '../errors.ts';
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import type { FieldValidation, Validated } from '../validation/field-validation.ts';
import { strictDecodingError } from '../validation/field-validation.ts';
import { pruneObject } from './prune-default.ts';

function versionOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
}

/** `object` pruned to the custom kind's schema, with the unknown fields handled per `directive`. */
export function validateCustomResourceFields(type: ResourceType, object: KubeObject, directive: FieldValidation): Validated {
  const schema = type.custom?.schema;
  if (!schema) return { object, warnings: [] };
  const { object: pruned, pruned: paths } = pruneObject(schema, object);
  if (paths.length === 0 || directive === 'Ignore') return { object: pruned as KubeObject, warnings: [] };
  const errors = paths.map((path) => `unknown field ${JSON.stringify(path)}`);
  if (directive === 'Strict') {
    throw badRequest(`${object.kind} in version ${JSON.stringify(versionOf(object.apiVersion))} cannot be handled as a ${type.kind}: ${strictDecodingError(errors)}`);
  }
  return { object: pruned as KubeObject, warnings: errors };
}
