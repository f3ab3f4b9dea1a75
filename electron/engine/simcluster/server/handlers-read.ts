/**
 * GET of one object and LIST of a collection, in JSON, Table or PartialObjectMetadata form.
 */
import { ApiError, notFound } from '../errors.ts';
import { listObjects, type ListResult } from '../list.ts';
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import type { ApiRequest, Reply, ServerContext } from './context.ts';
import { negotiateObjectFormat } from './media.ts';
import { includeObjectOf, presentList, presentObject } from './present.ts';
import type { ResourceRoute } from './router.ts';
import { jsonListBody, jsonListBytes } from './streamed-body.ts';
import { selectorsOf, storageType, toWire } from './wire.ts';

/** The live object a named route addresses, in wire form; 404 with the client's resource name. */
export function liveObject(ctx: ServerContext, route: ResourceRoute & { name: string }): KubeObject {
  const stored = ctx.store.find(storageType(route.type), route.namespace, route.name);
  if (!stored) throw notFound(route.type.plural, route.type.group, route.name);
  return toWire(route.type, stored);
}

/** GET of one object (also /status). */
export function handleGet(ctx: ServerContext, req: ApiRequest, route: ResourceRoute & { name: string }): Reply {
  const format = negotiateObjectFormat(req.headers.accept);
  const object = liveObject(ctx, route);
  return { code: 200, body: presentObject(ctx, route.type, object, format, includeObjectOf(req)) };
}

function isEvents(type: ResourceType): boolean {
  return type.kind === 'Event';
}

function parseLimit(text: string | null): number | undefined {
  if (!text) return undefined;
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** LIST with selectors, paging and resourceVersion semantics; the Events quirk when enabled. */
export function handleList(ctx: ServerContext, req: ApiRequest, route: ResourceRoute): Reply {
  const format = negotiateObjectFormat(req.headers.accept);
  const { type } = route;
  const resourceVersion = req.query.get('resourceVersion') ?? undefined;
  let result: ListResult;
  try {
    result = listObjects(ctx.store, storageType(type), {
      namespace: route.namespace,
      ...selectorsOf(req, type),
      limit: parseLimit(req.query.get('limit')),
      continueToken: req.query.get('continue') ?? undefined,
      resourceVersion,
      resourceVersionMatch: req.query.get('resourceVersionMatch') ?? undefined,
    });
  } catch (error) {
    // Some real clusters answer a stale Events list with an empty 200 instead of 410.
    if (error instanceof ApiError && error.code === 410 && isEvents(type) && resourceVersion && ctx.faults.state.emptyListOnStaleEvents) {
      result = { items: [], resourceVersion: String(ctx.store.currentRv()) };
    } else {
      throw error;
    }
  }
  const items = result.items.map((o) => toWire(type, o));
  const meta = {
    resourceVersion: result.resourceVersion,
    ...(result.continueToken ? { continue: result.continueToken } : {}),
    ...(result.remainingItemCount !== undefined ? { remainingItemCount: result.remainingItemCount } : {}),
  };
  const list = presentList(ctx, type, items, meta, format, includeObjectOf(req)) as Record<string, unknown>;
  if (format.format === 'json') return { code: 200, body: jsonListBytes(list, 'items', (item) => ctx.store.toJsonBytes(item as KubeObject)) };
  return { code: 200, body: jsonListBody(list, format.format === 'table' ? 'rows' : 'items') };
}
