import { describe, expect, it } from 'vitest';
import { bindPresetUser, parseUserFlag, restrictedPresetUser } from '../../../../electron/engine/simcluster/rbac/preset-users.ts';
import { seedAccessPolicy } from '../../../../electron/engine/simcluster/rbac/seed.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';

describe('--user NAME=ROLE[:NS,...]', () => {
  it('reads a user, its role and its namespaces', () => {
    expect(parseUserFlag('dev=view:shop,payments')).toEqual({ name: 'dev', role: 'view', namespaces: ['shop', 'payments'] });
    expect(parseUserFlag('ops=edit')).toEqual({ name: 'ops', role: 'edit' });
    expect(parseUserFlag('nobody=none')).toEqual({ name: 'nobody', role: 'none' });
  });

  it('says what is wrong with a bad flag', () => {
    expect(() => parseUserFlag('dev')).toThrow('--user must look like NAME=ROLE or NAME=ROLE:ns1,ns2 (ROLE one of cluster-admin, admin, edit, view, none), got "dev"');
    expect(() => parseUserFlag('dev=reader')).toThrow('--user dev=reader: unknown role "reader" (one of cluster-admin, admin, edit, view, none)');
    expect(() => parseUserFlag('Dev=view')).toThrow('--user Dev=view: "Dev" is not a user name');
    expect(() => parseUserFlag('dev=view:Shop')).toThrow('--user dev=view:Shop: "Shop" is not a namespace name');
    expect(() => parseUserFlag('dev=none:shop')).toThrow('--user dev=none:shop: the role "none" takes no namespaces');
  });
});

describe('preset user bindings', () => {
  function store(): ObjectStore {
    const s = new ObjectStore({ now: () => Date.parse('2025-06-01T12:00:00Z') });
    seedAccessPolicy(s);
    const ns = s.types.byGVR('', 'v1', 'namespaces');
    if (!ns) throw new Error('no namespaces');
    for (const name of ['shop', 'payments']) s.create(ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return s;
  }
  const rbac = (s: ObjectStore, plural: string) => {
    const type = s.types.byGVR('rbac.authorization.k8s.io', 'v1', plural);
    if (!type) throw new Error(plural);
    return type;
  };

  it('binds the role in each namespace, or cluster-wide without namespaces', () => {
    const s = store();
    bindPresetUser(s, { name: 'dev', role: 'view', namespaces: ['shop', 'payments'] });
    bindPresetUser(s, { name: 'ops', role: 'edit' });
    bindPresetUser(s, { name: 'nobody', role: 'none' });
    expect(s.all(rbac(s, 'rolebindings')).map((b) => [b.metadata.namespace, b.metadata.name, b['roleRef'], b['subjects']])).toEqual([
      ['payments', 'dev-view', { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }]],
      ['shop', 'dev-view', { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }]],
    ]);
    expect(s.find(rbac(s, 'clusterrolebindings'), undefined, 'ops-edit')?.['roleRef']).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' });
    expect(s.all(rbac(s, 'clusterrolebindings')).map((b) => b.metadata.name)).not.toContain('nobody-none');
  });

  it('sets a user bound in namespaces up as the demo developer: namespace-viewer and the first namespace as its context namespace', () => {
    expect(restrictedPresetUser({ name: 'dev', role: 'view', namespaces: ['shop', 'payments'] })).toEqual({ name: 'dev', role: 'view', namespaces: ['shop', 'payments'], namespaceViewer: true, contextNamespace: 'shop' });
    expect(restrictedPresetUser({ name: 'ops', role: 'edit' })).toEqual({ name: 'ops', role: 'edit' });
    const s = store();
    bindPresetUser(s, restrictedPresetUser({ name: 'dev', role: 'view', namespaces: ['shop'] }));
    expect(s.find(rbac(s, 'clusterroles'), undefined, 'namespace-viewer')?.['rules']).toEqual([{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] }]);
    expect(s.find(rbac(s, 'clusterrolebindings'), undefined, 'dev-namespace-viewer')?.['subjects']).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }]);
  });

  it('refuses a namespace the cluster does not have', () => {
    expect(() => bindPresetUser(store(), { name: 'dev', role: 'view', namespaces: ['shopp'] })).toThrow('user dev: namespace "shopp" does not exist (there are payments, shop)');
  });

  it('seeds the default roles with view aggregated into edit and edit into admin', () => {
    const s = store();
    const rules = (name: string) => (s.find(rbac(s, 'clusterroles'), undefined, name)?.['rules'] as object[]).map((r) => JSON.stringify(r));
    expect(rules('view').length).toBeGreaterThan(5);
    expect(rules('edit')).toEqual(expect.arrayContaining(rules('view')));
    expect(rules('admin')).toEqual(expect.arrayContaining(rules('edit')));
    expect(rules('view')).not.toEqual(expect.arrayContaining(rules('edit')));
    expect(s.find(rbac(s, 'clusterrolebindings'), undefined, 'cluster-admin')?.['subjects']).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
  });
});
