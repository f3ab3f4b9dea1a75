/**
 * Metadata-only lists and watches, as the engine's discovery registry asks for them
 * (METADATA_LIST_ACCEPT / METADATA_WATCH_ACCEPT): a Secret's values never leave the simulated
 * API server, in a list body or in any watch event, except in the last-applied annotation a
 * real server keeps too, which the engine drops as the object comes in.
 */
import { describe, expect, it } from 'vitest';
import { METADATA_LIST_ACCEPT, METADATA_WATCH_ACCEPT } from '../../../../electron/engine/cluster/discovery/modes.ts';
import { LAST_APPLIED_ANNOTATION, slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { call, useTestCluster } from './helpers.ts';

const SECRETS = '/api/v1/namespaces/default/secrets';
const VALUE = 'hunter2-correct-horse';
const ENCODED = Buffer.from(VALUE).toString('base64');
const ROTATED = 'rotated-battery-staple';

const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default', labels: { app: 'db' } }, type: 'Opaque', data: { password: ENCODED } });

const SECRET_SOURCE = { kind: 'secrets', objectKind: 'Secret', apiVersion: 'v1', metadataOnly: true };

const fixture = useTestCluster();

function expectNoValues(text: string): void {
  for (const leaked of [VALUE, ENCODED, ROTATED, Buffer.from(ROTATED).toString('base64'), '"data"', '"stringData"']) expect(text).not.toContain(leaked);
}

describe('metadata-only Secrets', () => {
  it('lists Secrets as PartialObjectMetadata without their data', async () => {
    const { server } = await fixture.start();
    expect((await call(server, 'POST', SECRETS, { body: secret('db') })).status).toBe(201);
    for (const path of [SECRETS, '/api/v1/secrets', '/api/v1/secrets?limit=1']) {
      const res = await call(server, 'GET', path, { headers: { Accept: METADATA_LIST_ACCEPT } });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: expect.any(String) } });
      expect(res.json.items).toEqual([{ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: expect.objectContaining({ name: 'db', labels: { app: 'db' }, uid: expect.any(String) }) }]);
      expectNoValues(res.text);
    }
    // The same list in full carries the value: the check above can fail.
    expect((await call(server, 'GET', SECRETS)).text).toContain(ENCODED);
  });

  it('watches Secrets as PartialObjectMetadata through create, data change and delete', async () => {
    const { server } = await fixture.start();
    await call(server, 'POST', SECRETS, { body: secret('before') });
    const w = await fixture.watch(`${SECRETS}?watch=true&allowWatchBookmarks=true`, { Accept: METADATA_WATCH_ACCEPT });
    expect(w.status).toBe(200);
    await call(server, 'POST', SECRETS, { body: secret('db') });
    await call(server, 'PATCH', `${SECRETS}/db`, { body: { stringData: { password: ROTATED } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    await call(server, 'DELETE', `${SECRETS}/db`);
    const events = [await w.next(), await w.next(), await w.next(), await w.next()];
    expect(events.map((e) => [e.type, e.object.kind, e.object.metadata.name])).toEqual([
      ['ADDED', 'PartialObjectMetadata', 'before'],
      ['ADDED', 'PartialObjectMetadata', 'db'],
      ['MODIFIED', 'PartialObjectMetadata', 'db'],
      ['DELETED', 'PartialObjectMetadata', 'db'],
    ]);
    expectNoValues(w.chunks.join(''));
  });

  it('refuses a metadata-only request in a form it cannot serve rather than send whole objects', async () => {
    const { server } = await fixture.start();
    await call(server, 'POST', SECRETS, { body: secret('db') });
    const res = await call(server, 'GET', SECRETS, { headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v2' } });
    expect(res.status).toBe(406);
    expectNoValues(res.text);
  });
});

describe('metadata-only Secrets in the engine', () => {
  it('keep no value of a Secret applied with kubectl, whose last-applied annotation copies its data', async () => {
    const { server } = await fixture.start();
    const manifest = secret('applied');
    const applied = { ...manifest, metadata: { ...manifest.metadata, annotations: { [LAST_APPLIED_ANNOTATION]: JSON.stringify(manifest), team: 'db' } } };
    await call(server, 'POST', SECRETS, { body: applied });
    const res = await call(server, 'GET', SECRETS, { headers: { Accept: METADATA_LIST_ACCEPT } });
    // As kube-apiserver does, the server keeps annotations in PartialObjectMetadata...
    expect(res.text).toContain(ENCODED);
    // ...so the engine drops the annotation as the object comes in.
    const objects = (res.json.items as unknown[]).map((item) => slimObject(item, SECRET_SOURCE));
    expect(objects).toEqual([{ apiVersion: 'v1', kind: 'Secret', metadata: expect.objectContaining({ name: 'applied', annotations: { team: 'db' } }) }]);
    expectNoValues(JSON.stringify(objects));
  });

  it('refuses a whole object where PartialObjectMetadata was promised', async () => {
    const { server } = await fixture.start();
    await call(server, 'POST', SECRETS, { body: secret('db') });
    const whole = (await call(server, 'GET', SECRETS)).json.items[0];
    expect(() => slimObject({ ...whole, kind: 'Secret' }, SECRET_SOURCE)).toThrow('a metadata-only read of secrets answered a Secret instead of PartialObjectMetadata');
  });
});
