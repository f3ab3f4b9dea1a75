/** The simulated API server as a restricted user sees it: 403s, reviews, tokens, certificates. */
import { request as httpsRequest } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { bindPresetUser } from '../../../../electron/engine/simcluster/rbac/preset-users.ts';
import { call, deployment, NOW, openWatch, startTestCluster, type TestCluster } from '../server/helpers.ts';

let cluster: TestCluster | undefined;
let clock = NOW;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
  clock = NOW;
});

const DEV = 'dev-token';

/** A server with the default policy, namespaces shop and payments, and user dev with view in shop. */
async function restricted(options: { tls?: boolean } = {}): Promise<TestCluster> {
  cluster = await startTestCluster({ seedAccessPolicy: true, now: () => clock, ...(options.tls ? { tls: true } : {}) });
  for (const name of ['shop', 'payments']) await call(cluster.server, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  bindPresetUser(cluster.store, { name: 'dev', role: 'view', namespaces: ['shop'] });
  cluster.server.access.addTokenUser(DEV, { name: 'dev' });
  return cluster;
}

function ssar(resourceAttributes: Record<string, string>) {
  return { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } };
}

describe('403 Forbidden, worded as kube-apiserver words it', () => {
  it('refuses a cluster-wide list, a list in another namespace, a named get and a watch', async () => {
    const { server } = await restricted();
    const all = await call(server, 'GET', '/api/v1/pods', { token: DEV });
    expect(all.status).toBe(403);
    expect(all.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods is forbidden: User "dev" cannot list resource "pods" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { kind: 'pods' },
      code: 403,
    });
    const other = await call(server, 'GET', '/api/v1/namespaces/payments/pods', { token: DEV });
    expect(other.json.message).toBe('pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "payments"');
    const named = await call(server, 'GET', '/apis/apps/v1/namespaces/payments/deployments/web', { token: DEV });
    expect(named.json.message).toBe('deployments.apps "web" is forbidden: User "dev" cannot get resource "deployments" in API group "apps" in the namespace "payments"');
    expect(named.json.details).toEqual({ name: 'web', group: 'apps', kind: 'deployments' });
    const watch = await call(server, 'GET', '/api/v1/namespaces/payments/configmaps?watch=true', { token: DEV });
    expect(watch.json.message).toBe('configmaps is forbidden: User "dev" cannot watch resource "configmaps" in API group "" in the namespace "payments"');
    const write = await call(server, 'POST', '/apis/apps/v1/namespaces/shop/deployments', { token: DEV, body: deployment('web') });
    expect(write.json.message).toBe('deployments.apps is forbidden: User "dev" cannot create resource "deployments" in API group "apps" in the namespace "shop"');
  });

  it('lets the user read what its role grants where it is bound', async () => {
    const { server } = await restricted();
    expect((await call(server, 'GET', '/api/v1/namespaces/shop/pods', { token: DEV })).status).toBe(200);
    const watch = await openWatch(server, '/apis/apps/v1/namespaces/shop/deployments?watch=true', { token: DEV });
    watch.close();
    expect(watch.status).toBe(200);
    expect((await call(server, 'GET', '/api/v1/namespaces/shop', { token: DEV })).status).toBe(200);
    // view does not read Secrets.
    expect((await call(server, 'GET', '/api/v1/namespaces/shop/secrets', { token: DEV })).status).toBe(403);
  });

  it('opens discovery to every authenticated user and refuses other paths with the path message', async () => {
    const { server } = await restricted();
    for (const path of ['/version', '/api', '/apis', '/apis/apps/v1', '/openapi/v2', '/healthz']) expect((await call(server, 'GET', path, { token: DEV })).status, path).toBe(200);
    const root = await call(server, 'GET', '/', { token: DEV });
    expect(root.status).toBe(403);
    expect(root.json).toMatchObject({ reason: 'Forbidden', message: 'forbidden: User "dev" cannot get path "/"', details: {}, code: 403 });
  });

  it('adds RBAC\'s reason when a binding names a role that does not exist', async () => {
    const { server, store } = await restricted();
    const type = store.types.byGVR('rbac.authorization.k8s.io', 'v1', 'rolebindings');
    if (!type) throw new Error('no rolebindings');
    store.create(type, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'dev-ghost', namespace: 'payments' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ghost' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }],
    });
    const res = await call(server, 'GET', '/api/v1/namespaces/payments/pods', { token: DEV });
    expect(res.json.message).toBe('pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "payments": RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found');
  });
});

describe('access reviews', () => {
  it('answers SelfSubjectAccessReview with allowed, and with the binding that allowed it', async () => {
    const { server } = await restricted();
    const yes = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { token: DEV, body: ssar({ namespace: 'shop', verb: 'list', resource: 'pods' }) });
    expect(yes.status).toBe(201);
    expect(yes.json).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'shop', verb: 'list', resource: 'pods' } },
      status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "dev-view/shop" of ClusterRole "view" to User "dev"' },
    });
    const no = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { token: DEV, body: ssar({ verb: 'list', resource: 'nodes' }) });
    expect(no.json.status).toEqual({ allowed: false });
    const url = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { token: DEV, body: { spec: { nonResourceAttributes: { verb: 'get', path: '/version' } } } });
    expect(url.json.status).toEqual({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' });
  });

  it('refuses a review that asks about both or neither kind of attributes', async () => {
    const { server } = await restricted();
    const neither = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { token: DEV, body: { spec: {} } });
    expect(neither.status).toBe(422);
    expect(neither.json.message).toBe('SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
  });

  it('answers SelfSubjectRulesReview with the rules of the namespace, and 400 without one', async () => {
    const { server } = await restricted();
    const shop = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { token: DEV, body: { spec: { namespace: 'shop' } } });
    expect(shop.status).toBe(201);
    expect(shop.json.status.incomplete).toBe(false);
    expect(shop.json.status.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    expect(shop.json.status.resourceRules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: ['apps'], resources: expect.arrayContaining(['deployments', 'replicasets', 'statefulsets']) });
    expect(shop.json.status.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] });
    const payments = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { token: DEV, body: { spec: { namespace: 'payments' } } });
    expect(payments.json.status.resourceRules.flatMap((r: { resources: string[] }) => r.resources)).toEqual(['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews']);
    const none = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { token: DEV, body: { spec: {} } });
    expect([none.status, none.json.message]).toEqual([400, 'no namespace on request']);
  });

  it('answers SubjectAccessReview about someone else for a user who may create them', async () => {
    const { server } = await restricted();
    const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'dev', groups: ['system:authenticated'], resourceAttributes: { namespace: 'shop', verb: 'delete', resource: 'pods' } } };
    expect((await call(server, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { body })).json.status).toEqual({ allowed: false });
    const denied = await call(server, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { token: DEV, body });
    expect(denied.json.message).toBe('subjectaccessreviews.authorization.k8s.io is forbidden: User "dev" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope');
  });

  it('aggregates a new ClusterRole labelled aggregate-to-view into view, and so into what dev may do', async () => {
    const { server } = await restricted();
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list'] }] };
    expect((await call(server, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { body: role })).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const review = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { token: DEV, body: ssar({ namespace: 'shop', verb: 'list', group: 'example.com', resource: 'widgets' }) });
    expect(review.json.status.allowed).toBe(true);
    const edit = await call(server, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/edit');
    expect(edit.json.rules).toContainEqual({ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list'] });
  });
});

describe('identities', () => {
  it('puts a ServiceAccount token\'s user in its groups, and refuses it once expired with 401', async () => {
    const { server } = await restricted();
    await call(server, 'POST', '/api/v1/namespaces/shop/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } } });
    const issued = await call(server, 'POST', '/api/v1/namespaces/shop/serviceaccounts/bot/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } } });
    expect(issued.status).toBe(201);
    expect(issued.json).toMatchObject({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 600 }, status: { expirationTimestamp: '2025-06-01T12:10:00Z' } });
    const token = issued.json.status.token as string;
    const whoami = await call(server, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { token, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    expect(whoami.json.status.userInfo).toMatchObject({ username: 'system:serviceaccount:shop:bot', groups: ['system:serviceaccounts', 'system:serviceaccounts:shop', 'system:authenticated'] });
    expect((await call(server, 'GET', '/api/v1/namespaces/shop/pods', { token })).json.message).toBe('pods is forbidden: User "system:serviceaccount:shop:bot" cannot list resource "pods" in API group "" in the namespace "shop"');
    clock = NOW + 600_000;
    const expired = await call(server, 'GET', '/api/v1/namespaces/shop/pods', { token });
    expect([expired.status, expired.json]).toEqual([401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }]);
  });

  it('refuses a token for a ServiceAccount that is gone, and tokens shorter than ten minutes', async () => {
    const { server } = await restricted();
    await call(server, 'POST', '/api/v1/namespaces/shop/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot' } } });
    const short = await call(server, 'POST', '/api/v1/namespaces/shop/serviceaccounts/bot/token', { body: { spec: { expirationSeconds: 60 } } });
    expect([short.status, short.json.message]).toEqual([422, 'TokenRequest.authentication.k8s.io "bot" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes']);
    const missing = await call(server, 'POST', '/api/v1/namespaces/shop/serviceaccounts/nobody/token', { body: {} });
    expect([missing.status, missing.json.message]).toEqual([404, 'serviceaccounts "nobody" not found']);
    const token = (await call(server, 'POST', '/api/v1/namespaces/shop/serviceaccounts/bot/token', { body: {} })).json.status.token as string;
    await call(server, 'DELETE', '/api/v1/namespaces/shop/serviceaccounts/bot');
    expect((await call(server, 'GET', '/version', { token })).status).toBe(401);
  });

  it('reads the user from a client certificate the cluster CA signed: CN the name, O the groups', async () => {
    const { server } = await restricted({ tls: true });
    const { certPem, keyPem } = await server.clientCertificate('dev', ['team-shop']);
    const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(`${server.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, { method: 'POST', ca: server.caPem, cert: certPem, key: keyPem, headers: { 'Content-Type': 'application/json' } }, (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () => resolve(data));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(JSON.parse(text).status.userInfo).toEqual({ username: 'dev', groups: ['team-shop', 'system:authenticated'] });
  });

  it('lets the admin impersonate a user (kubectl --as) and refuses it to a user without the impersonate verb', async () => {
    const { server } = await restricted();
    const asDev = await call(server, 'GET', '/api/v1/pods', { headers: { 'Impersonate-User': 'dev' } });
    expect(asDev.json.message).toBe('pods is forbidden: User "dev" cannot list resource "pods" in API group "" at the cluster scope');
    expect((await call(server, 'GET', '/api/v1/namespaces/shop/pods', { headers: { 'Impersonate-User': 'dev' } })).status).toBe(200);
    const whoami = await call(server, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { headers: { 'Impersonate-User': 'dev', 'Impersonate-Group': 'team-shop' }, body: {} });
    expect(whoami.json.status.userInfo).toEqual({ username: 'dev', groups: ['team-shop', 'system:authenticated'] });
    const escalate = await call(server, 'GET', '/api/v1/pods', { token: DEV, headers: { 'Impersonate-User': 'admin' } });
    expect([escalate.status, escalate.json.message]).toEqual([403, 'users "admin" is forbidden: User "dev" cannot impersonate resource "users" in API group "" at the cluster scope']);
  });

  it('keeps the open server\'s callers the cluster admin (system:masters)', async () => {
    const { server } = await restricted();
    const whoami = await call(server, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: {} });
    expect(whoami.json.status.userInfo).toEqual({ username: 'admin', groups: ['system:masters', 'system:authenticated'] });
    expect((await call(server, 'GET', '/api/v1/pods')).status).toBe(200);
    expect((await call(server, 'GET', '/api/v1/pods', { token: 'anything' })).status).toBe(200);
    const rules = await call(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { body: { spec: { namespace: 'shop' } } });
    expect(rules.json.status.resourceRules[0]).toEqual({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    expect(rules.json.status.nonResourceRules[0]).toEqual({ verbs: ['*'], nonResourceURLs: ['*'] });
  });
});
