import { describe, expect, it } from 'vitest';
import { applyDefaults } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { RESOURCE_TYPES, typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { toTable } from '../../../../electron/engine/simcluster/tables/index.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z');
const deployments = typeById('deployments.apps')!;

/** Two Deployments created the way `kubectl create deployment` does, defaulted and stored. */
function storedDeployments(): KubeObject[] {
  const store = new ObjectStore({ now: () => NOW - 90_000 });
  return ['api', 'web'].map((name) =>
    store.create(
      deployments,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace: 'default', labels: { app: name }, managedFields: [{ manager: 'kubectl-create', operation: 'Update' }] },
        spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } }, strategy: {} },
      },
      { admit: (object) => applyDefaults(deployments, object) },
    ),
  );
}

describe('toTable', () => {
  it('answers a list with a meta.k8s.io/v1 Table: list metadata, upstream columns, one row per object', () => {
    const objects = storedDeployments();
    const table = toTable(deployments, objects, { now: NOW, listMeta: { resourceVersion: '2', continue: '', remainingItemCount: undefined } });
    expect(table.kind).toBe('Table');
    expect(table.apiVersion).toBe('meta.k8s.io/v1');
    expect(table.metadata).toEqual({ resourceVersion: '2' });
    expect(table.columnDefinitions?.map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Ready', 'string', '', 0],
      ['Up-to-date', 'string', '', 0],
      ['Available', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Containers', 'string', '', 1],
      ['Images', 'string', '', 1],
      ['Selector', 'string', '', 1],
    ]);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['api', '0/1', 0, 0, '90s', 'nginx', 'nginx:1.27', 'app=api'],
      ['web', '0/1', 0, 0, '90s', 'nginx', 'nginx:1.27', 'app=web'],
    ]);
    expect(JSON.parse(JSON.stringify(table))).toEqual(table);
  });

  it('embeds PartialObjectMetadata by default, the whole object for Object, nothing for None', () => {
    const [api] = storedDeployments();
    const [metadataRow] = toTable(deployments, [api!], { now: NOW }).rows;
    expect(metadataRow!.object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: api!.metadata });
    expect(toTable(deployments, [api!], { now: NOW, includeObject: 'Object' }).rows[0]!.object).toEqual(api);
    expect(toTable(deployments, [api!], { now: NOW, includeObject: 'None' }).rows[0]).not.toHaveProperty('object');
  });

  it('embeds the stored object and its metadata without copying them (the table is serialised at once)', () => {
    const [api] = storedDeployments();
    const full = toTable(deployments, [api!], { now: NOW, includeObject: 'Object' }).rows[0]!;
    expect(full.object).toBe(api);
    const partial = toTable(deployments, [api!], { now: NOW, includeObject: 'Metadata' }).rows[0]!;
    expect((partial.object as { metadata: unknown }).metadata).toBe(api!.metadata);
  });

  it("uses a single object's resourceVersion when no list metadata is given (GET of one object, watch events)", () => {
    const [api] = storedDeployments();
    expect(toTable(deployments, [api!], { now: NOW }).metadata).toEqual({ resourceVersion: api!.metadata.resourceVersion });
  });

  it('carries continue and remainingItemCount for a paged list', () => {
    const table = toTable(deployments, storedDeployments().slice(0, 1), { now: NOW, listMeta: { resourceVersion: '2', continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ', remainingItemCount: 1 } });
    expect(table.metadata).toEqual({ resourceVersion: '2', continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ', remainingItemCount: 1 });
  });

  it('drops the column definitions for watch events after the first (noHeaders)', () => {
    const table = toTable(deployments, storedDeployments().slice(0, 1), { now: NOW, noHeaders: true });
    expect(table.columnDefinitions).toBeNull();
    expect(table.rows).toHaveLength(1);
  });

  it('speaks meta.k8s.io/v1beta1 when that was negotiated', () => {
    const table = toTable(deployments, storedDeployments().slice(0, 1), { now: NOW, version: 'v1beta1' });
    expect(table.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(table.rows[0]!.object).toMatchObject({ apiVersion: 'meta.k8s.io/v1beta1', kind: 'PartialObjectMetadata' });
  });

  it('has as many cells as columns for every served kind, even for a bare object', () => {
    for (const type of RESOURCE_TYPES) {
      const bare: KubeObject = { apiVersion: type.version, kind: type.kind, metadata: { name: 'x', uid: 'u', resourceVersion: '1', creationTimestamp: new Date(NOW).toISOString() } };
      const table = toTable(type, [bare], { now: NOW });
      expect(table.rows[0]!.cells, type.kind).toHaveLength(table.columnDefinitions!.length);
    }
  });

  it('prints the pod columns kubectl shows: NAME READY STATUS RESTARTS AGE, then IP NODE NOMINATED NODE READINESS GATES wide', () => {
    const columns = toTable(typeById('pods')!, [], { now: NOW }).columnDefinitions!;
    expect(columns.filter((c) => c.priority === 0).map((c) => c.name.toUpperCase())).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(columns.filter((c) => c.priority === 1).map((c) => c.name.toUpperCase())).toEqual(['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
  });

  it('prints the event columns kubectl get events shows', () => {
    const columns = toTable(typeById('events')!, [], { now: NOW }).columnDefinitions!;
    expect(columns.filter((c) => c.priority === 0).map((c) => c.name.toUpperCase())).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(columns.filter((c) => c.priority === 1).map((c) => c.name.toUpperCase())).toEqual(['SUBOBJECT', 'SOURCE', 'FIRST SEEN', 'COUNT', 'NAME']);
  });
});
