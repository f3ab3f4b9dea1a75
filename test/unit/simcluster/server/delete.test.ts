import { afterEach, describe, expect, it } from 'vitest';
import { call, deployment, startTestCluster, type TestCluster } from './helpers.ts';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const PODS = '/api/v1/namespaces/default/pods';

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

async function start(): Promise<TestCluster> {
  cluster = await startTestCluster();
  return cluster;
}

function pod(name: string, labels: Record<string, string> = {}): object {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
}

describe('delete', () => {
  it('answers a Success Status for kinds whose storage does not return deleted objects', async () => {
    const { server } = await start();
    const created = (await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') })).json;
    const res = await call(server, 'DELETE', `${DEPLOYMENTS}/web`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'web', group: 'apps', kind: 'deployments', uid: created.metadata.uid } });
    expect((await call(server, 'GET', `${DEPLOYMENTS}/web`)).status).toBe(404);
  });

  it('answers the deleted object for pods, as kube-apiserver does', async () => {
    const { server } = await start();
    await call(server, 'POST', PODS, { body: pod('p') });
    const res = await call(server, 'DELETE', `${PODS}/p`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } });
  });

  it('answers the object with a deletionTimestamp while finalizers keep it', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web', { metadata: { name: 'web', finalizers: ['example.com/hold'] } as never }) });
    const res = await call(server, 'DELETE', `${DEPLOYMENTS}/web`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ kind: 'Deployment', metadata: { name: 'web', deletionTimestamp: '2025-06-01T12:00:00Z', finalizers: ['example.com/hold'] } });
    expect((await call(server, 'GET', `${DEPLOYMENTS}/web`)).json.metadata.deletionTimestamp).toBe('2025-06-01T12:00:00Z');
  });

  it('takes propagationPolicy from the query as well as the body', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const res = await call(server, 'DELETE', `${DEPLOYMENTS}/web?propagationPolicy=Foreground`);
    expect(res.json.metadata.finalizers).toEqual(['foregroundDeletion']);
    const bad = await call(server, 'DELETE', `${DEPLOYMENTS}/web?propagationPolicy=Sideways`);
    expect(bad.status).toBe(422);
    expect(bad.json.details).toMatchObject({ kind: 'DeleteOptions', causes: [{ field: 'propagationPolicy' }] });
  });

  it('checks uid and resourceVersion preconditions', async () => {
    const { server } = await start();
    const created = (await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') })).json;
    const res = await call(server, 'DELETE', `${DEPLOYMENTS}/web`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } } });
    expect(res.status).toBe(409);
    expect(res.json.message).toBe(`Operation cannot be fulfilled on deployments.apps "web": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${created.metadata.uid}`);
    const ok = await call(server, 'DELETE', `${DEPLOYMENTS}/web`, { body: { preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } } });
    expect(ok.status).toBe(200);
  });

  it('answers a missing object with 404', async () => {
    const { server } = await start();
    const res = await call(server, 'DELETE', `${PODS}/ghost`);
    expect([res.status, res.json.message]).toEqual([404, 'pods "ghost" not found']);
  });

  it('deletes a collection by label selector and answers the deleted items', async () => {
    const { server } = await start();
    await call(server, 'POST', PODS, { body: pod('a', { app: 'web' }) });
    await call(server, 'POST', PODS, { body: pod('b', { app: 'web' }) });
    await call(server, 'POST', PODS, { body: pod('c', { app: 'db' }) });
    const res = await call(server, 'DELETE', `${PODS}?labelSelector=app%3Dweb`);
    expect(res.status).toBe(200);
    expect(res.json.kind).toBe('PodList');
    expect(res.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a', 'b']);
    const left = await call(server, 'GET', PODS);
    expect(left.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['c']);
  });

  it('refuses deletecollection where discovery does not list it', async () => {
    const { server } = await start();
    const res = await call(server, 'DELETE', '/api/v1/namespaces');
    expect(res.status).toBe(405);
  });
});
