import { describe, expect, it } from 'vitest';
import { openapiV2Document, openapiV2Json } from '../../../../electron/engine/simcluster/openapi/index.ts';
import type { Parameter } from '../../../../electron/engine/simcluster/openapi/parameters.ts';
import type { Operation } from '../../../../electron/engine/simcluster/openapi/paths.ts';
import { RESOURCE_TYPES } from '../../../../electron/engine/simcluster/resources.ts';

const doc = openapiV2Document({ version: 'v1.32.4' });

function op(path: string, method: 'get' | 'put' | 'post' | 'delete' | 'patch'): Operation {
  const operation = doc.paths[path]?.[method];
  if (!operation) throw new Error(`no ${method} on ${path}`);
  return operation;
}

function queryNames(operation: Operation): string[] {
  return (operation.parameters ?? []).filter((p: Parameter) => p.in === 'query').map((p) => p.name);
}

function objectPath(type: (typeof RESOURCE_TYPES)[number]): string {
  const prefix = type.group === '' ? '/api/v1' : `/apis/${type.group}/${type.version}`;
  return type.namespaced ? `${prefix}/namespaces/{namespace}/${type.plural}/{name}` : `${prefix}/${type.plural}/{name}`;
}

describe('OpenAPI v2 document', () => {
  it('is a swagger 2.0 document titled Kubernetes with the server version', () => {
    expect(doc.swagger).toBe('2.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: 'v1.32.4' });
    expect(JSON.parse(openapiV2Json({ version: 'v1.27.3' })).info.version).toBe('v1.27.3');
  });

  it('declares PATCH with dryRun, fieldManager, fieldValidation, force and the GVK on every object path', () => {
    for (const type of RESOURCE_TYPES.filter((t) => t.verbs.includes('patch'))) {
      const patch = op(objectPath(type), 'patch');
      expect(queryNames(patch), type.kind).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
      expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: type.group, kind: type.kind, version: type.version });
      expect(patch['x-kubernetes-action']).toBe('patch');
      expect(patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
      expect(patch.parameters?.find((p) => p.in === 'body')?.schema?.$ref).toBe('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
    }
  });

  it('declares dryRun, fieldManager and fieldValidation on POST and PUT', () => {
    const post = op('/apis/apps/v1/namespaces/{namespace}/deployments', 'post');
    expect(queryNames(post)).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(post.parameters?.[0]).toEqual({ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.api.apps.v1.Deployment' } });
    expect(queryNames(op('/api/v1/namespaces/{namespace}/pods/{name}', 'put'))).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(queryNames(op('/api/v1/namespaces/{namespace}/pods/{name}', 'delete'))).toEqual(['dryRun', 'gracePeriodSeconds', 'orphanDependents', 'propagationPolicy']);
  });

  it('names operations and actions as kube-apiserver does', () => {
    expect(op('/api/v1/namespaces/{namespace}/pods', 'get')).toMatchObject({ operationId: 'listCoreV1NamespacedPod', 'x-kubernetes-action': 'list' });
    expect(op('/api/v1/namespaces/{namespace}/pods', 'post')).toMatchObject({ operationId: 'createCoreV1NamespacedPod', 'x-kubernetes-action': 'post' });
    expect(op('/api/v1/namespaces/{namespace}/pods', 'delete')).toMatchObject({ operationId: 'deleteCoreV1CollectionNamespacedPod', 'x-kubernetes-action': 'deletecollection' });
    expect(op('/api/v1/pods', 'get')).toMatchObject({ operationId: 'listCoreV1PodForAllNamespaces', 'x-kubernetes-action': 'list' });
    expect(op('/api/v1/nodes/{name}', 'get')).toMatchObject({ operationId: 'readCoreV1Node', 'x-kubernetes-action': 'get' });
    expect(op('/apis/apps/v1/namespaces/{namespace}/deployments/{name}', 'put').operationId).toBe('replaceAppsV1NamespacedDeployment');
    expect(op('/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status', 'patch').operationId).toBe('patchAppsV1NamespacedDeploymentStatus');
    expect(op('/apis/events.k8s.io/v1/namespaces/{namespace}/events', 'get').operationId).toBe('listEventsV1NamespacedEvent');
    expect(op('/apis/autoscaling/v2/namespaces/{namespace}/horizontalpodautoscalers/{name}', 'get').operationId).toBe('readAutoscalingV2NamespacedHorizontalPodAutoscaler');
    expect(op('/apis/apps/v1/watch/namespaces/{namespace}/deployments', 'get')).toMatchObject({ operationId: 'watchAppsV1NamespacedDeploymentList', 'x-kubernetes-action': 'watchlist' });
    expect(op('/apis/batch/v1/watch/jobs', 'get').operationId).toBe('watchBatchV1JobListForAllNamespaces');
  });

  it('serves /status for every kind with it and /scale as autoscaling/v1 Scale', () => {
    for (const type of RESOURCE_TYPES) {
      for (const sub of type.subresources) {
        const patch = op(`${objectPath(type)}/${sub}`, 'patch');
        expect(queryNames(patch)).toContain('dryRun');
        const gvk = sub === 'scale' ? { group: 'autoscaling', kind: 'Scale', version: 'v1' } : { group: type.group, kind: type.kind, version: type.version };
        expect(patch['x-kubernetes-group-version-kind']).toEqual(gvk);
      }
    }
    expect(op('/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', 'get').responses['200']?.schema?.$ref).toBe('#/definitions/io.k8s.api.autoscaling.v1.Scale');
    expect(doc.paths['/apis/apps/v1/namespaces/{namespace}/daemonsets/{name}/scale']).toBeUndefined();
  });

  it('offers only the verbs a kind serves', () => {
    expect(doc.paths['/api/v1/namespaces']?.delete).toBeUndefined();
    expect(doc.paths['/api/v1/namespaces']?.post).toBeDefined();
    expect(doc.paths['/api/v1/namespaces/{namespace}/namespaces']).toBeUndefined();
  });

  it('declares the path and list parameters on path items', () => {
    const item = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    expect(item?.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['path:name', 'path:namespace', 'query:pretty']);
    expect(item?.parameters?.[0]).toMatchObject({ required: true, type: 'string' });
    expect(queryNames(op('/apis/apps/v1/namespaces/{namespace}/deployments', 'get'))).toEqual(
      expect.arrayContaining(['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'watch', 'allowWatchBookmarks', 'sendInitialEvents', 'timeoutSeconds']),
    );
  });

  it('references only published definitions from its operations', () => {
    const refs = JSON.stringify(doc.paths).match(/"\$ref":"#\/definitions\/[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs) expect(doc.definitions[ref.slice('"$ref":"#/definitions/'.length, -1)], ref).toBeDefined();
  });
});
