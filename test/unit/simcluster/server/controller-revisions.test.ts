/**
 * apps/v1 controllerrevisions served as kube-apiserver serves them: in the legacy and the
 * aggregated discovery of apps/v1 (namespaced, no short names, no categories, the standard
 * verbs, no subresources), and as kubectl's Table with NAME, CONTROLLER, REVISION, AGE.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STANDARD_VERBS, typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { toTable } from '../../../../electron/engine/simcluster/tables/index.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { call, NOW, startTestCluster, type Json, type TestCluster } from './helpers.ts';

const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

describe('controllerrevisions.apps', () => {
  it('is in apps/v1 discovery, legacy and aggregated, as upstream lists it', async () => {
    cluster = await startTestCluster();
    const legacy = await call(cluster.server, 'GET', '/apis/apps/v1');
    expect(legacy.json.resources.find((r: Json) => r.name === 'controllerrevisions')).toEqual({
      name: 'controllerrevisions',
      singularName: 'controllerrevision',
      namespaced: true,
      kind: 'ControllerRevision',
      verbs: STANDARD_VERBS,
      storageVersionHash: expect.any(String),
    });
    const aggregated = await call(cluster.server, 'GET', '/apis', { headers: { accept: AGGREGATED_V2 } });
    const apps = aggregated.json.items.find((g: Json) => g.metadata.name === 'apps');
    const entry = apps.versions[0].resources.find((r: Json) => r.resource === 'controllerrevisions');
    expect(entry).toMatchObject({ resource: 'controllerrevisions', responseKind: { group: '', version: '', kind: 'ControllerRevision' }, scope: 'Namespaced', singularResource: 'controllerrevision', verbs: STANDARD_VERBS });
    expect(entry.shortNames).toBeUndefined();
    expect(entry.subresources).toBeUndefined();
  });

  it('prints NAME, CONTROLLER, REVISION and AGE, the controller as kind.group/name', () => {
    const revision = (name: string, number: number, owned: boolean): KubeObject =>
      ({
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: {
          name,
          namespace: 'shop',
          uid: `uid-${name}`,
          resourceVersion: '12',
          creationTimestamp: '2025-06-01T11:00:00Z',
          ...(owned ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: '0b7f3c1e-2d4a-4f6b-8c9d-1e2f3a4b5c6d', controller: true, blockOwnerDeletion: true }] } : {}),
        },
        data: { spec: { template: { $patch: 'replace', spec: { containers: [{ name: 'db', image: 'postgres:16.4' }] } } } },
        revision: number,
      }) as KubeObject;
    const table = toTable(typeById('controllerrevisions.apps') as ResourceType, [revision('db-7c9d8f6b5', 2, true), revision('orphan', 1, false)], { now: NOW });
    expect(table.columnDefinitions?.map((c) => c.name)).toEqual(['Name', 'Controller', 'Revision', 'Age']);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['db-7c9d8f6b5', 'statefulset.apps/db', 2, '60m'],
      ['orphan', '<none>', 1, '60m'],
    ]);
  });
});
