/**
 * Composes the simulated API server's pure modules (defaulting and validation, tables, patching
 * and managedFields, OpenAPI) into the `ApiExtensions` the HTTP layer calls.
 */
import { applyDefaults, validate } from './defaults/index.ts';
import { definitionNameFor, definitions, openapiV2Json, openapiV2Protobuf, openapiV3DocumentJson, openapiV3Index } from './openapi/index.ts';
import { applyPatch, recordUpdate } from './patch/index.ts';
import { patchMetaFromDefinitions, type PatchMeta } from './patch/patch-meta.ts';
import { apiVersionOf, type ResourceType } from './resources.ts';
import type { ApiExtensions } from './server/extensions.ts';
import { toTable } from './tables/index.ts';

/** Fields each endpoint resets (never recorded as owned): status on the main resource. */
function resetFieldsFor(type: ResourceType, subresource: string | undefined): ReadonlyArray<readonly string[]> {
  if (subresource === 'status') return [['spec'], ['metadata']];
  return type.subresources.includes('status') ? [['status']] : [];
}

export function createApiExtensions(options: { version: string }): ApiExtensions {
  const metas = new Map<string, PatchMeta>();
  const metaFor = (type: ResourceType): PatchMeta => {
    const key = `${type.group}/${type.version}/${type.kind}`;
    let meta = metas.get(key);
    if (!meta) {
      meta = patchMetaFromDefinitions(definitions(), definitionNameFor(type.group, type.version, type.kind));
      metas.set(key, meta);
    }
    return meta;
  };
  const openapi = { version: options.version };
  return {
    applyDefaults,
    validate,
    toTable: (type, objects, tableOptions) => toTable(type, objects, tableOptions),
    applyPatch: (args) => {
      const { type, ...rest } = args;
      const subresource = type.kind === 'Scale' ? 'scale' : undefined;
      return applyPatch({
        ...rest,
        meta: metaFor(type),
        apiVersion: apiVersionOf(type),
        kind: type.kind,
        ...(subresource ? { subresource } : {}),
        resetFields: resetFieldsFor(type, subresource),
      });
    },
    recordUpdate: (args) => {
      const { type, subresource, ...rest } = args;
      return recordUpdate({
        ...rest,
        operation: 'Update',
        meta: metaFor(type),
        ...(subresource ? { subresource } : {}),
        resetFields: resetFieldsFor(type, subresource),
      });
    },
    openapiV2Protobuf: () => openapiV2Protobuf(openapi),
    openapiV2Json: () => openapiV2Json(openapi),
    openapiV3Index: () => openapiV3Index(openapi),
    openapiV3Document: (path) => openapiV3DocumentJson(path, openapi),
  };
}
