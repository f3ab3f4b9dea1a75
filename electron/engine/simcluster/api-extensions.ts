/**
 * Composes the simulated API server's pure modules (defaulting and validation, tables, patching
 * and managedFields, OpenAPI) into the `ApiExtensions` the HTTP layer calls.
 */
import { openApiDocumentsFor } from './crd/openapi-documents.ts';
import { customPatchMeta, isCrdType, withApiExtensions } from './crd/strategy.ts';
import { createdAtTable, customResourceTable } from './crd/table.ts';
import { minorOf } from './controllers/version.ts';
import { applyDefaults, validate } from './defaults/index.ts';
import { unsupportedCustomResourcePatch } from './errors.ts';
import { definitionNameFor, definitions } from './openapi/index.ts';
import { applyPatch, recordUpdate } from './patch/index.ts';
import { patchMetaFromDefinitions, type PatchMeta } from './patch/patch-meta.ts';
import { BUILT_IN_REGISTRY } from './registry.ts';
import { apiVersionOf, type ResourceType } from './resources.ts';
import type { ApiExtensions } from './server/extensions.ts';
import type { KubeObject } from './types.ts';
import { toTable } from './tables/index.ts';

/** Fields each endpoint resets (never recorded as owned): status on the main resource. */
function resetFieldsFor(type: ResourceType, subresource: string | undefined): ReadonlyArray<readonly string[]> {
  if (subresource === 'status') return [['spec'], ['metadata']];
  return type.subresources.includes('status') ? [['status']] : [];
}

const metas = new Map<string, PatchMeta>();
/** A kind's merge metadata (from its OpenAPI definitions; a custom resource's from its CRD), built once. */
function metaFor(type: ResourceType): PatchMeta {
  if (type.custom) return customPatchMeta(type);
  const key = `${type.group}/${type.version}/${type.kind}`;
  let meta = metas.get(key);
  if (!meta) {
    meta = patchMetaFromDefinitions(definitions(), definitionNameFor(type.group, type.version, type.kind));
    metas.set(key, meta);
  }
  return meta;
}

/**
 * A controller's write as kube-apiserver records it: the controller (`kube-controller-manager`)
 * becomes the manager of the fields it changed, through `subresource` when it wrote one (the HPA
 * controller writes replicas through `/scale`). Who last set a field is what the app reads to tell
 * two controllers fighting over it.
 */
export function recordControllerWrite(args: { type: ResourceType; before: KubeObject; after: KubeObject; manager: string; now: number; subresource?: string }): KubeObject {
  const { type, subresource, ...rest } = args;
  return recordUpdate({ ...rest, operation: 'Update', meta: metaFor(type), ...(subresource ? { subresource } : {}), resetFields: resetFieldsFor(type, subresource) });
}

export function createApiExtensions(options: { version: string }): ApiExtensions {
  // Validation texts that changed between releases follow the version the server reports.
  const minor = minorOf(options.version);
  const strategy = withApiExtensions({ applyDefaults, validate: (type, object, old) => validate(type, object, old, { minor }) });
  const documents = (types = BUILT_IN_REGISTRY) => openApiDocumentsFor(types, options.version);
  return {
    applyDefaults: strategy.applyDefaults,
    validate: strategy.validate,
    toTable: (type, objects, tableOptions) => {
      if (type.custom) return customResourceTable(type, objects, tableOptions);
      if (isCrdType(type)) return createdAtTable(objects, tableOptions);
      return toTable(type, objects, tableOptions);
    },
    applyPatch: (args) => {
      const { type, ...rest } = args;
      // Custom resources have no Go types to merge strategically by (apiextensions' 415).
      if (type.custom && rest.contentType.split(';')[0]?.trim() === 'application/strategic-merge-patch+json') throw unsupportedCustomResourcePatch(rest.contentType);
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
    openapiV2Protobuf: (types) => documents(types).v2Protobuf(),
    openapiV2Json: (types) => documents(types).v2Json(),
    openapiV3Index: (types) => documents(types).v3Index(),
    openapiV3Document: (path, types) => documents(types).v3Document(path),
  };
}
