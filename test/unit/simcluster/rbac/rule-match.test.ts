import { describe, expect, it } from 'vitest';
import { nonResourceAttributes, requestAttributes } from '../../../../electron/engine/simcluster/rbac/request-attributes.ts';
import { ruleAllows } from '../../../../electron/engine/simcluster/rbac/rule-match.ts';
import type { Identity, PolicyRule, RequestAttributes } from '../../../../electron/engine/simcluster/rbac/types.ts';

const dev: Identity = { name: 'dev', groups: ['system:authenticated'] };

function attrs(partial: Partial<RequestAttributes>): RequestAttributes {
  return { user: dev, verb: 'get', resourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', namespace: 'shop', name: '', ...partial };
}

describe('RBAC rule matching', () => {
  const podReader: PolicyRule = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] };

  it('matches a listed verb, group and resource and nothing else', () => {
    expect(ruleAllows(podReader, attrs({ verb: 'list' }))).toBe(true);
    expect(ruleAllows(podReader, attrs({ verb: 'delete' }))).toBe(false);
    expect(ruleAllows(podReader, attrs({ apiGroup: 'apps', resource: 'pods' }))).toBe(false);
    expect(ruleAllows(podReader, attrs({ resource: 'services' }))).toBe(false);
  });

  it('needs the subresource spelled out: pods does not cover pods/log', () => {
    expect(ruleAllows(podReader, attrs({ subresource: 'log' }))).toBe(false);
    expect(ruleAllows({ ...podReader, resources: ['pods', 'pods/log'] }, attrs({ subresource: 'log' }))).toBe(true);
  });

  it('takes */<subresource> for that subresource of every resource, and * for everything', () => {
    const scaler: PolicyRule = { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] };
    expect(ruleAllows(scaler, attrs({ verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }))).toBe(true);
    expect(ruleAllows(scaler, attrs({ verb: 'update', apiGroup: 'apps', resource: 'deployments' }))).toBe(false);
    const all: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
    expect(ruleAllows(all, attrs({ verb: 'deletecollection', apiGroup: 'batch', resource: 'jobs', subresource: 'status' }))).toBe(true);
  });

  it('limits a rule with resourceNames to those names; an empty list means any name', () => {
    const one: PolicyRule = { ...podReader, resourceNames: ['web-0'] };
    expect(ruleAllows(one, attrs({ name: 'web-0' }))).toBe(true);
    expect(ruleAllows(one, attrs({ name: 'web-1' }))).toBe(false);
    // A list has no name, so a named rule never allows it.
    expect(ruleAllows(one, attrs({ verb: 'list' }))).toBe(false);
    expect(ruleAllows({ ...podReader, resourceNames: [] }, attrs({ name: 'web-1' }))).toBe(true);
  });

  it('matches non-resource URLs exactly, by a trailing * prefix, or all with *', () => {
    const discovery: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/api', '/apis/*', '/version'] };
    expect(ruleAllows(discovery, nonResourceAttributes(dev, 'GET', '/api'))).toBe(true);
    expect(ruleAllows(discovery, nonResourceAttributes(dev, 'GET', '/apis/apps/v1'))).toBe(true);
    expect(ruleAllows(discovery, nonResourceAttributes(dev, 'GET', '/api/v1'))).toBe(false);
    expect(ruleAllows(discovery, nonResourceAttributes(dev, 'POST', '/version'))).toBe(false);
    expect(ruleAllows({ verbs: ['*'], nonResourceURLs: ['*'] }, nonResourceAttributes(dev, 'GET', '/metrics'))).toBe(true);
    // Resource rules never open paths, and URL rules never open resources.
    expect(ruleAllows({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, nonResourceAttributes(dev, 'GET', '/version'))).toBe(false);
    expect(ruleAllows({ verbs: ['*'], nonResourceURLs: ['*'] }, attrs({}))).toBe(false);
  });
});

describe('request attributes, as kube-apiserver derives them from the request', () => {
  const q = (query = '') => new URLSearchParams(query);
  const pick = (a: RequestAttributes) => [a.verb, a.apiGroup, a.resource, a.subresource, a.namespace, a.name];

  it('maps methods to verbs, collections to list, watch and deletecollection', () => {
    expect(pick(requestAttributes(dev, 'GET', '/api/v1/pods', q()))).toEqual(['list', '', 'pods', '', '', '']);
    expect(pick(requestAttributes(dev, 'GET', '/api/v1/namespaces/shop/pods', q('watch=true')))).toEqual(['watch', '', 'pods', '', 'shop', '']);
    expect(pick(requestAttributes(dev, 'GET', '/apis/apps/v1/namespaces/shop/deployments/web', q()))).toEqual(['get', 'apps', 'deployments', '', 'shop', 'web']);
    expect(pick(requestAttributes(dev, 'PATCH', '/apis/apps/v1/namespaces/shop/deployments/web/scale', q()))).toEqual(['patch', 'apps', 'deployments', 'scale', 'shop', 'web']);
    expect(pick(requestAttributes(dev, 'DELETE', '/api/v1/namespaces/shop/configmaps', q()))).toEqual(['deletecollection', '', 'configmaps', '', 'shop', '']);
    expect(pick(requestAttributes(dev, 'POST', '/api/v1/namespaces/shop/serviceaccounts/bot/token', q()))).toEqual(['create', '', 'serviceaccounts', 'token', 'shop', 'bot']);
    expect(pick(requestAttributes(dev, 'PUT', '/api/v1/nodes/worker-1/status', q()))).toEqual(['update', '', 'nodes', 'status', '', 'worker-1']);
  });

  it('names the object of a list or watch with a metadata.name field selector (kubectl get pod x -w)', () => {
    expect(pick(requestAttributes(dev, 'GET', '/api/v1/namespaces/shop/pods', q('watch=1&fieldSelector=metadata.name%3Dweb-0')))).toEqual(['watch', '', 'pods', '', 'shop', 'web-0']);
  });

  it('gives a Namespace object its own name as namespace', () => {
    expect(pick(requestAttributes(dev, 'GET', '/api/v1/namespaces/shop', q()))).toEqual(['get', '', 'namespaces', '', 'shop', 'shop']);
    expect(pick(requestAttributes(dev, 'PUT', '/api/v1/namespaces/shop/finalize', q()))).toEqual(['update', '', 'namespaces', 'finalize', 'shop', 'shop']);
  });

  it('treats discovery documents and other paths as non-resource requests', () => {
    for (const path of ['/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/version', '/openapi/v2']) {
      const a = requestAttributes(dev, 'GET', path, q());
      expect([a.resourceRequest, a.verb, a.path], path).toEqual([false, 'get', path]);
    }
  });
});
