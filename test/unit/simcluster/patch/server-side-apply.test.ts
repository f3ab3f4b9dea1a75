import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import { patchMetaFromDefinitions } from '../../../../electron/engine/simcluster/patch/patch-meta.ts';
import { recordUpdate, serverSideApply } from '../../../../electron/engine/simcluster/patch/server-side-apply.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { DEPLOYMENT, definitions } from './fixtures.ts';

const meta = patchMetaFromDefinitions(definitions, DEPLOYMENT);
const T0 = Date.parse('2024-05-01T10:00:00Z');
const T1 = Date.parse('2024-05-01T10:05:00Z');
const T2 = Date.parse('2024-05-01T10:09:00Z');

type Json = Record<string, unknown>;
interface Entry {
  manager: string;
  operation: string;
  time?: string;
  fieldsV1: Json;
}

function manifest(overrides: { replicas?: number; image?: string; labels?: Record<string, string> } = {}): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: overrides.labels ?? { app: 'web' } },
    spec: {
      ...(overrides.replicas === undefined ? {} : { replicas: overrides.replicas }),
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: overrides.image ?? 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
      },
    },
  };
}

/** What the store adds on create. */
function stored(object: KubeObject, resourceVersion = '10'): KubeObject {
  return { ...object, metadata: { ...object.metadata, uid: 'u-1', resourceVersion, creationTimestamp: '2024-05-01T10:00:00Z' } };
}

function apply(live: KubeObject | undefined, applied: Json, options: { manager?: string; force?: boolean; now?: number } = {}): KubeObject {
  return serverSideApply({ live, applied, manager: options.manager ?? 'kubectl', force: options.force ?? false, now: options.now ?? T1, meta, apiVersion: 'apps/v1' });
}

const entries = (object: KubeObject) => object.metadata.managedFields as Entry[];
const entryOf = (object: KubeObject, manager: string) => entries(object).find((e) => e.manager === manager);
const spec = (object: KubeObject) => object.spec as Json & { replicas?: number; template: { spec: { containers: Json[] } } };

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

/** A Deployment created by `kubectl apply` (client side) with replicas 2 and its last-applied annotation. */
function clientSideApplied(): KubeObject {
  const lastApplied = { ...manifest({ replicas: 2 }) };
  const object = manifest({ replicas: 2 }) as KubeObject;
  object.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(lastApplied) };
  return stored(recordUpdate({ before: undefined, after: object, manager: 'kubectl-client-side-apply', operation: 'Update', now: T0, meta }));
}

describe('serverSideApply: ownership', () => {
  it('creates the object and records the applier’s fields in FieldsV1', () => {
    const result = apply(undefined, manifest({ replicas: 2 }), { now: T0 });
    expect(spec(result).replicas).toBe(2);
    expect(result.metadata.managedFields).toEqual([
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } },
                },
              },
            },
          },
        },
      },
    ]);
  });

  it('re-applying the same configuration changes nothing, not even the entry time', () => {
    const live = stored(apply(undefined, manifest(), { now: T0 }));
    const again = apply(live, manifest(), { now: T1 });
    expect(again).toEqual(live);
  });

  it('updates values and the entry time when the configuration changes', () => {
    const live = stored(apply(undefined, manifest(), { now: T0 }));
    const result = apply(live, manifest({ image: 'nginx:1.28' }), { now: T1 });
    expect(spec(result).template.spec.containers[0]).toMatchObject({ image: 'nginx:1.28' });
    expect(entryOf(result, 'kubectl')?.time).toBe('2024-05-01T10:05:00Z');
    expect(result.metadata.uid).toBe('u-1');
  });

  it('removes fields the applier applied before and omits now', () => {
    const live = stored(apply(undefined, manifest({ replicas: 3, labels: { app: 'web', tier: 'front' } }), { now: T0 }));
    const result = apply(live, manifest(), { now: T1 });
    expect(result.metadata.labels).toEqual({ app: 'web' });
    expect(spec(result)).not.toHaveProperty('replicas');
    expect(entryOf(result, 'kubectl')?.fieldsV1['f:spec']).not.toHaveProperty('f:replicas');
  });

  it('keeps an omitted field that another applier co-owns', () => {
    const first = stored(apply(undefined, manifest({ labels: { app: 'web', tier: 'front' } }), { now: T0 }));
    const shared = apply(first, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { tier: 'front' } } }, { manager: 'labeller', now: T1 });
    expect(entryOf(shared, 'kubectl')?.fieldsV1['f:metadata']).toEqual({ 'f:labels': { 'f:app': {}, 'f:tier': {} } });
    const result = apply(stored(shared, '11'), manifest(), { now: T2 });
    expect(result.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(entryOf(result, 'kubectl')?.fieldsV1['f:metadata']).toEqual({ 'f:labels': { 'f:app': {} } });
  });

  it('leaves alone an omitted field another manager has taken over', () => {
    const first = stored(apply(undefined, manifest({ labels: { app: 'web', tier: 'front' } }), { now: T0 }));
    const edited = recordUpdate({
      before: first,
      after: { ...first, metadata: { ...first.metadata, labels: { app: 'web', tier: 'back' } } },
      manager: 'kubectl-edit',
      operation: 'Update',
      now: T1,
      meta,
    });
    const result = apply(edited, manifest(), { now: T2 });
    expect(result.metadata.labels).toEqual({ app: 'web', tier: 'back' });
    expect(entryOf(result, 'kubectl-edit')?.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
  });

  it('shares ownership when another manager applies the same value', () => {
    const live = stored(apply(undefined, manifest({ replicas: 2 }), { now: T0 }));
    const result = apply(live, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } }, { manager: 'autoscaler', now: T1 });
    expect(entryOf(result, 'kubectl')?.fieldsV1['f:spec']).toHaveProperty('f:replicas');
    expect(entryOf(result, 'autoscaler')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('does not record reset fields such as status on the main resource', () => {
    const result = serverSideApply({
      live: undefined,
      applied: { ...manifest(), status: { replicas: 5 } },
      manager: 'kubectl',
      force: false,
      now: T0,
      meta,
      apiVersion: 'apps/v1',
      resetFields: [['status']],
    });
    expect(entries(result)[0]?.fieldsV1).not.toHaveProperty('f:status');
  });

  it('treats null in the configuration as not applied, so a previously applied field is pruned', () => {
    const live = stored(apply(undefined, manifest({ replicas: 4 }), { now: T0 }));
    const applied = manifest();
    (applied.spec as Json).replicas = null;
    expect(spec(apply(live, applied))).not.toHaveProperty('replicas');
  });

  it('mutates neither input', () => {
    const live = stored(apply(undefined, manifest({ replicas: 4 }), { now: T0 }));
    const applied = manifest({ image: 'x' });
    const snapshot = structuredClone({ live, applied });
    const result = apply(live, applied);
    (result.spec as { template: { spec: { containers: Json[] } } }).template.spec.containers.push({});
    expect({ live, applied }).toEqual(snapshot);
  });
});

describe('serverSideApply: conflicts', () => {
  it('refuses to change a field another manager owns with 409 and FieldManagerConflict causes', () => {
    const error = failure(() => apply(clientSideApplied(), manifest({ replicas: 3 }), { manager: 'ci' }));
    expect(error.toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }] },
      code: 409,
    });
  });

  it('lists several conflicts per manager', () => {
    const error = failure(() => apply(clientSideApplied(), manifest({ replicas: 3, image: 'nginx:2' }), { manager: 'ci' }));
    expect(error.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="c"].image',
    );
    expect(error.details?.causes?.map((c) => c.field)).toEqual(['.spec.replicas', '.spec.template.spec.containers[name="c"].image']);
  });

  it('names another applier without an apiVersion', () => {
    const live = stored(apply(undefined, manifest({ replicas: 2 }), { now: T0, manager: 'team-a' }));
    expect(failure(() => apply(live, manifest({ replicas: 5 }), { manager: 'team-b' })).message).toBe('Apply failed with 1 conflict: conflict with "team-a": .spec.replicas');
  });

  it('takes ownership with force', () => {
    const result = apply(clientSideApplied(), manifest({ replicas: 3 }), { manager: 'ci', force: true });
    expect(spec(result).replicas).toBe(3);
    expect(entryOf(result, 'ci')?.fieldsV1['f:spec']).toHaveProperty('f:replicas');
    expect(entryOf(result, 'kubectl-client-side-apply')?.fieldsV1['f:spec']).not.toHaveProperty('f:replicas');
  });

  it('lets kubectl take over fields from its client-side apply when they still match last-applied', () => {
    const result = apply(clientSideApplied(), manifest({ replicas: 3 }), { manager: 'kubectl' });
    expect(spec(result).replicas).toBe(3);
    expect(entryOf(result, 'kubectl-client-side-apply')?.fieldsV1['f:spec']).not.toHaveProperty('f:replicas');
    const annotation = result.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
    expect(annotation).toBe(`${JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { labels: { app: 'web' }, name: 'web', namespace: 'default' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ image: 'nginx:1.27', name: 'c', ports: [{ containerPort: 80 }] }] } } } })}\n`);
  });

  it('still conflicts for kubectl when the live value drifted from last-applied', () => {
    const before = clientSideApplied();
    const scaled = recordUpdate({ before, after: { ...before, spec: { ...(before.spec as Json), replicas: 7 } }, manager: 'kubectl-edit', operation: 'Update', now: T1, meta });
    const error = failure(() => apply(scaled, manifest({ replicas: 3 }), { manager: 'kubectl', now: T2 }));
    expect(error.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas');
  });
});

describe('serverSideApply: refused bodies', () => {
  it('refuses an object of another version or kind with 400', () => {
    const error = failure(() => apply(undefined, { ...manifest(), apiVersion: 'apps/v1beta1' }));
    expect([error.code, error.reason, error.message]).toEqual([400, 'BadRequest', 'invalid object type: apps/v1beta1, Kind=Deployment']);
    const kind = failure(() => apply(clientSideApplied(), { ...manifest(), kind: 'StatefulSet' }));
    expect(kind.message).toBe('invalid object type: apps/v1, Kind=StatefulSet');
  });

  it('refuses a body that carries managedFields with 400', () => {
    const applied = manifest();
    (applied.metadata as Json).managedFields = [];
    expect(failure(() => apply(undefined, applied)).message).toBe('metadata.managedFields must be nil');
  });

  it('refuses a keyed list item without its key as kube-apiserver does', () => {
    const applied = manifest();
    ((applied.spec as Json).template as { spec: { containers: Json[] } }).spec.containers = [{ image: 'x' }];
    const error = failure(() => apply(undefined, applied));
    expect([error.code, error.message]).toEqual([
      500,
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ]);
  });
});
