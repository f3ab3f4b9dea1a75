import { afterEach, describe, expect, it, vi } from 'vitest';
import { ITEMS_PER_CHUNK, StreamedBody, jsonListBody, jsonListBytes } from '../../../../electron/engine/simcluster/server/streamed-body.ts';
import { call, openWatch, startTestCluster, type TestCluster, type } from './helpers.ts';

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const CONFIGMAPS = type('configmaps');

function configMap(i: number): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i).padStart(4, '0')}`, namespace: 'default', labels: { n: String(i) } }, data: { 'app.properties': `index=${i}\nescaped="quotes" \u00e9\n` } };
}

function text(body: string | StreamedBody): string {
  return typeof body === 'string' ? body : [...body.chunks].join('');
}

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

describe('jsonListBody', () => {
  it('streams a long list as the exact text JSON.stringify writes for it', () => {
    const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: 'abc' }, items: Array.from({ length: ITEMS_PER_CHUNK * 2 + 3 }, (_, i) => configMap(i)) };
    const body = jsonListBody(list, 'items');
    expect(body).toBeInstanceOf(StreamedBody);
    expect([...(body as StreamedBody).chunks].length).toBe(5);
    expect(text(body)).toBe(JSON.stringify(list));
  });

  it('streams a Table by its rows, which come last', () => {
    const table = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '7' }, columnDefinitions: [{ name: 'Name', type: 'string' }], rows: Array.from({ length: ITEMS_PER_CHUNK + 1 }, (_, i) => ({ cells: [`cm-${i}`], object: { kind: 'PartialObjectMetadata' } })) };
    expect(text(jsonListBody(table, 'rows'))).toBe(JSON.stringify(table));
  });

  it('answers short lists, and lists whose array is not last, as one string', () => {
    const short = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: [configMap(1)] };
    expect(jsonListBody(short, 'items')).toBe(JSON.stringify(short));
    const itemsFirst = { items: Array.from({ length: ITEMS_PER_CHUNK + 1 }, (_, i) => configMap(i)), kind: 'ConfigMapList' };
    expect(jsonListBody(itemsFirst, 'items')).toBe(JSON.stringify(itemsFirst));
  });
});

describe('jsonListBytes', () => {
  const bytesOf = (item: unknown): Buffer => Buffer.from(JSON.stringify(item), 'utf8');
  const bodyText = (body: Buffer | StreamedBody): string => (Buffer.isBuffer(body) ? body : Buffer.concat([...body.chunks].map((c) => (typeof c === 'string' ? Buffer.from(c) : c)))).toString('utf8');

  it('writes the exact UTF-8 of JSON.stringify, from each item’s own bytes, long lists streamed', () => {
    const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: Array.from({ length: ITEMS_PER_CHUNK * 2 + 3 }, (_, i) => configMap(i)) };
    const asked: unknown[] = [];
    const body = jsonListBytes(list, 'items', (item) => (asked.push(item), bytesOf(item)));
    expect(body).toBeInstanceOf(StreamedBody);
    expect(bodyText(body)).toBe(JSON.stringify(list));
    expect(asked).toEqual(list.items);
  });

  it('answers a short list, an empty one and one whose items are not last as one buffer', () => {
    const short = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [configMap(1), configMap(2)] };
    const empty = { ...short, items: [] };
    const itemsFirst = { items: [configMap(1)], metadata: { resourceVersion: '9' } };
    for (const list of [short, empty, itemsFirst]) {
      const body = jsonListBytes(list, 'items', bytesOf);
      expect(Buffer.isBuffer(body)).toBe(true);
      expect(bodyText(body)).toBe(JSON.stringify(list));
    }
  });
});

describe('large lists over HTTP', () => {
  async function startWith(count: number): Promise<TestCluster> {
    cluster = await startTestCluster();
    for (let i = 0; i < count; i += 1) cluster.store.create(CONFIGMAPS, configMap(i));
    return cluster;
  }

  it('sends a long list chunked, complete and in order, and a short one with a Content-Length', async () => {
    const { server, store } = await startWith(ITEMS_PER_CHUNK * 3);
    const res = await call(server, 'GET', '/api/v1/namespaces/default/configmaps');
    expect(res.status).toBe(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.text).toBe(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: String(store.currentRv()) }, items: store.all(CONFIGMAPS, 'default') }));
    const page = await call(server, 'GET', '/api/v1/namespaces/default/configmaps?limit=10');
    expect(page.headers['content-length']).toBe(String(Buffer.byteLength(page.text)));
    expect(page.json.items).toHaveLength(10);
    expect(page.json.metadata.remainingItemCount).toBe(ITEMS_PER_CHUNK * 3 - 10);
  });

  it("sends each item as the store's bytes of it, in long lists and pages alike", async () => {
    const { server, store } = await startWith(ITEMS_PER_CHUNK * 2);
    const toJson = vi.spyOn(store, 'toJsonBytes');
    const res = await call(server, 'GET', '/api/v1/namespaces/default/configmaps');
    const page = await call(server, 'GET', '/api/v1/namespaces/default/configmaps?limit=10');
    expect(toJson).toHaveBeenCalledTimes(ITEMS_PER_CHUNK * 2 + 10);
    expect(res.text).toBe(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: String(store.currentRv()) }, items: store.all(CONFIGMAPS, 'default') }));
    expect(page.json.items).toHaveLength(10);
    expect(page.text).toBe(JSON.stringify(JSON.parse(page.text)));
  });

  it('sends a long Table list, as kubectl get asks for it, chunked with every row', async () => {
    const { server } = await startWith(ITEMS_PER_CHUNK + 50);
    const res = await call(server, 'GET', '/api/v1/configmaps', { headers: { Accept: TABLE_ACCEPT } });
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(res.json.rows).toHaveLength(ITEMS_PER_CHUNK + 50);
    expect(res.json.rows[0].cells[0]).toBe('cm-0000');
  });
});

describe('watch events in JSON', () => {
  it('writes each event as the line JSON.stringify makes of it, the same for every watch', async () => {
    cluster = await startTestCluster();
    const { server, store } = cluster;
    const created = store.create(CONFIGMAPS, configMap(1));
    const path = `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${created.metadata.resourceVersion}`;
    const watches = [await openWatch(server, path), await openWatch(server, path)];
    const updated = store.mutate(CONFIGMAPS, 'default', 'cm-0001', (copy) => void (copy['data'] = { 'app.properties': 'index=2' }));
    for (const watch of watches) {
      expect(await watch.next()).toEqual({ type: 'MODIFIED', object: JSON.parse(JSON.stringify(updated)) });
      expect(watch.chunks.join('')).toContain(`${JSON.stringify({ type: 'MODIFIED', object: updated })}\n`);
      watch.close();
    }
  });
});
