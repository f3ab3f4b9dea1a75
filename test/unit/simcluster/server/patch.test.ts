import { describe, expect, it } from 'vitest';
import type { RecordUpdateArgs } from '../../../../electron/engine/simcluster/server/extensions.ts';
import { call, deployment, useTestCluster, type TestCluster } from './helpers.ts';
import { testExtensions } from './test-extensions.ts';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

const fixture = useTestCluster();

/** A cluster holding one Deployment `web` to patch. */
async function start(options: Parameters<typeof fixture.start>[0] = {}): Promise<TestCluster> {
  const cluster = await fixture.start(options);
  await call(cluster.server, 'POST', DEPLOYMENTS, { body: deployment('web') });
  return cluster;
}

describe('patch', () => {
  it('applies a merge patch and answers 200', async () => {
    const { server } = await start();
    const res = await call(server, 'PATCH', `${DEPLOYMENTS}/web`, { body: { metadata: { labels: { tier: 'front' } } }, headers: MERGE });
    expect(res.status).toBe(200);
    expect(res.json.metadata.labels).toEqual({ app: 'web', tier: 'front' });
  });

  it('passes unknown patch types to the patcher, which answers 415', async () => {
    const { server } = await start();
    const res = await call(server, 'PATCH', `${DEPLOYMENTS}/web`, { body: '{}', headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.json.reason).toBe('UnsupportedMediaType');
  });

  it('404s a merge patch of a missing object', async () => {
    const { server } = await start();
    const res = await call(server, 'PATCH', `${DEPLOYMENTS}/nope`, { body: {}, headers: MERGE });
    expect([res.status, res.json.message]).toEqual([404, 'deployments.apps "nope" not found']);
  });

  it('treats a stale resourceVersion inside the patch as a 409 precondition', async () => {
    const { server } = await start();
    const res = await call(server, 'PATCH', `${DEPLOYMENTS}/web`, { body: { metadata: { resourceVersion: '1' }, spec: { replicas: 3 } }, headers: MERGE });
    expect([res.status, res.json.reason]).toEqual([409, 'Conflict']);
  });

  it('creates a missing object with server-side apply (201) and updates it after (200)', async () => {
    const { server } = await start();
    const manifest = deployment('api');
    const created = await call(server, 'PATCH', `${DEPLOYMENTS}/api?fieldManager=kubectl&force=false`, { body: manifest, headers: APPLY });
    expect(created.status).toBe(201);
    expect(created.json.metadata).toMatchObject({ name: 'api', namespace: 'default', generation: 1 });
    const updated = await call(server, 'PATCH', `${DEPLOYMENTS}/api?fieldManager=kubectl&force=true`, { body: { ...manifest, spec: { ...(manifest['spec'] as object), replicas: 4 } }, headers: APPLY });
    expect(updated.status).toBe(200);
    expect(updated.json.spec.replicas).toBe(4);
  });

  it('answers a dry-run apply of a missing object with 201 and stores nothing', async () => {
    const { server, store } = await start();
    const rv = store.currentRv();
    const res = await call(server, 'PATCH', `${DEPLOYMENTS}/api?dryRun=All&fieldManager=kubectl&force=false`, { body: deployment('api'), headers: APPLY });
    expect(res.status).toBe(201);
    expect(store.currentRv()).toBe(rv);
  });

  it('requires a fieldManager for apply and forbids force elsewhere, like PatchOptions validation', async () => {
    const { server } = await start();
    const noManager = await call(server, 'PATCH', `${DEPLOYMENTS}/web`, { body: deployment('web'), headers: APPLY });
    expect(noManager.status).toBe(422);
    expect(noManager.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      reason: 'Invalid',
      details: { group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] },
      code: 422,
    });
    const forced = await call(server, 'PATCH', `${DEPLOYMENTS}/web?force=true`, { body: {}, headers: MERGE });
    expect(forced.json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  });

  it('records managedFields for non-apply writes under the fieldManager or the user agent', async () => {
    const calls: Array<Pick<RecordUpdateArgs, 'manager' | 'subresource'> & { before: boolean }> = [];
    const extensions = {
      ...testExtensions(),
      recordUpdate(args: RecordUpdateArgs) {
        calls.push({ manager: args.manager, before: args.before !== undefined, ...(args.subresource ? { subresource: args.subresource } : {}) });
        return { ...args.after, metadata: { ...args.after.metadata, managedFields: [{ manager: args.manager, operation: args.before ? 'Update' : 'Create' }] } };
      },
    };
    const { server } = await start({ extensions });
    const patched = await call(server, 'PATCH', `${DEPLOYMENTS}/web?fieldManager=kubectl-edit`, { body: { spec: { replicas: 3 } }, headers: MERGE });
    expect(patched.json.metadata.managedFields).toEqual([{ manager: 'kubectl-edit', operation: 'Update' }]);
    const status = await call(server, 'PATCH', `${DEPLOYMENTS}/web/status`, { body: { status: { replicas: 3 } }, headers: { ...MERGE, 'User-Agent': 'kube-controller-manager/v1.32.6 (linux/amd64)' } });
    expect(status.json.metadata.managedFields).toEqual([{ manager: 'kube-controller-manager', operation: 'Update' }]);
    expect(calls).toEqual([
      // The creating POST sent no User-Agent and no fieldManager.
      { manager: 'unknown', before: false },
      { manager: 'kubectl-edit', before: true },
      { manager: 'kube-controller-manager', before: true, subresource: 'status' },
    ]);
  });
});

describe('status subresource', () => {
  it('reads the whole object and writes only status', async () => {
    const { server } = await start();
    const live = (await call(server, 'GET', `${DEPLOYMENTS}/web/status`)).json;
    expect(live.spec.replicas).toBe(2);
    const res = await call(server, 'PUT', `${DEPLOYMENTS}/web/status`, { body: { ...live, spec: { ...live.spec, replicas: 9 }, status: { replicas: 2, readyReplicas: 1 } } });
    expect(res.status).toBe(200);
    expect(res.json.spec.replicas).toBe(2);
    expect(res.json.status).toEqual({ replicas: 2, readyReplicas: 1 });
    expect(res.json.metadata.generation).toBe(1);
    const patched = await call(server, 'PATCH', `${DEPLOYMENTS}/web/status`, { body: { status: { readyReplicas: 2 }, spec: { replicas: 0 } }, headers: MERGE });
    expect(patched.json.status).toEqual({ replicas: 2, readyReplicas: 2 });
    expect(patched.json.spec.replicas).toBe(2);
  });

  it('leaves the previous version intact in history after a status write', async () => {
    const { server } = await start();
    const before = (await call(server, 'GET', `${DEPLOYMENTS}/web`)).json;
    await call(server, 'PATCH', `${DEPLOYMENTS}/web/status`, { body: { status: { replicas: 1 } }, headers: MERGE });
    const old = await call(server, 'GET', `${DEPLOYMENTS}?resourceVersion=${before.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(old.json.items[0].metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(old.json.items[0].status).toBeUndefined();
  });

  it('refuses status on kinds without the subresource', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', '/api/v1/namespaces/default/configmaps/x/status');
    expect(res.status).toBe(404);
  });
});

describe('scale subresource', () => {
  it('presents a Deployment as an autoscaling/v1 Scale', async () => {
    const { server } = await start();
    const live = (await call(server, 'GET', `${DEPLOYMENTS}/web`)).json;
    const res = await call(server, 'GET', `${DEPLOYMENTS}/web/scale`);
    expect(res.json).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: 'default', uid: live.metadata.uid, resourceVersion: live.metadata.resourceVersion, creationTimestamp: live.metadata.creationTimestamp },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=web' },
    });
  });

  it('changes spec.replicas through PUT and PATCH', async () => {
    const { server } = await start();
    const scale = (await call(server, 'GET', `${DEPLOYMENTS}/web/scale`)).json;
    const put = await call(server, 'PUT', `${DEPLOYMENTS}/web/scale`, { body: { ...scale, spec: { replicas: 5 } } });
    expect([put.status, put.json.kind, put.json.spec]).toEqual([200, 'Scale', { replicas: 5 }]);
    const patch = await call(server, 'PATCH', `${DEPLOYMENTS}/web/scale`, { body: { spec: { replicas: 1 } }, headers: MERGE });
    expect(patch.json.spec).toEqual({ replicas: 1 });
    const live = (await call(server, 'GET', `${DEPLOYMENTS}/web`)).json;
    expect(live.spec.replicas).toBe(1);
    expect(live.metadata.generation).toBe(3);
    const zero = await call(server, 'PATCH', `${DEPLOYMENTS}/web/scale`, { body: { spec: { replicas: 0 } }, headers: MERGE });
    expect(zero.json.spec).toEqual({});
  });

  it('answers a stale Scale with 409 and a negative count with 422', async () => {
    const { server } = await start();
    const scale = (await call(server, 'GET', `${DEPLOYMENTS}/web/scale`)).json;
    await call(server, 'PATCH', `${DEPLOYMENTS}/web/scale`, { body: { spec: { replicas: 3 } }, headers: MERGE });
    const stale = await call(server, 'PUT', `${DEPLOYMENTS}/web/scale`, { body: { ...scale, spec: { replicas: 4 } } });
    expect([stale.status, stale.json.reason]).toEqual([409, 'Conflict']);
    const negative = await call(server, 'PATCH', `${DEPLOYMENTS}/web/scale`, { body: { spec: { replicas: -1 } }, headers: MERGE });
    expect(negative.status).toBe(422);
    expect(negative.json.message).toBe('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('scales in dry-run without storing', async () => {
    const { server, store } = await start();
    const rv = store.currentRv();
    const res = await call(server, 'PATCH', `${DEPLOYMENTS}/web/scale?dryRun=All`, { body: { spec: { replicas: 7 } }, headers: MERGE });
    expect(res.json.spec).toEqual({ replicas: 7 });
    expect(store.currentRv()).toBe(rv);
  });
});
