/** RBAC objects are defaulted and validated as kube-apiserver does it. */
import { afterEach, describe, expect, it } from 'vitest';
import { createApiExtensions } from '../../../../electron/engine/simcluster/api-extensions.ts';
import { call, startTestCluster, type TestCluster } from '../server/helpers.ts';

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

const BINDINGS = '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings';
const binding = (roleRef: object, subjects: object[] = [{ kind: 'User', name: 'dev' }]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'dev-view' }, roleRef, subjects });

describe('RBAC validation', () => {
  it('defaults a User subject\'s API group and keeps the binding\'s roleRef fixed', async () => {
    cluster = await startTestCluster({ extensions: createApiExtensions({ version: 'v1.32.6' }) });
    const { server } = cluster;
    const created = await call(server, 'POST', BINDINGS, { body: binding({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }) });
    expect(created.status).toBe(201);
    expect(created.json.subjects).toEqual([{ kind: 'User', name: 'dev', apiGroup: 'rbac.authorization.k8s.io' }]);
    const changed = await call(server, 'PUT', `${BINDINGS}/dev-view`, { body: binding({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }) });
    expect([changed.status, changed.json.message]).toEqual([
      422,
      'RoleBinding.rbac.authorization.k8s.io "dev-view" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    ]);
  });

  it('refuses unsupported role references and subject kinds', async () => {
    cluster = await startTestCluster({ extensions: createApiExtensions({ version: 'v1.32.6' }) });
    const res = await call(cluster.server, 'POST', BINDINGS, { body: binding({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Team', name: 'view' }, [{ kind: 'Robot', name: 'r2' }]) });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(
      'RoleBinding.rbac.authorization.k8s.io "dev-view" is invalid: [roleRef.kind: Unsupported value: "Team": supported values: "Role", "ClusterRole", subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
    );
  });

  it('refuses non-resource URLs in a namespaced Role and resource rules without resources', async () => {
    cluster = await startTestCluster({ extensions: createApiExtensions({ version: 'v1.32.6' }) });
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }, { verbs: ['get'], apiGroups: [''] }] };
    const res = await call(cluster.server, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { body: role });
    expect(res.json.message).toBe(
      'Role.rbac.authorization.k8s.io "r" is invalid: [rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs, rules[1].resources: Required value: resource rules must supply at least one resource]',
    );
  });
});
