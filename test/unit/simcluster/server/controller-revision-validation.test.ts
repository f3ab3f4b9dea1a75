/**
 * A ControllerRevision a client writes is validated as kube-apiserver validates it
 * (ValidateControllerRevisionCreate / ValidateControllerRevisionUpdate): `data` is required (and,
 * since 1.31, a JSON object), `revision` non-negative, the name a DNS subdomain, and `data`
 * immutable on update while `revision` is not (the controllers renumber revisions), the refused
 * value printed as each release printed it. Refusals are 422 Invalid with the real Status shape.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { goRawExtension, goUnknown } from '../../../../electron/engine/simcluster/defaults/validate-revision.ts';
import { call, useTestCluster } from './helpers.ts';
import { testExtensions } from './test-extensions.ts';

const REVISIONS = '/apis/apps/v1/namespaces/default/controllerrevisions';
const cluster = useTestCluster();
/** A server with the simulator's validation (the test extensions validate nothing), as 1.`minor` validates. */
const start = (minor = 32) => cluster.start({ extensions: testExtensions({ validate: (type, object, old) => validate(type, object, old, { minor }) }) });

const DATA = { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16.4' }] } } } };

function revision(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, namespace: 'default' }, data: DATA, revision: 1, ...extra };
}

describe('ControllerRevision validation', () => {
  it('refuses a create without data with 422 Invalid and the Status kube-apiserver answers', async () => {
    const { server } = await start();
    const { data: _data, ...bare } = revision('db-1');
    const res = await call(server, 'POST', REVISIONS, { body: bare });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'ControllerRevision.apps "db-1" is invalid: data: Required value: data is mandatory',
      reason: 'Invalid',
      details: { name: 'db-1', group: 'apps', kind: 'ControllerRevision', causes: [{ reason: 'FieldValueRequired', message: 'Required value: data is mandatory', field: 'data' }] },
      code: 422,
    });
  });

  it('treats data: null as missing, and lists a negative revision before it', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', REVISIONS, { body: revision('db-1', { data: null, revision: -1 }) });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('ControllerRevision.apps "db-1" is invalid: [revision: Invalid value: -1: must be greater than or equal to 0, data: Required value: data is mandatory]');
  });

  it('refuses data that is not a JSON object, as decoding it into a map does', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', REVISIONS, { body: revision('db-1', { data: ['not', 'an', 'object'] }) });
    expect(res.status).toBe(422);
    expect(res.json.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "<value omitted>": error parsing data: json: cannot unmarshal array into Go value of type map[string]interface {}', field: 'data' },
    ]);
  });

  it('refuses a name that is not a DNS subdomain', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', REVISIONS, { body: revision('DB_1') });
    expect(res.status).toBe(422);
    expect(res.json.details.causes[0]).toMatchObject({ field: 'metadata.name', message: expect.stringContaining('Invalid value: "DB_1": a lowercase RFC 1123 subdomain') });
  });

  it('stores a valid one, then refuses an update changing data as immutable and accepts one changing revision', async () => {
    const { server } = await start();
    const created = await call(server, 'POST', REVISIONS, { body: revision('db-1') });
    expect(created.status).toBe(201);
    const changed = { spec: { template: { ...DATA.spec.template, spec: { containers: [{ name: 'db', image: 'postgres:16.5' }] } } } };
    const update = await call(server, 'PUT', `${REVISIONS}/db-1`, { body: { ...created.json, data: changed } });
    expect(update.status).toBe(422);
    expect(update.json.message).toBe(`ControllerRevision.apps "db-1" is invalid: data: Invalid value: ${goRawExtension(changed).text}: field is immutable`);
    expect(update.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: `Invalid value: ${goRawExtension(changed).text}: field is immutable`, field: 'data' }]);
    const renumbered = await call(server, 'PUT', `${REVISIONS}/db-1`, { body: { ...created.json, revision: 3 } });
    expect([renumbered.status, renumbered.json.revision]).toEqual([200, 3]);
    const patched = await call(server, 'PATCH', `${REVISIONS}/db-1`, { body: { data: { spec: null } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(patched.status).toBe(422);
    expect(patched.json.details.causes[0].message).toMatch(/^Invalid value: runtime\.RawExtension\{Raw:\[\]uint8\{0x7b, 0x7d\}, Object:runtime\.Object\(nil\)\}: field is immutable$/);
  });
});

describe('ControllerRevision validation before 1.31 (data was a runtime.Object)', () => {
  it('accepts data that is not a JSON object, still requires data, and prints a refused change as a runtime.Unknown', async () => {
    const { server } = await start(30);
    const { data: _data, ...bare } = revision('db-0');
    expect((await call(server, 'POST', REVISIONS, { body: bare })).json.message).toBe('ControllerRevision.apps "db-0" is invalid: data: Required value: data is mandatory');
    expect((await call(server, 'POST', REVISIONS, { body: revision('db-1', { data: ['not', 'an', 'object'] }) })).status).toBe(201);
    const created = await call(server, 'POST', REVISIONS, { body: revision('db-2') });
    const update = await call(server, 'PUT', `${REVISIONS}/db-2`, { body: { ...created.json, data: { spec: {} } } });
    expect(update.json.message).toBe(
      `ControllerRevision.apps "db-2" is invalid: data: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:[]uint8{0x7b, 0x22, 0x73, 0x70, 0x65, 0x63, 0x22, 0x3a, 0x7b, 0x7d, 0x7d}, ContentEncoding:"", ContentType:"application/json"}: field is immutable`,
    );
    const removed = await call(server, 'PUT', `${REVISIONS}/db-2`, { body: { ...created.json, data: null } });
    expect(removed.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "null": field is immutable', field: 'data' }]);
    expect(goUnknown(undefined)).toBe('null');
  });
});

describe('goRawExtension', () => {
  it("prints the JSON bytes as Go's %#v prints a RawExtension, HTML-escaped as encoding/json writes them", () => {
    expect(goRawExtension({ a: '<&>' }).text).toBe(
      `runtime.RawExtension{Raw:[]uint8{${[...Buffer.from('{"a":"\\u003c\\u0026\\u003e"}')].map((b) => `0x${b.toString(16)}`).join(', ')}}, Object:runtime.Object(nil)}`,
    );
    expect(goRawExtension({}).text).toBe('runtime.RawExtension{Raw:[]uint8{0x7b, 0x7d}, Object:runtime.Object(nil)}');
    expect(goRawExtension(undefined).text).toBe('runtime.RawExtension{Raw:[]uint8(nil), Object:runtime.Object(nil)}');
  });
});
