import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { call, deployment, startTestCluster, type TestCluster } from './helpers.ts';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const tokens = { readWrite: 'rw-token', readOnly: 'ro-token' };

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

describe('bearer tokens', () => {
  it('answers requests without a known token with 401 but keeps /version and health public', async () => {
    cluster = await startTestCluster({ tokens });
    const { server } = cluster;
    for (const token of [undefined, 'wrong']) {
      const res = await call(server, 'GET', '/api/v1/pods', token ? { token } : {});
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
    expect((await call(server, 'GET', '/version')).status).toBe(200);
    expect((await call(server, 'GET', '/healthz')).status).toBe(200);
    expect((await call(server, 'GET', '/api/v1/pods', { token: 'rw-token' })).status).toBe(200);
  });

  it('lets the read-only token read and answers its writes with RBAC-style 403s', async () => {
    cluster = await startTestCluster({ tokens });
    const { server } = cluster;
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web'), token: 'rw-token' });
    expect((await call(server, 'GET', `${DEPLOYMENTS}/web`, { token: 'ro-token' })).status).toBe(200);
    const create = await call(server, 'POST', DEPLOYMENTS, { body: deployment('api'), token: 'ro-token' });
    expect(create.status).toBe(403);
    expect(create.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps is forbidden: User "readonly" cannot create resource "deployments" in API group "apps" in the namespace "default"',
      reason: 'Forbidden',
      details: { group: 'apps', kind: 'deployments' },
      code: 403,
    });
    const del = await call(server, 'DELETE', `${DEPLOYMENTS}/web`, { token: 'ro-token' });
    expect(del.json.message).toBe('deployments.apps "web" is forbidden: User "readonly" cannot delete resource "deployments" in API group "apps" in the namespace "default"');
    expect(del.json.details).toEqual({ name: 'web', group: 'apps', kind: 'deployments' });
    const scale = await call(server, 'PATCH', `${DEPLOYMENTS}/web/scale`, { body: {}, headers: { 'Content-Type': 'application/merge-patch+json' }, token: 'ro-token' });
    expect(scale.json.message).toBe('deployments.apps "web" is forbidden: User "readonly" cannot patch resource "deployments/scale" in API group "apps" in the namespace "default"');
    const node = await call(server, 'DELETE', '/api/v1/nodes/node-1', { token: 'ro-token' });
    expect(node.json.message).toBe('nodes "node-1" is forbidden: User "readonly" cannot delete resource "nodes" in API group "" at the cluster scope');
    const dryRun = await call(server, 'POST', `${DEPLOYMENTS}?dryRun=All`, { body: deployment('api'), token: 'ro-token' });
    expect(dryRun.status).toBe(403);
  });
});

describe('TLS', () => {
  it('serves HTTPS that a client trusting the per-run CA from the kubeconfig accepts, and no other', async () => {
    cluster = await startTestCluster({ tls: true });
    const { server } = cluster;
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const trusted = await call(server, 'GET', '/version');
    expect(trusted.status).toBe(200);
    await expect(call(server, 'GET', '/version', { ca: null })).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
    const kubeconfig = parse(server.kubeconfig());
    const ca = Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8');
    expect(ca).toBe(server.caPem);
    const caCert = new X509Certificate(ca);
    expect(caCert.ca).toBe(true);
    const localhost = await call({ url: server.url.replace('127.0.0.1', 'localhost'), caPem: server.caPem }, 'GET', '/healthz');
    expect(localhost.text).toBe('ok');
  });

  it('fails for a client that trusts another CA', async () => {
    cluster = await startTestCluster({ tls: true });
    const other = await startTestCluster({ tls: true });
    try {
      await expect(call(cluster.server, 'GET', '/version', { ca: other.server.caPem ?? '' })).rejects.toThrow();
    } finally {
      await other.server.close();
    }
  });
});
