import { describe, expect, it } from 'vitest';
import { call, deployment, type, useTestCluster, configMap } from './helpers.ts';
import { testExtensions } from './test-extensions.ts';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

const fixture = useTestCluster();
const { start } = fixture;

describe('create', () => {
  it('fills the namespace from the path and answers 201 with server-set metadata', async () => {
    const { server } = await start();
    const { metadata: _m, ...body } = deployment('web');
    const res = await call(server, 'POST', DEPLOYMENTS, { body: { ...body, metadata: { name: 'web' } } });
    expect(res.status).toBe(201);
    expect(res.json.metadata).toMatchObject({ name: 'web', namespace: 'default', resourceVersion: '2', generation: 1 });
  });

  it('generates names from generateName', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cfg-' } } });
    expect(res.status).toBe(201);
    expect(res.json.metadata.name).toMatch(/^cfg-[a-z0-9]{5}$/);
  });

  it('accepts YAML bodies and fills a missing apiVersion and kind', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: 'metadata:\n  name: from-yaml\ndata:\n  a: "1"\n', headers: { 'Content-Type': 'application/yaml' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } });
  });

  it('rejects a body namespace that differs from the path', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', DEPLOYMENTS, { body: deployment('web', { metadata: { name: 'web', namespace: 'other' } as never }) });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the namespace of the provided object does not match the namespace sent on the request', reason: 'BadRequest', code: 400 });
  });

  it('rejects another group version or kind in the body', async () => {
    const { server } = await start();
    const wrongVersion = await call(server, 'POST', DEPLOYMENTS, { body: { ...deployment('web'), apiVersion: 'apps/v1beta2' } });
    expect([wrongVersion.status, wrongVersion.json.message]).toEqual([400, 'the API version in the data (apps/v1beta2) does not match the expected API version (apps/v1)']);
    const wrongKind = await call(server, 'POST', DEPLOYMENTS, { body: { ...deployment('web'), kind: 'StatefulSet' } });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.json.message).toContain('StatefulSet in version "v1" cannot be handled as a Deployment');
  });

  it('answers malformed JSON with 400 and keeps serving', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', DEPLOYMENTS, { body: '{"kind": ' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(res.json.message).toMatch(/^the object provided is unrecognized \(must be of type Deployment\): couldn't get version\/kind; json parse error: /);
    expect((await call(server, 'GET', '/version')).status).toBe(200);
  });

  it('answers a duplicate with AlreadyExists', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const res = await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ reason: 'AlreadyExists', message: 'deployments.apps "web" already exists', details: { name: 'web', group: 'apps', kind: 'deployments' } });
  });

  it('refuses objects in a missing namespace with 404 and in a terminating one with 403', async () => {
    const { server, store } = await start();
    const missing = await call(server, 'POST', '/apis/apps/v1/namespaces/nope/deployments', { body: deployment('web', { metadata: { name: 'web' } as never }) });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ reason: 'NotFound', message: 'namespaces "nope" not found', details: { name: 'nope', kind: 'namespaces' } });
    store.create(type('namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'old' }, status: { phase: 'Terminating' } });
    const terminating = await call(server, 'POST', '/apis/apps/v1/namespaces/old/deployments', { body: deployment('web', { metadata: { name: 'web' } as never }) });
    expect(terminating.status).toBe(403);
    expect(terminating.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "web" is forbidden: unable to create new content in namespace old because it is being terminated',
      reason: 'Forbidden',
      details: { name: 'web', group: 'apps', kind: 'deployments', causes: [{ reason: 'NamespaceTerminating', message: 'namespace old is being terminated', field: 'metadata.namespace' }] },
      code: 403,
    });
  });

  it('runs defaulting and answers validation causes with 422 Invalid', async () => {
    const extensions = testExtensions({
      applyDefaults: (_t, o) => ({ ...o, spec: { revisionHistoryLimit: 10, ...(o['spec'] as object) } }),
      validate: (_t, o) => ((o['spec'] as { replicas: number }).replicas < 0 ? [{ field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' }] : []),
    });
    const { server, store } = await start({ extensions });
    const ok = await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    expect(ok.json.spec.revisionHistoryLimit).toBe(10);
    const rv = store.currentRv();
    const bad = await call(server, 'POST', DEPLOYMENTS, { body: deployment('bad', { spec: { replicas: -1 } }) });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Deployment.apps "bad" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      reason: 'Invalid',
      details: { name: 'bad', group: 'apps', kind: 'Deployment', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' }] },
      code: 422,
    });
    expect(store.currentRv()).toBe(rv);
  });

  it('creates cluster-scoped objects and refuses creates on all-namespaces paths', async () => {
    const { server } = await start();
    const ns = await call(server, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', namespace: 'ignored' } } });
    expect(ns.status).toBe(201);
    expect(ns.json.metadata.namespace).toBeUndefined();
    const res = await call(server, 'POST', '/api/v1/configmaps', { body: configMap('x') });
    expect(res.status).toBe(405);
    expect(res.json).toMatchObject({ reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' });
  });

  it('answers unexpected failures with a 500 InternalError Status', async () => {
    const extensions = testExtensions({
      applyDefaults: () => {
        throw new Error('boom');
      },
    });
    const { server } = await start({ extensions });
    const res = await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Internal error occurred: boom', reason: 'InternalError', code: 500 });
  });
});

describe('update', () => {
  it('replaces the object, bumping resourceVersion and generation on spec changes', async () => {
    const { server } = await start();
    const created = (await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') })).json;
    const res = await call(server, 'PUT', `${DEPLOYMENTS}/web`, { body: { ...created, spec: { ...created.spec, replicas: 5 } } });
    expect(res.status).toBe(200);
    expect(res.json.spec.replicas).toBe(5);
    expect(res.json.metadata.generation).toBe(2);
    expect(Number(res.json.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
  });

  it('answers a stale resourceVersion with 409 Conflict', async () => {
    const { server } = await start();
    const created = (await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') })).json;
    await call(server, 'PUT', `${DEPLOYMENTS}/web`, { body: { ...created, spec: { ...created.spec, replicas: 3 } } });
    const res = await call(server, 'PUT', `${DEPLOYMENTS}/web`, { body: { ...created, spec: { ...created.spec, replicas: 4 } } });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
      code: 409,
    });
  });

  it('checks the body name against the URL and 404s a missing object', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const mismatch = await call(server, 'PUT', `${DEPLOYMENTS}/web`, { body: deployment('other') });
    expect([mismatch.status, mismatch.json.message]).toEqual([400, 'the name of the object (other) does not match the name on the URL (web)']);
    const missing = await call(server, 'PUT', `${DEPLOYMENTS}/gone`, { body: deployment('gone') });
    expect([missing.status, missing.json.reason]).toEqual([404, 'NotFound']);
  });

  it('ignores status on the main resource of kinds with a status subresource', async () => {
    const { server } = await start();
    const created = (await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') })).json;
    const res = await call(server, 'PUT', `${DEPLOYMENTS}/web`, { body: { ...created, status: { replicas: 9 } } });
    expect(res.json.status).toBeUndefined();
  });
});

describe('dryRun', () => {
  it('answers every mutating verb as if done and stores nothing', async () => {
    const { server, store } = await start();
    const created = (await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') })).json;
    const rv = store.currentRv();
    const create = await call(server, 'POST', `${DEPLOYMENTS}?dryRun=All`, { body: deployment('dry') });
    expect([create.status, create.json.metadata.name]).toEqual([201, 'dry']);
    const update = await call(server, 'PUT', `${DEPLOYMENTS}/web?dryRun=All`, { body: { ...created, spec: { ...created.spec, replicas: 7 } } });
    expect(update.json.spec.replicas).toBe(7);
    const patch = await call(server, 'PATCH', `${DEPLOYMENTS}/web?dryRun=All`, { body: { spec: { replicas: 8 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(patch.json.spec.replicas).toBe(8);
    const del = await call(server, 'DELETE', `${DEPLOYMENTS}/web?dryRun=All`);
    expect(del.status).toBe(200);
    expect(store.currentRv()).toBe(rv);
    expect((await call(server, 'GET', `${DEPLOYMENTS}/web`)).json.spec.replicas).toBe(2);
    expect((await call(server, 'GET', `${DEPLOYMENTS}/dry`)).status).toBe(404);
  });

  it('rejects dryRun values other than All', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', `${DEPLOYMENTS}?dryRun=Some`, { body: deployment('web') });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Some"]: supported values: "All"');
  });
});

describe('request limits', () => {
  it('refuses bodies over 3 MiB with 413', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ data: { big: 'x'.repeat(3 * 1024 * 1024 + 10) } }) });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ reason: 'RequestEntityTooLarge', code: 413 });
  });
});

