/**
 * The authorizer attributes of a request, derived from its method, path and query alone as
 * kube-apiserver's RequestInfoFactory does (so an unknown resource is still authorized before it
 * is a 404): `/api/v1/...` and `/apis/<group>/<version>/...` with at least a resource are resource
 * requests, everything else (/version, /api, /apis/apps/v1, /openapi/v2) a non-resource path.
 * GET on a collection is list, or watch with `watch=true`; DELETE on a collection is
 * deletecollection; a `metadata.name=` field selector names the object of a list or watch; the
 * Namespace object's own name is its namespace.
 */
import type { Identity, RequestAttributes } from './types.ts';

const SPECIAL_VERBS = new Set(['proxy', 'watch']);
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function truthy(value: string | null): boolean {
  return value === 'true' || value === '1';
}

/** The object name a `metadata.name=<name>` (or `==`) field selector asks for, if it asks for exactly one. */
function nameFromFieldSelector(selector: string | null): string {
  if (!selector) return '';
  for (const term of selector.split(',')) {
    const match = /^\s*metadata\.name\s*==?\s*(.+?)\s*$/.exec(term);
    const name = match?.[1];
    if (name && !name.includes('/') && !name.includes('%') && name !== '.' && name !== '..') return name;
  }
  return '';
}

function methodVerb(method: string): string {
  switch (method) {
    case 'POST':
      return 'create';
    case 'GET':
    case 'HEAD':
      return 'get';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      return '';
  }
}

function segments(path: string): string[] {
  return path
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** Attributes of a request for a non-resource path such as /version or /openapi/v2. */
export function nonResourceAttributes(user: Identity, method: string, path: string): RequestAttributes {
  return { user, verb: method.toLowerCase(), resourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
}

/** The attributes of any request. */
export function requestAttributes(user: Identity, method: string, path: string, query: URLSearchParams): RequestAttributes {
  const all = segments(path);
  const prefix = all[0];
  if (all.length < 3 || (prefix !== 'api' && prefix !== 'apis')) return nonResourceAttributes(user, method, path);
  let parts = all.slice(1);
  let apiGroup = '';
  if (prefix === 'apis') {
    if (parts.length < 3) return nonResourceAttributes(user, method, path);
    apiGroup = parts[0] ?? '';
    parts = parts.slice(1);
  }
  const apiVersion = parts[0] ?? '';
  parts = parts.slice(1);
  let verb: string;
  if (SPECIAL_VERBS.has(parts[0] ?? '') && parts.length >= 2) {
    verb = parts[0] ?? '';
    parts = parts.slice(1);
  } else {
    verb = methodVerb(method);
  }
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1] ?? '';
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2] ?? '')) parts = parts.slice(2);
  }
  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  const subresource = parts.length >= 3 ? (parts[2] ?? '') : '';
  if (!name && verb === 'get') {
    verb = truthy(query.get('watch')) ? 'watch' : 'list';
    name = nameFromFieldSelector(query.get('fieldSelector'));
  } else if (!name && verb === 'watch') {
    name = nameFromFieldSelector(query.get('fieldSelector'));
  }
  if (!name && verb === 'delete') verb = 'deletecollection';
  return { user, verb, resourceRequest: true, path, apiGroup, apiVersion, resource, subresource, namespace, name };
}
