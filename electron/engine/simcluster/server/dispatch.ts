/**
 * Routes a parsed request to its handler: discovery, OpenAPI and health documents, or a verb on
 * a resource. Only the verbs a resource publishes in discovery are served; anything else is 405.
 */
import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors.ts';
import type { ResourceRegistry } from '../registry.ts';
import type { ApiRequest, Reply, ServerContext } from './context.ts';
import { aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.ts';
import { handleDelete, handleDeleteCollection } from './handlers-delete.ts';
import { handlePatch } from './handlers-patch.ts';
import { handleGet, handleList } from './handlers-read.ts';
import { handleCreate, handleUpdate } from './handlers-write.ts';
import { discoveryContentType, negotiateDiscovery } from './media.ts';
import { notFoundPath, type ResourceRoute, type Route } from './router.ts';
import { handleScaleGet, handleScaleUpdate } from './scale.ts';
import { serveWatch } from './watch-stream.ts';
import { boolParam } from './wire.ts';

function methodNotAllowed(): ApiError {
  return new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

function rootPaths(types: ResourceRegistry): string[] {
  const paths = ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/openapi/v2', '/openapi/v3', '/readyz', '/version'];
  for (const gv of types.groupVersions()) if (gv.group) paths.push(`/apis/${gv.group}`, `/apis/${gv.group}/${gv.version}`);
  return [...new Set(paths)].sort();
}

function discovery(ctx: ServerContext, req: ApiRequest, scope: 'api' | 'apis', plain: () => object): Reply {
  const format = negotiateDiscovery(req.headers.accept);
  if (!format) return { code: 200, body: plain() };
  return { code: 200, body: aggregatedDiscovery(scope, format, ctx.store.types), contentType: discoveryContentType(format) };
}

function nonResource(ctx: ServerContext, req: ApiRequest, route: Exclude<Route, ResourceRoute>): Reply {
  if (req.method !== 'GET') throw methodNotAllowed();
  const types = ctx.store.types;
  switch (route.kind) {
    case 'root':
      return { code: 200, body: { paths: rootPaths(types) } };
    case 'version':
      return { code: 200, body: versionInfo(ctx.kubernetesMinor) };
    case 'health':
      return { code: 200, body: 'ok', contentType: 'text/plain; charset=utf-8' };
    case 'apiVersions':
      return discovery(ctx, req, 'api', () => apiVersions(ctx.serverAddress()));
    case 'apiGroupList':
      return discovery(ctx, req, 'apis', () => apiGroupList(types));
    case 'apiGroup':
      return { code: 200, body: apiGroup(route.group, types) };
    case 'resourceList':
      return { code: 200, body: apiResourceList(route.group, route.version, types) };
    case 'openapiV2':
      // kubectl wants the gnostic protobuf document, typed as plain octets.
      if ((req.headers.accept ?? '').includes('protobuf')) return { code: 200, body: ctx.extensions.openapiV2Protobuf(types), contentType: 'application/octet-stream' };
      return { code: 200, body: ctx.extensions.openapiV2Json(types) };
    case 'openapiV3Index':
      return { code: 200, body: ctx.extensions.openapiV3Index(types) };
    case 'openapiV3Document': {
      const document = ctx.extensions.openapiV3Document(route.path, types);
      if (!document) throw notFoundPath();
      return { code: 200, body: document };
    }
  }
}

function named(route: ResourceRoute): route is ResourceRoute & { name: string } {
  return route.name !== undefined;
}

function resource(ctx: ServerContext, req: ApiRequest, route: ResourceRoute, res: ServerResponse): Reply | undefined {
  const { type } = route;
  const allows = (verb: string): boolean => type.verbs.includes(verb);
  const collectionWritable = route.namespace !== undefined || !type.namespaced;
  if (named(route)) {
    const sub = route.subresource;
    if (req.method === 'GET' && allows('get')) return sub === 'scale' ? handleScaleGet(ctx, route) : handleGet(ctx, req, route);
    if (req.method === 'PUT' && allows('update')) return sub === 'scale' ? handleScaleUpdate(ctx, req, route) : handleUpdate(ctx, req, route);
    if (req.method === 'PATCH' && allows('patch')) return handlePatch(ctx, req, route);
    if (req.method === 'DELETE' && !sub && allows('delete')) return handleDelete(ctx, req, route);
    throw methodNotAllowed();
  }
  if (req.method === 'GET' && boolParam(req, 'watch') && allows('watch')) {
    serveWatch(ctx, req, route, res);
    return undefined;
  }
  if (req.method === 'GET' && allows('list')) return handleList(ctx, req, route);
  if (req.method === 'POST' && collectionWritable && allows('create')) {
    if (type.custom?.terminating) throw new ApiError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', {});
    return handleCreate(ctx, req, route);
  }
  if (req.method === 'DELETE' && allows('deletecollection')) return handleDeleteCollection(ctx, req, route);
  throw methodNotAllowed();
}

/** A deprecated custom resource version warns on every request, as apiextensions does. */
function withDeprecation(route: ResourceRoute, reply: Reply | undefined): Reply | undefined {
  const warning = route.type.custom?.deprecationWarning;
  return reply && warning ? { ...reply, warnings: [...(reply.warnings ?? []), warning] } : reply;
}

/** Handles a request; returns the reply, or undefined when a watch stream took over `res`. */
export function dispatch(ctx: ServerContext, req: ApiRequest, route: Route, res: ServerResponse): Reply | undefined {
  return route.kind === 'resource' ? withDeprecation(route, resource(ctx, req, route, res)) : nonResource(ctx, req, route);
}
