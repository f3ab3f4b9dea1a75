import { describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../../../../electron/engine/simcluster/registry.ts';
import type { ResourceType } from '../../../../electron/engine/simcluster/resources.ts';

function custom(version: string, storage: boolean): ResourceType {
  return {
    group: 'db.example.com',
    version,
    kind: 'Database',
    plural: 'databases',
    singular: 'database',
    namespaced: true,
    shortNames: ['db'],
    categories: [],
    verbs: ['get', 'list'],
    subresources: [],
    custom: { crdName: 'databases.db.example.com', listKind: 'DatabaseList', schema: { type: 'object' }, printerColumns: [], storageVersion: storage ? version : 'v1' },
  };
}

describe('the resource registry', () => {
  it('serves built-in kinds first, then custom groups with versions in priority order', () => {
    const registry = new ResourceRegistry();
    registry.setCustom('databases.db.example.com', [custom('v1alpha1', false), custom('v1', true), custom('v1beta1', false)]);
    const gvs = registry.groupVersions().map((gv) => `${gv.group}/${gv.version}`);
    expect(gvs.slice(0, 2)).toEqual(['/v1', 'events.k8s.io/v1']);
    expect(gvs.slice(-3)).toEqual(['db.example.com/v1', 'db.example.com/v1beta1', 'db.example.com/v1alpha1']);
    expect(registry.byId('databases.db.example.com')?.version).toBe('v1');
    expect(registry.byApiVersionKind('db.example.com/v1beta1', 'Database')?.version).toBe('v1beta1');
    expect(registry.byGVR('apps', 'v1', 'deployments')?.kind).toBe('Deployment');
  });

  it('changes its revision and tells its listeners only when what it serves changes', () => {
    const registry = new ResourceRegistry();
    let calls = 0;
    registry.onChange(() => (calls += 1));
    registry.setCustom('databases.db.example.com', [custom('v1', true)]);
    const revision = registry.revision;
    registry.setCustom('databases.db.example.com', [custom('v1', true)]);
    expect([registry.revision, calls]).toEqual([revision, 1]);
    registry.removeCustom('databases.db.example.com');
    registry.removeCustom('databases.db.example.com');
    expect([registry.revision, calls, registry.byGVR('db.example.com', 'v1', 'databases')]).toEqual([revision + 1, 2, undefined]);
  });
});
