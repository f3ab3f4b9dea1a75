/**
 * A minimal ApiExtensions for the HTTP layer's tests: identity defaulting, no validation causes,
 * a NAME/AGE table, JSON merge patch, and "apply" as a merge of the manifest.
 */
import { unsupportedMediaType, type StatusCause } from '../../../../electron/engine/simcluster/errors.ts';
import type { ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import type { ApiExtensions, TableOptions } from '../../../../electron/engine/simcluster/server/extensions.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

function age(created: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(created)) / 1000));
  return seconds < 120 ? `${seconds}s` : `${Math.floor(seconds / 60)}m`;
}

export function testTable(_type: ResourceType, objects: KubeObject[], options: TableOptions): object {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: options.listMeta ?? {},
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', priority: 0 },
      { name: 'Age', type: 'string', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', priority: 0 },
    ],
    rows: objects.map((o) => ({
      cells: [o.metadata.name, age(o.metadata.creationTimestamp, options.now)],
      ...(options.includeObject === 'None'
        ? {}
        : { object: options.includeObject === 'Object' ? o : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata } }),
    })),
  };
}

export interface TestExtensionOverrides {
  validate?: (type: ResourceType, object: KubeObject, old?: KubeObject) => StatusCause[];
  applyDefaults?: (type: ResourceType, object: KubeObject) => KubeObject;
}

export function testExtensions(overrides: TestExtensionOverrides = {}): ApiExtensions {
  return {
    applyDefaults: overrides.applyDefaults ?? ((_type, object) => object),
    validate: overrides.validate ?? (() => []),
    toTable: testTable,
    applyPatch({ contentType, live, body }) {
      if (contentType === 'application/merge-patch+json') return mergePatch(live, JSON.parse(body)) as KubeObject;
      if (contentType === 'application/apply-patch+yaml') return mergePatch(live ?? {}, JSON.parse(body)) as KubeObject;
      throw unsupportedMediaType(contentType);
    },
    openapiV2Protobuf: () => Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]),
    openapiV2Json: () => ({ swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.32.6' }, paths: {} }),
    openapiV3Index: () => ({ paths: { 'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=TEST' } } }),
    openapiV3Document: (path) => (path === 'api/v1' ? { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.6' }, paths: {} } : undefined),
  };
}
