/**
 * Optional bearer-token authentication with a read-write and a read-only user, and the
 * RBAC-style 403 the read-only user gets on mutating verbs (upstream's forbiddenMessage).
 */
import { ApiError, unauthorized } from '../errors.ts';
import type { ResourceRoute, Route } from './router.ts';

/** Bearer tokens the server accepts; none set means every request is the read-write user. */
export interface Tokens {
  readWrite?: string;
  readOnly?: string;
}

/** The user behind the read-write token (and every request when no tokens are set). */
export const READ_WRITE_USER = 'admin';
/** The user behind the read-only token, named in its 403 messages. */
export const READ_ONLY_USER = 'readonly';

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** Paths the system:public-info-viewer role opens to everyone. */
function isPublic(route: Route | undefined): boolean {
  return route?.kind === 'version' || route?.kind === 'health';
}

/** The user for a request; 401 when tokens are configured and none of them was presented. */
export function authenticate(tokens: Tokens | undefined, authorization: string | undefined, route: Route | undefined): string {
  if (!tokens || (!tokens.readWrite && !tokens.readOnly)) return READ_WRITE_USER;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const token = match?.[1];
  if (token && token === tokens.readWrite) return READ_WRITE_USER;
  if (token && token === tokens.readOnly) return READ_ONLY_USER;
  if (isPublic(route)) return 'system:anonymous';
  throw unauthorized();
}

/** The RBAC verb of a resource request. */
export function verbOf(method: string, route: ResourceRoute, watch: boolean): string {
  switch (method) {
    case 'GET':
      if (watch) return 'watch';
      return route.name === undefined ? 'list' : 'get';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return route.name === undefined ? 'deletecollection' : 'delete';
    default:
      return method.toLowerCase();
  }
}

/** 403 Forbidden for the read-only user's writes, worded like the RBAC authorizer. */
export function authorize(user: string, verb: string, route: ResourceRoute): void {
  if (user !== READ_ONLY_USER || !MUTATING.has(verb)) return;
  const { type } = route;
  const resource = route.subresource ? `${type.plural}/${route.subresource}` : type.plural;
  // For the namespace object itself the request's namespace is its own name.
  const namespace = route.namespace ?? (type.plural === 'namespaces' && type.group === '' ? route.name : undefined);
  const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
  const reason = `User "${user}" cannot ${verb} resource "${resource}" in API group "${type.group}" ${scope}`;
  const qualified = type.group ? `${type.plural}.${type.group}` : type.plural;
  const subject = route.name ? `${qualified} "${route.name}"` : qualified;
  throw new ApiError(403, 'Forbidden', `${subject} is forbidden: ${reason}`, {
    ...(route.name ? { name: route.name } : {}),
    ...(type.group ? { group: type.group } : {}),
    kind: type.plural,
  });
}
