/**
 * Response bodies in the negotiated format: plain objects and `<Kind>List`s, meta.k8s.io Tables
 * (kubectl get), or PartialObjectMetadata(List).
 */
import { apiVersionOf, type ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import type { ServerContext, ApiRequest } from './context.ts';
import type { IncludeObject, TableListMeta } from './extensions.ts';
import type { ObjectFormat } from './media.ts';

interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** The `includeObject` query parameter, when valid. */
export function includeObjectOf(req: ApiRequest): IncludeObject | undefined {
  const value = req.query.get('includeObject');
  return value === 'None' || value === 'Metadata' || value === 'Object' ? value : undefined;
}

function table(ctx: ServerContext, type: ResourceType, items: KubeObject[], format: { apiVersion: string }, includeObject: IncludeObject | undefined, listMeta: TableListMeta): Record<string, unknown> {
  const options = { now: ctx.now(), listMeta, ...(includeObject ? { includeObject } : {}) };
  const result = ctx.extensions.toTable(type, items, options) as Record<string, unknown>;
  return result['apiVersion'] === format.apiVersion ? result : { ...result, apiVersion: format.apiVersion };
}

function partial(object: KubeObject, apiVersion: string): object {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: object.metadata };
}

/** One object (already in wire form) in the negotiated format. */
export function presentObject(ctx: ServerContext, type: ResourceType, object: KubeObject, format: ObjectFormat, includeObject?: IncludeObject): unknown {
  if (format.format === 'table') return table(ctx, type, [object], format, includeObject, { resourceVersion: object.metadata.resourceVersion });
  if (format.format === 'partial') return partial(object, format.apiVersion);
  return object;
}

function compactMeta(meta: ListMeta): ListMeta {
  return {
    resourceVersion: meta.resourceVersion,
    ...(meta.continue ? { continue: meta.continue } : {}),
    ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}),
  };
}

/** A list of wire-form objects in the negotiated format. */
export function presentList(ctx: ServerContext, type: ResourceType, items: KubeObject[], meta: ListMeta, format: ObjectFormat, includeObject?: IncludeObject): unknown {
  const listMeta = compactMeta(meta);
  if (format.format === 'table') return table(ctx, type, items, format, includeObject, listMeta);
  if (format.format === 'partial') {
    return { kind: 'PartialObjectMetadataList', apiVersion: format.apiVersion, metadata: listMeta, items: items.map((o) => partial(o, format.apiVersion)) };
  }
  return { kind: type.custom?.listKind ?? `${type.kind}List`, apiVersion: apiVersionOf(type), metadata: listMeta, items };
}
