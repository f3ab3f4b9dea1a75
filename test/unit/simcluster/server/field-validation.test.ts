/**
 * Server-side field validation over HTTP, with the real defaulting, patching and managedFields:
 * what kubectl 1.27+ gets for `fieldValidation=Strict|Warn|Ignore` on create, update and patch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApiExtensions } from '../../../../electron/engine/simcluster/api-extensions.ts';
import { call, deployment, startTestCluster, type, type HttpResult, type TestCluster } from './helpers.ts';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

async function start(): Promise<TestCluster> {
  cluster = await startTestCluster({ extensions: createApiExtensions({ version: 'v1.32.0' }) });
  return cluster;
}

function withTypo(name: string): object {
  const d = deployment(name) as { spec: Record<string, unknown> };
  return { ...d, spec: { ...d.spec, replicass: 3 } };
}

/** The response with its Warning headers split back into one entry per header (Node joins repeats). */
async function callRaw(...args: Parameters<typeof call>): Promise<HttpResult & { raw: string[] }> {
  const res = await call(...args);
  const joined = res.headers.warning;
  const raw = typeof joined === 'string' ? (joined.match(/299 - "(?:[^"\\]|\\.)*"/g) ?? []) : [];
  return { ...res, raw };
}

describe('fieldValidation on create and update', () => {
  it('Strict refuses an unknown field with the decoder\'s 400 Status', async () => {
    const { server, store } = await start();
    const res = await call(server, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, { body: withTypo('web') });
    expect([res.status, res.json]).toEqual([
      400,
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass"',
        reason: 'BadRequest',
        code: 400,
      },
    ]);
    expect(store.all(type('deployments.apps'))).toEqual([]);
  });

  it('Strict lists repeated keys of the JSON body in document order with the unknown ones', async () => {
    const { server } = await start();
    const body = JSON.stringify(deployment('web')).replace('"replicas":2', '"replicas":1,"paused":false,"replicas":2,"pausd":true');
    const res = await call(server, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, { body });
    expect([res.status, res.json.message]).toEqual([
      400,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "spec.replicas", unknown field "spec.pausd"',
    ]);
  });

  it('Warn (also the default) creates the object without the field and says why in Warning headers', async () => {
    const { server } = await start();
    for (const [name, query] of [
      ['warned', '?fieldValidation=Warn'],
      ['defaulted', ''],
    ] as const) {
      const res = await callRaw(server, 'POST', `${DEPLOYMENTS}${query}`, { body: withTypo(name) });
      expect([res.status, res.raw]).toEqual([201, ['299 - "unknown field \\"spec.replicass\\""']]);
      expect(res.json.spec).not.toHaveProperty('replicass');
      expect(res.json.spec.replicas).toBe(2);
    }
    const stored = await call(server, 'GET', `${DEPLOYMENTS}/warned`);
    expect(stored.json.spec).not.toHaveProperty('replicass');
  });

  it('Ignore drops the field without a word', async () => {
    const { server } = await start();
    const res = await callRaw(server, 'POST', `${DEPLOYMENTS}?fieldValidation=Ignore`, { body: withTypo('web') });
    expect([res.status, res.headers.warning, res.json.spec.replicass]).toEqual([201, undefined, undefined]);
  });

  it('a value of the wrong type fails even under Ignore, on update too', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const live = (await call(server, 'GET', `${DEPLOYMENTS}/web`)).json;
    const res = await call(server, 'PUT', `${DEPLOYMENTS}/web?fieldValidation=Ignore`, { body: { ...live, spec: { ...live.spec, replicas: 'two' } } });
    expect([res.status, res.json.message]).toEqual([
      400,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    ]);
  });

  it('refuses an unsupported fieldValidation value with the 422 of options validation', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', `${DEPLOYMENTS}?fieldValidation=Loud`, { body: deployment('web') });
    expect([res.status, res.json.reason, res.json.message]).toEqual([
      422,
      'Invalid',
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
    ]);
  });
});

describe('fieldValidation on patch', () => {
  it('a strategic merge patch bringing an unknown field is a 422 under Strict and a warning under Warn', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const patch = { spec: { template: { spec: { containers: [{ name: 'c', imagee: 'nginx:1.28' }] } } } };
    const strict = await call(server, 'PATCH', `${DEPLOYMENTS}/web?fieldValidation=Strict`, { body: patch, headers: SMP });
    expect([strict.status, strict.json.reason, strict.json.message]).toEqual([
      422,
      'Invalid',
      ' "" is invalid: patch: Invalid value: "map[spec:map[template:map[spec:map[containers:[map[imagee:nginx:1.28 name:c]]]]]]": strict decoding error: unknown field "spec.template.spec.containers[0].imagee"',
    ]);
    const warned = await callRaw(server, 'PATCH', `${DEPLOYMENTS}/web?fieldValidation=Warn`, { body: patch, headers: SMP });
    expect([warned.status, warned.raw]).toEqual([200, ['299 - "unknown field \\"spec.template.spec.containers[0].imagee\\""']]);
    expect(warned.json.spec.template.spec.containers[0]).not.toHaveProperty('imagee');
  });

  it('a merge patch of /scale is checked against autoscaling/v1 Scale', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const res = await call(server, 'PATCH', `${DEPLOYMENTS}/web/scale?fieldValidation=Strict`, { body: { spec: { replica: 5 } }, headers: MERGE });
    expect([res.status, res.json.message]).toMatchObject([422, expect.stringMatching(/: strict decoding error: unknown field "spec.replica"$/)]);
  });

  it('server-side apply refuses unknown fields whatever the directive, as a 500 from the typed conversion', async () => {
    const { server } = await start();
    const res = await call(server, 'PATCH', `${DEPLOYMENTS}/web?fieldManager=kubectl&fieldValidation=Ignore`, { body: withTypo('web'), headers: APPLY });
    expect([res.status, res.json.message]).toEqual([500, 'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.replicass: field not declared in schema']);
  });
});
