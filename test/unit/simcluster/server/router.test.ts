import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../../../electron/engine/simcluster/server/router.ts';

function resource(path: string): { id: string; namespace?: string; name?: string; subresource?: string } | undefined {
  const route = parseRoute(path);
  if (!route) return undefined;
  if (route.kind !== 'resource') throw new Error(`${path} is ${route.kind}`);
  const { type, kind: _kind, ...rest } = route;
  return { id: `${type.group}/${type.version}/${type.plural}`, ...rest };
}

describe('parseRoute', () => {
  it('reads namespaced, all-namespaces and cluster-scoped resource paths', () => {
    expect(resource('/apis/apps/v1/namespaces/shop/deployments/web/scale')).toEqual({ id: 'apps/v1/deployments', namespace: 'shop', name: 'web', subresource: 'scale' });
    expect(resource('/api/v1/namespaces/shop/pods')).toEqual({ id: '/v1/pods', namespace: 'shop' });
    expect(resource('/api/v1/pods')).toEqual({ id: '/v1/pods' });
    expect(resource('/api/v1/nodes/node-1/status')).toEqual({ id: '/v1/nodes', name: 'node-1', subresource: 'status' });
    expect(resource('/apis/events.k8s.io/v1/namespaces/shop/events')).toEqual({ id: 'events.k8s.io/v1/events', namespace: 'shop' });
  });

  it('treats /api/v1/namespaces/<name> as the Namespace object and its status', () => {
    expect(resource('/api/v1/namespaces')).toEqual({ id: '/v1/namespaces' });
    expect(resource('/api/v1/namespaces/shop')).toEqual({ id: '/v1/namespaces', name: 'shop' });
    expect(resource('/api/v1/namespaces/shop/status')).toEqual({ id: '/v1/namespaces', name: 'shop', subresource: 'status' });
  });

  it('rejects paths no real server serves', () => {
    for (const path of [
      '/apis/apps/v2/deployments',
      '/apis/apps/v1/namespaces/shop/deployments/web/exec',
      '/api/v1/namespaces/shop/configmaps/app/status',
      '/api/v1/pods/web',
      '/api/v1/namespaces/shop/nodes',
      '/api/v1/namespaces/shop/pods/web/status/extra',
      '/api/v2',
      '/apis/v1',
      '/nope',
      '/version/extra',
    ]) {
      expect(parseRoute(path), path).toBeUndefined();
    }
  });

  it('recognises discovery, OpenAPI and health paths', () => {
    expect(parseRoute('/')).toEqual({ kind: 'root' });
    expect(parseRoute('/version')).toEqual({ kind: 'version' });
    expect(parseRoute('/version/')).toEqual({ kind: 'version' });
    expect(parseRoute('/api')).toEqual({ kind: 'apiVersions' });
    expect(parseRoute('/apis')).toEqual({ kind: 'apiGroupList' });
    expect(parseRoute('/apis/apps')).toEqual({ kind: 'apiGroup', group: 'apps' });
    expect(parseRoute('/api/v1')).toEqual({ kind: 'resourceList', group: '', version: 'v1' });
    expect(parseRoute('/apis/autoscaling/v2')).toEqual({ kind: 'resourceList', group: 'autoscaling', version: 'v2' });
    expect(parseRoute('/openapi/v2')).toEqual({ kind: 'openapiV2' });
    expect(parseRoute('/openapi/v3')).toEqual({ kind: 'openapiV3Index' });
    expect(parseRoute('/openapi/v3/apis/apps/v1')).toEqual({ kind: 'openapiV3Document', path: 'apis/apps/v1' });
    expect(parseRoute('/livez/ping')).toEqual({ kind: 'health', check: 'livez/ping' });
  });

  it('decodes percent-encoded segments', () => {
    expect(resource('/api/v1/namespaces/shop/configmaps/kube%2Droot')).toEqual({ id: '/v1/configmaps', namespace: 'shop', name: 'kube-root' });
    expect(parseRoute('/api/v1/namespaces/%E0%A4%A')).toBeUndefined();
  });
});
