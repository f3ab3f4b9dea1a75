/**
 * The write strategies of apiextensions.k8s.io kinds, layered over the built-in defaulting and
 * validation: CustomResourceDefinitions are defaulted and validated as apiextensions-apiserver
 * does, custom resources are pruned, defaulted and validated against their version's structural
 * schema. Everything else goes to the built-in functions.
 */
import type { StatusCause } from '../errors.ts';
import { definitions } from '../openapi/index.ts';
import { patchMetaFromDefinitions, type PatchMeta } from '../patch/patch-meta.ts';
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { defaultCrd, withCrdBookkeeping } from './defaults-crd.ts';
import { customDefinitionName, customDefinitions } from './openapi.ts';
import { defaultObject, pruneObject } from './prune-default.ts';
import { validateAgainstSchema } from './schema-validate.ts';
import { validateCrd } from './validate-crd.ts';

/** The defaulting and validation functions a strategy layer wraps. */
export interface WriteStrategy {
  applyDefaults(type: ResourceType, object: KubeObject): KubeObject;
  validate(type: ResourceType, object: KubeObject, old?: KubeObject): StatusCause[];
}

/** Whether `type` is apiextensions.k8s.io CustomResourceDefinition. */
export function isCrdType(type: Pick<ResourceType, 'group' | 'kind'>): boolean {
  return type.group === 'apiextensions.k8s.io' && type.kind === 'CustomResourceDefinition';
}

/** A custom resource pruned to its schema and defaulted (a new object). */
export function pruneAndDefault(type: ResourceType, object: KubeObject): KubeObject {
  const schema = type.custom?.schema;
  if (!schema) return object;
  return defaultObject(schema, pruneObject(schema, object).object) as KubeObject;
}

/** Field errors of a custom resource: its schema's, besides what the store checks of metadata. */
export function validateCustomResource(type: ResourceType, object: KubeObject): StatusCause[] {
  const schema = type.custom?.schema;
  return schema ? validateAgainstSchema(schema, object) : [];
}

/** `base` with CustomResourceDefinitions and custom resources handled as apiextensions does. */
export function withApiExtensions(base: WriteStrategy): WriteStrategy {
  return {
    applyDefaults(type, object) {
      if (isCrdType(type)) return withCrdBookkeeping(defaultCrd(object));
      if (type.custom) return pruneAndDefault(type, object);
      return base.applyDefaults(type, object);
    },
    validate(type, object, old) {
      if (isCrdType(type)) return validateCrd(object, old);
      if (type.custom) return validateCustomResource(type, object);
      return base.validate(type, object, old);
    },
  };
}

const metas = new WeakMap<ResourceType, PatchMeta>();

/** Merge semantics of a custom kind from its schema (list types and map keys), for apply. */
export function customPatchMeta(type: ResourceType): PatchMeta {
  let meta = metas.get(type);
  if (!meta) {
    meta = patchMetaFromDefinitions({ ...definitions(), ...customDefinitions(type, { v3: false }) }, customDefinitionName(type, type.kind));
    metas.set(type, meta);
  }
  return meta;
}
