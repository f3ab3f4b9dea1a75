/**
 * The 403 kube-apiserver answers a denied request with (responsewriters.Forbidden with
 * forbiddenMessage, wrapped by apierrors.NewForbidden): `pods is forbidden: User "dev" cannot
 * list resource "pods" in API group "" at the cluster scope`, `deployments.apps "web" is
 * forbidden: ... in the namespace "shop"`, `forbidden: User "x" cannot get path "/metrics"`,
 * with RBAC's reason (a binding's missing role) after a colon when it has one.
 */
import { ApiError } from '../errors.ts';
import type { RequestAttributes } from './types.ts';

/** forbiddenMessage: what the user could not do, and where. */
export function forbiddenMessage(attributes: RequestAttributes): string {
  const user = attributes.user.name;
  if (!attributes.resourceRequest) return `User "${user}" cannot ${attributes.verb} path "${attributes.path}"`;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const scope = attributes.namespace ? `in the namespace "${attributes.namespace}"` : 'at the cluster scope';
  return `User "${user}" cannot ${attributes.verb} resource "${resource}" in API group "${attributes.apiGroup}" ${scope}`;
}

/** The 403 Status error for a denied request; `reason` is the authorizer's (may be empty). */
export function forbiddenError(attributes: RequestAttributes, reason = ''): ApiError {
  const message = reason ? `${forbiddenMessage(attributes)}: ${reason}` : forbiddenMessage(attributes);
  if (!attributes.resourceRequest) return new ApiError(403, 'Forbidden', `forbidden: ${message}`, {});
  const qualified = attributes.apiGroup ? `${attributes.resource}.${attributes.apiGroup}` : attributes.resource;
  const subject = attributes.name ? `${qualified} "${attributes.name}"` : qualified;
  return new ApiError(403, 'Forbidden', `${subject} is forbidden: ${message}`, {
    ...(attributes.name ? { name: attributes.name } : {}),
    ...(attributes.apiGroup ? { group: attributes.apiGroup } : {}),
    kind: attributes.resource,
  });
}
