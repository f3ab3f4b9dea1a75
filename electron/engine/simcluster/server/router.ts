/**
 * Maps request paths to what they address, the way kube-apiserver's mux does: discovery,
 * OpenAPI, health checks, and resource paths (`/api/v1/[namespaces/<ns>/]<plural>[/<name>[/<sub>]]`,
 * `/apis/<group>/<version>/...`). Anything else is a 404.
 */
import { ApiError } from '../errors.ts';
import { BUILT_IN_REGISTRY, type ResourceRegistry } from '../registry.ts';
import type { ResourceType } from '../resources.ts';

/** What a request path addresses. */
export type Route =
  | { kind: 'root' }
  | { kind: 'version' }
  | { kind: 'health'; check: string }
  | { kind: 'apiVersions' }
  | { kind: 'apiGroupList' }
  | { kind: 'apiGroup'; group: string }
  | { kind: 'resourceList'; group: string; version: string }
  | { kind: 'openapiV2' }
  | { kind: 'openapiV3Index' }
  | { kind: 'openapiV3Document'; path: string }
  | ResourceRoute;

/** A resource path: collection, object, or object subresource. */
export interface ResourceRoute {
  kind: 'resource';
  type: ResourceType;
  /** Set for namespaced paths; absent for cluster-scoped and all-namespaces paths. */
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** The body kube-apiserver answers for a path it does not serve. */
export function notFoundPath(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

function servesGroupVersion(types: ResourceRegistry, group: string, version: string): boolean {
  return types.groupVersions().some((gv) => gv.group === group && gv.version === version);
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function resourceRoute(types: ResourceRegistry, group: string, version: string, rest: string[]): ResourceRoute | undefined {
  const [first, second, third, fourth, fifth, ...extra] = rest;
  if (first === undefined) return undefined;
  if (first === 'namespaces' && second !== undefined && third !== undefined) {
    const namespaced = types.byGVR(group, version, third);
    if (namespaced?.namespaced) {
      if (extra.length > 0) return undefined;
      return withName({ kind: 'resource', type: namespaced, namespace: second }, fourth, fifth);
    }
  }
  const type = types.byGVR(group, version, first);
  if (!type) return undefined;
  if (type.namespaced) {
    // All-namespaces paths address collections only.
    return second === undefined ? { kind: 'resource', type } : undefined;
  }
  if (fourth !== undefined) return undefined;
  return withName({ kind: 'resource', type }, second, third);
}

function withName(route: ResourceRoute, name: string | undefined, subresource: string | undefined): ResourceRoute | undefined {
  if (name === undefined) return route;
  if (name === '') return undefined;
  if (subresource === undefined) return { ...route, name };
  if (!(route.type.subresources as string[]).includes(subresource)) return undefined;
  return { ...route, name, subresource };
}

/** The route for a URL path (already stripped of its query) among what `types` serves, or undefined for a 404. */
export function parseRoute(pathname: string, types: ResourceRegistry = BUILT_IN_REGISTRY): Route | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (trimmed === '/') return { kind: 'root' };
  const raw = trimmed.split('/').slice(1);
  const segments: string[] = [];
  for (const s of raw) {
    const d = decode(s);
    if (d === undefined) return undefined;
    segments.push(d);
  }
  const [head, a, b, ...rest] = segments;
  switch (head) {
    case 'version':
      return a === undefined ? { kind: 'version' } : undefined;
    case 'healthz':
    case 'livez':
    case 'readyz':
      return { kind: 'health', check: segments.join('/') };
    case 'openapi':
      if (a === 'v2' && b === undefined) return { kind: 'openapiV2' };
      if (a === 'v3' && b === undefined) return { kind: 'openapiV3Index' };
      if (a === 'v3') return { kind: 'openapiV3Document', path: segments.slice(2).join('/') };
      return undefined;
    case 'api':
      if (a === undefined) return { kind: 'apiVersions' };
      if (!servesGroupVersion(types, '', a)) return undefined;
      if (b === undefined) return { kind: 'resourceList', group: '', version: a };
      return resourceRoute(types, '', a, [b, ...rest]);
    case 'apis':
      if (a === undefined) return { kind: 'apiGroupList' };
      if (b === undefined) return types.groupVersions().some((gv) => gv.group === a && a !== '') ? { kind: 'apiGroup', group: a } : undefined;
      if (!servesGroupVersion(types, a, b) || a === '') return undefined;
      if (rest.length === 0) return { kind: 'resourceList', group: a, version: b };
      return resourceRoute(types, a, b, rest);
    default:
      return undefined;
  }
}
