/**
 * User impersonation (`kubectl --as NAME [--as-group G]`): the Impersonate-User and
 * Impersonate-Group headers replace the requester's identity once the requester may `impersonate`
 * that user (`users`, or `serviceaccounts` in their namespace for a ServiceAccount) and each
 * group (`groups`), as kube-apiserver's impersonation filter checks them; a denial is its 403.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Authorizer } from './authorizer.ts';
import { forbiddenError } from './forbidden.ts';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, serviceAccountGroups, type Identity, type RequestAttributes } from './types.ts';

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

function headerValues(headers: IncomingHttpHeaders, name: string): string[] {
  const value = headers[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : value.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

function check(authorizer: Authorizer, requester: Identity, resource: string, name: string, namespace = ''): void {
  const attributes: RequestAttributes = { user: requester, verb: 'impersonate', resourceRequest: true, path: '', apiGroup: '', apiVersion: '', resource, subresource: '', namespace, name };
  const decision = authorizer.authorize(attributes);
  if (!decision.allowed) throw forbiddenError(attributes, decision.reason);
}

/** The identity a request acts as: the requester, or the user it may impersonate. */
export function impersonate(authorizer: Authorizer, requester: Identity, headers: IncomingHttpHeaders): Identity {
  const user = headerValues(headers, 'impersonate-user')[0];
  const groups = headerValues(headers, 'impersonate-group');
  if (user === undefined) return requester;
  let impliedGroups: string[] = [];
  if (user.startsWith(SERVICE_ACCOUNT_PREFIX)) {
    const [namespace = '', name = ''] = user.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
    check(authorizer, requester, 'serviceaccounts', name, namespace);
    if (groups.length === 0) impliedGroups = serviceAccountGroups(namespace);
  } else {
    check(authorizer, requester, 'users', user);
  }
  for (const group of groups) check(authorizer, requester, 'groups', group);
  const all = [...groups, ...impliedGroups];
  if (user !== ANONYMOUS_USER && !all.includes(AUTHENTICATED_GROUP)) all.push(AUTHENTICATED_GROUP);
  return { name: user, groups: all };
}
