import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import { applyPatch, patchMetaFromDefinitions, type ApplyPatchArgs } from '../../../../electron/engine/simcluster/patch/index.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { DEPLOYMENT, definitions } from './fixtures.ts';

const meta = patchMetaFromDefinitions(definitions, DEPLOYMENT);
const NOW = Date.parse('2024-05-01T10:00:00Z');

const live: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', uid: 'u-1', resourceVersion: '7', creationTimestamp: '2024-05-01T09:00:00Z' },
  spec: { replicas: 1, template: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } } },
};

function patch(contentType: string, body: unknown, extra: Partial<ApplyPatchArgs> = {}): KubeObject {
  return applyPatch({ contentType, live, body: typeof body === 'string' ? body : JSON.stringify(body), now: NOW, meta, apiVersion: 'apps/v1', ...extra });
}

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

const containers = (object: KubeObject) => (object.spec as { template: { spec: { containers: Array<{ name: string; image: string }> } } }).template.spec.containers;

describe('applyPatch dispatches by Content-Type', () => {
  it('merges containers by name for application/strategic-merge-patch+json', () => {
    const result = patch('application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'a', image: 'z' }] } } } });
    expect(containers(result)).toEqual([{ name: 'a', image: 'z' }, { name: 'b', image: 'y' }]);
  });

  it('replaces the list for application/merge-patch+json', () => {
    const result = patch('application/merge-patch+json; charset=utf-8', { spec: { template: { spec: { containers: [{ name: 'a', image: 'z' }] } } } });
    expect(containers(result)).toEqual([{ name: 'a', image: 'z' }]);
  });

  it('runs operations for application/json-patch+json', () => {
    const result = patch('application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 4 }]);
    expect((result.spec as { replicas: number }).replicas).toBe(4);
  });

  it('applies YAML for application/apply-patch+yaml and records the field manager', () => {
    const body = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n';
    const result = patch('application/apply-patch+yaml', body, { fieldManager: 'kubectl', force: false });
    expect((result.spec as { replicas: number }).replicas).toBe(3);
    expect(result.metadata.managedFields).toEqual([
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: '2024-05-01T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    ]);
  });

  it('creates a missing object from an apply body sent as JSON, as kubectl apply --server-side does', () => {
    const body = JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'new' }, spec: { replicas: 1 } });
    const result = applyPatch({ contentType: 'application/apply-patch+yaml', live: undefined, body, fieldManager: 'kubectl', now: NOW, meta, apiVersion: 'apps/v1', kind: 'Deployment' });
    expect(result.metadata.name).toBe('new');
  });
});

describe('applyPatch refuses what kube-apiserver refuses', () => {
  it.each(['application/json', 'application/apply-patch+cbor', 'text/plain'])('answers %s with 415', (type) => {
    const error = failure(() => patch(type, {}));
    expect([error.code, error.reason]).toEqual([415, 'UnsupportedMediaType']);
    expect(error.message).toContain(type);
  });

  it('requires a fieldManager for apply (422 on PatchOptions)', () => {
    const error = failure(() => patch('application/apply-patch+yaml', '{}'));
    expect(error.toStatus()).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      details: { causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] },
    });
  });

  it('forbids force on non-apply patches', () => {
    const error = failure(() => patch('application/merge-patch+json', {}, { force: true }));
    expect([error.code, error.message]).toEqual([422, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch']);
  });

  it('answers undecodable bodies with 400', () => {
    expect(failure(() => patch('application/strategic-merge-patch+json', '{nope')).code).toBe(400);
    expect(failure(() => patch('application/merge-patch+json', 'null')).message).toBe('Invalid JSON Patch');
    const yaml = failure(() => patch('application/apply-patch+yaml', 'a: [1', { fieldManager: 'm' }));
    expect([yaml.code, yaml.message.startsWith('error decoding YAML: ')]).toEqual([400, true]);
    const list = failure(() => patch('application/apply-patch+yaml', '- a', { fieldManager: 'm' }));
    expect(list.message).toBe('error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');
  });

  it('refuses a patch whose result is not an object with 422 on the patch field', () => {
    const error = failure(() => patch('application/json-patch+json', [{ op: 'replace', path: '', value: [] }]));
    expect(error.code).toBe(422);
    expect(error.details?.causes?.[0]?.field).toBe('patch');
  });

  it('needs the stored object for non-apply patches', () => {
    expect(() => applyPatch({ contentType: 'application/merge-patch+json', live: undefined, body: '{}', now: NOW, meta, apiVersion: 'apps/v1' })).toThrow(ApiError);
  });

  it('leaves the stored object untouched', () => {
    const snapshot = structuredClone(live);
    patch('application/strategic-merge-patch+json', { spec: { replicas: 9 } });
    patch('application/json-patch+json', [{ op: 'remove', path: '/spec/replicas' }]);
    patch('application/apply-patch+yaml', '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2}}', { fieldManager: 'x' });
    expect(live).toEqual(snapshot);
  });
});
