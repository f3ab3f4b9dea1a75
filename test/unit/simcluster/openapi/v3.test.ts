import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  openapiEtag,
  openapiV2Json,
  openapiV3Document,
  openapiV3DocumentJson,
  openapiV3Index,
} from '../../../../electron/engine/simcluster/openapi/index.ts';
import { RESOURCE_TYPES } from '../../../../electron/engine/simcluster/resources.ts';

const GROUP_VERSIONS = [
  'api/v1',
  'apis/apiextensions.k8s.io/v1',
  'apis/apps/v1',
  'apis/authentication.k8s.io/v1',
  'apis/authorization.k8s.io/v1',
  'apis/autoscaling/v2',
  'apis/batch/v1',
  'apis/events.k8s.io/v1',
  'apis/rbac.authorization.k8s.io/v1',
];

function sha512Upper(text: string): string {
  return createHash('sha512').update(text).digest('hex').toUpperCase();
}

function refsOf(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, into));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref') into.push(inner as string);
      else refsOf(inner, into);
    }
  }
  return into;
}

describe('OpenAPI v3', () => {
  it('indexes one document per served group version, addressed by the hash of its bytes', () => {
    const index = openapiV3Index();
    expect(Object.keys(index.paths).sort()).toEqual(GROUP_VERSIONS);
    for (const path of GROUP_VERSIONS) {
      const json = openapiV3DocumentJson(path);
      expect(json).toBeDefined();
      expect(JSON.parse(json ?? '')).toEqual(openapiV3Document(path));
      expect(index.paths[path]?.serverRelativeURL).toBe(`/openapi/v3/${path}?hash=${sha512Upper(json ?? '')}`);
    }
  });

  it('answers undefined for paths it does not serve', () => {
    expect(openapiV3Document('apis/apps/v2')).toBeUndefined();
    expect(openapiV3Document('apis/autoscaling/v1')).toBeUndefined();
  });

  it('publishes each group version as OpenAPI 3.0 whose references all resolve in components', () => {
    for (const path of GROUP_VERSIONS) {
      const doc = openapiV3Document(path, { version: 'v1.30.2' });
      expect(doc?.openapi).toBe('3.0.0');
      expect(doc?.info).toEqual({ title: 'Kubernetes', version: 'v1.30.2' });
      const refs = refsOf(doc);
      expect(refs.length).toBeGreaterThan(10);
      for (const ref of refs) {
        expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
        expect(doc?.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
      }
      for (const p of Object.keys(doc?.paths ?? {})) expect(p.startsWith(`/${path}/`), p).toBe(true);
    }
  });

  it('contains every kind of its group version with its GVK and a PATCH declaring dryRun in the query', () => {
    for (const type of RESOURCE_TYPES) {
      const path = type.group === '' ? 'api/v1' : `apis/${type.group}/${type.version}`;
      const doc = openapiV3Document(path);
      const gvk = { group: type.group, kind: type.kind, version: type.version };
      const tagged = Object.values(doc?.components.schemas ?? {}).filter((s) => JSON.stringify(s['x-kubernetes-group-version-kind']) === JSON.stringify([gvk]));
      expect(tagged, type.kind).toHaveLength(1);
      // The review kinds are create-only: no object path at all, as upstream.
      if (!type.verbs.includes('patch')) continue;
      const objectPath = type.namespaced ? `/${path}/namespaces/{namespace}/${type.plural}/{name}` : `/${path}/${type.plural}/{name}`;
      const patch = doc?.paths[objectPath]?.patch as Record<string, unknown>;
      expect(patch['x-kubernetes-group-version-kind']).toEqual(gvk);
      expect(patch.parameters).toContainEqual(expect.objectContaining({ name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } }));
      expect(Object.keys((patch.requestBody as { content: object }).content)).toContain('application/apply-patch+yaml');
    }
  });

  it('writes a described reference as allOf and the scalar unions as oneOf, as kube-apiserver does', () => {
    const schemas = openapiV3Document('apis/apps/v1')?.components.schemas ?? {};
    expect(schemas['io.k8s.api.apps.v1.DeploymentSpec']?.properties?.template).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec' }],
      description: expect.stringContaining('Template describes the pods'),
    });
    expect(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']?.oneOf).toEqual([{ type: 'string' }, { type: 'number' }]);
    expect(schemas['io.k8s.api.core.v1.PodSpec']?.properties?.containers?.['x-kubernetes-patch-merge-key']).toBe('name');
    expect(schemas['io.k8s.api.batch.v1.Job']).toBeUndefined();
  });

  it('tags the v2 document with a quoted SHA-512 ETag that follows the version', () => {
    expect(openapiEtag()).toBe(`"${sha512Upper(openapiV2Json())}"`);
    expect(openapiEtag({ version: 'v1.28.0' })).not.toBe(openapiEtag());
  });
});
