import { describe, expect, it } from 'vitest';
import { patchMetaFromDefinitions } from '../../../../electron/engine/simcluster/patch/patch-meta.ts';
import { recordUpdate } from '../../../../electron/engine/simcluster/patch/server-side-apply.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { DEPLOYMENT, definitions } from './fixtures.ts';

const meta = patchMetaFromDefinitions(definitions, DEPLOYMENT);
const T0 = Date.parse('2024-05-01T10:00:00.250Z');
const T1 = Date.parse('2024-05-01T10:05:00Z');

/** A Deployment as kube-apiserver stores it after `kubectl apply` (client side) created and defaulted it. */
function created(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: 'u-1',
      resourceVersion: '10',
      generation: 1,
      creationTimestamp: '2024-05-01T10:00:00Z',
      labels: { app: 'web' },
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}\n' },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx:1.26', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: {} }], dnsPolicy: 'ClusterFirst' },
      },
    },
  };
}

function create(): KubeObject {
  return recordUpdate({ before: undefined, after: created(), manager: 'kubectl-client-side-apply', operation: 'Update', now: T0, meta });
}

type Editable = KubeObject & {
  spec: { replicas?: number; template: { spec: { containers: Array<{ image: string }> } } };
  status?: unknown;
};

/** The value at `keys` inside nested objects (fieldsV1 documents in these tests). */
function dig(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((current, key) => (current as Record<string, unknown> | undefined)?.[key], value);
}

function edit(object: KubeObject, change: (copy: Editable) => void): KubeObject {
  const copy = structuredClone(object) as Editable;
  copy.metadata.resourceVersion = String(Number(copy.metadata.resourceVersion) + 1);
  change(copy);
  return copy;
}

describe('recordUpdate', () => {
  it('records a create like kube-apiserver: the writer owns every field it set, `.` only where the Go zero value lacked the node', () => {
    expect(create().metadata.managedFields).toEqual([
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': {
            'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
            'f:labels': { '.': {}, 'f:app': {} },
          },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
            'f:template': {
              'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"c"}': {
                    '.': {},
                    'f:image': {},
                    'f:name': {},
                    'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
                    'f:resources': {},
                  },
                },
                'f:dnsPolicy': {},
              },
            },
          },
        },
      },
    ]);
  });

  it('gives a changed field to the new writer and takes it from its previous owner', () => {
    const before = create();
    const after = recordUpdate({ before, after: edit(before, (d) => (d.spec.template.spec.containers[0]!.image = 'nginx:1.27')), manager: 'kubectl-edit', operation: 'Update', now: T1, meta });
    const [csa, edited] = after.metadata.managedFields as Array<{ manager: string; time: string; fieldsV1: unknown }>;
    expect(edited).toEqual({
      manager: 'kubectl-edit',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: '2024-05-01T10:05:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { 'f:image': {} } } } } } },
    });
    expect(csa?.manager).toBe('kubectl-client-side-apply');
    expect(csa?.time).toBe('2024-05-01T10:00:00Z');
    expect(dig(csa?.fieldsV1, 'f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"c"}')).toEqual({ '.': {}, 'f:name': {}, 'f:ports': expect.any(Object), 'f:resources': {} });
  });

  it('leaves managedFields alone when nothing ownable changed (resourceVersion only)', () => {
    const before = create();
    const after = recordUpdate({ before, after: edit(before, () => undefined), manager: 'kubectl-edit', operation: 'Update', now: T1, meta });
    expect(after.metadata.managedFields).toEqual(before.metadata.managedFields);
  });

  it('takes removed fields from their owners', () => {
    const before = create();
    const after = recordUpdate({ before, after: edit(before, (d) => delete d.spec.replicas), manager: 'kubectl-edit', operation: 'Update', now: T1, meta });
    const entries = after.metadata.managedFields as Array<{ manager: string; fieldsV1: unknown }>;
    expect(entries.map((e) => e.manager)).toEqual(['kubectl-client-side-apply']);
    expect(dig(entries[0]?.fieldsV1, 'f:spec')).not.toHaveProperty('f:replicas');
    expect(dig(entries[0]?.fieldsV1, 'f:spec')).toHaveProperty('f:selector');
  });

  it('records a status write through the subresource as its own entry, ignoring reset fields', () => {
    const before = create();
    const after = recordUpdate({
      before,
      after: edit(before, (d) => {
        d.status = { replicas: 2, conditions: [{ type: 'Available', status: 'True' }] };
        d.spec.replicas = 9;
      }),
      manager: 'kube-controller-manager',
      operation: 'Update',
      subresource: 'status',
      now: T1,
      meta,
      resetFields: [['spec'], ['metadata']],
    });
    const entries = after.metadata.managedFields as Array<Record<string, unknown>>;
    expect(entries[1]).toEqual({
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: '2024-05-01T10:05:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { '.': {}, 'f:conditions': { '.': {}, 'k:{"type":"Available"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:replicas': {} } },
      subresource: 'status',
    });
    expect(dig(entries[0]?.fieldsV1, 'f:spec')).toHaveProperty('f:replicas');
  });

  it('wipes managedFields when the write sets them to [{}], keeping only its own changes', () => {
    const before = create();
    const after = recordUpdate({
      before,
      after: edit(before, (d) => {
        d.metadata.managedFields = [{}];
        d.spec.replicas = 3;
      }),
      manager: 'kubectl-patch',
      operation: 'Update',
      now: T1,
      meta,
    });
    expect(after.metadata.managedFields).toEqual([
      { manager: 'kubectl-patch', operation: 'Update', apiVersion: 'apps/v1', time: '2024-05-01T10:05:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    ]);
  });

  it('keeps the stored entries when a write drops managedFields (clients that do not know them)', () => {
    const before = create();
    const after = recordUpdate({ before, after: edit(before, (d) => delete d.metadata.managedFields), manager: 'x', operation: 'Update', now: T1, meta });
    expect(after.metadata.managedFields).toEqual(before.metadata.managedFields);
  });

  it('mutates neither input', () => {
    const before = create();
    const next = edit(before, (d) => (d.spec.replicas = 5));
    const snapshot = structuredClone({ before, next });
    const after = recordUpdate({ before, after: next, manager: 'x', operation: 'Update', now: T1, meta });
    expect({ before, next }).toEqual(snapshot);
    (after as Editable).spec.template.spec.containers[0]!.image = 'changed';
    expect({ before, next }).toEqual(snapshot);
  });
});
