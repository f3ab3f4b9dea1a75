import { describe, expect, it } from 'vitest';
import { call, configMap, deployment, type Json, type OpenWatch, type, useTestCluster } from './helpers.ts';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const CONFIGMAPS = '/api/v1/configmaps';
const WATCH_LIST = 'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
const END = 'k8s.io/initial-events-end';

const fixture = useTestCluster();
const { start, watch } = fixture;

/** Events up to and including the initial-events-end bookmark. */
async function initialEvents(w: OpenWatch, timeoutMs = 2000): Promise<Array<{ type: string; object: Json }>> {
  const events: Array<{ type: string; object: Json }> = [];
  for (;;) {
    const event = await w.next(timeoutMs);
    events.push(event);
    if (event.type === 'BOOKMARK' && event.object.metadata.annotations?.[END] === 'true') return events;
  }
}

async function invalidWatch(path: string): Promise<Json> {
  const server = fixture.current()?.server;
  if (!server) throw new Error('no cluster');
  const res = await call(server, 'GET', path);
  expect(res.status).toBe(422);
  expect(res.json).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { group: 'meta.k8s.io', kind: 'ListOptions' } });
  return res.json;
}

describe('WatchList (sendInitialEvents)', () => {
  it('streams the list as ADDED events, then the end bookmark at the list resourceVersion, then later writes', async () => {
    const { server } = await start();
    for (const name of ['a', 'b', 'c']) await call(server, 'POST', DEPLOYMENTS, { body: deployment(name) });
    const list = await call(server, 'GET', DEPLOYMENTS);
    const w = await watch(`${DEPLOYMENTS}?${WATCH_LIST}`);
    const events = await initialEvents(w);
    expect(events.slice(0, -1).map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
    expect(events.slice(0, -1).map((e) => e.object)).toEqual(list.json.items.map((item: Json) => ({ apiVersion: 'apps/v1', kind: 'Deployment', ...item })));
    expect(events.at(-1)).toEqual({
      type: 'BOOKMARK',
      object: { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { resourceVersion: list.json.metadata.resourceVersion, annotations: { [END]: 'true' } } },
    });
    await call(server, 'PATCH', `${DEPLOYMENTS}/b`, { body: { spec: { replicas: 5 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(await w.next()).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'b' }, spec: { replicas: 5 } } });
  });

  it('applies label and field selectors and the namespace to the initial events', async () => {
    const { server } = await start();
    await call(server, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } } });
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('keep', { tier: 'web' }) });
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('drop', { tier: 'db' }) });
    await call(server, 'POST', '/api/v1/namespaces/other/configmaps', { body: configMap('elsewhere', { tier: 'web' }, 'other') });
    const names = (events: Array<{ object: Json }>) => events.slice(0, -1).map((e) => `${e.object.metadata.namespace}/${e.object.metadata.name}`);
    expect(names(await initialEvents(await watch(`${CONFIGMAPS}?${WATCH_LIST}&labelSelector=tier%3Dweb`)))).toEqual(['default/keep', 'other/elsewhere']);
    expect(names(await initialEvents(await watch(`/api/v1/namespaces/default/configmaps?${WATCH_LIST}&labelSelector=tier%3Dweb`)))).toEqual(['default/keep']);
    expect(names(await initialEvents(await watch(`${CONFIGMAPS}?${WATCH_LIST}&fieldSelector=metadata.name%3Ddrop`)))).toEqual(['default/drop']);
  });

  it('serves a compacted resourceVersion with the current state (NotOlderThan accepts older)', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    server.faults.compact();
    const w = await watch(`${DEPLOYMENTS}?${WATCH_LIST}&resourceVersion=1`);
    const events = await initialEvents(w);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
  });

  it('waits for a resourceVersion the store has not reached and serves it once written', async () => {
    const { server, store } = await start();
    const ahead = store.currentRv() + 1;
    const opening = watch(`${DEPLOYMENTS}?${WATCH_LIST}&resourceVersion=${ahead}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('late') });
    const events = await initialEvents(await opening);
    expect(events.map((e) => e.object.metadata.name ?? e.type)).toEqual(['late', 'BOOKMARK']);
    expect(events[1]?.object.metadata.resourceVersion).toBe(String(ahead));
  });

  it('answers a resourceVersion still ahead after 3 s with one in-stream 504 Too large resource version', async () => {
    const { store } = await start();
    const current = store.currentRv();
    const w = await watch(`${DEPLOYMENTS}?${WATCH_LIST}&resourceVersion=${current + 10}`);
    expect(w.status).toBe(200);
    expect(await w.next()).toEqual({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Timeout: Too large resource version: ${current + 10}, current: ${current}`,
        reason: 'Timeout',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
        code: 504,
      },
    });
    expect(await w.ended).toEqual({ cut: false });
  }, 10_000);

  it('answers a list at a resourceVersion ahead with the same 504 Timeout and cause', async () => {
    const { server, store } = await start();
    const current = store.currentRv();
    const res = await call(server, 'GET', `${DEPLOYMENTS}?resourceVersion=${current + 5}`);
    expect(res.status).toBe(504);
    expect(res.json).toMatchObject({ reason: 'Timeout', message: `Timeout: Too large resource version: ${current + 5}, current: ${current}`, details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 } });
  });

  it('sends the initial events but no end bookmark to a client that did not allow bookmarks (as upstream)', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    const w = await watch(`${DEPLOYMENTS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('b') });
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'b' } } });
  });

  it('sends no initial events with sendInitialEvents=false, and watches from the resourceVersion given', async () => {
    const { server, store } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    const rv = store.currentRv();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('b') });
    const fromNow = await watch(`${DEPLOYMENTS}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const fromRv = await watch(`${DEPLOYMENTS}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=${rv}`);
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('c') });
    expect(await fromNow.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'c' } } });
    expect((await fromRv.next()).object.metadata.name).toBe('b');
    expect((await fromRv.next()).object.metadata.name).toBe('c');
  });

  it('ends after timeoutSeconds like any watch', async () => {
    const { store } = await start();
    store.create(type('configmaps'), configMap('a') as never);
    const w = await watch(`${CONFIGMAPS}?${WATCH_LIST}&timeoutSeconds=1`);
    expect((await initialEvents(w)).length).toBe(2);
    expect(await w.ended).toEqual({ cut: false });
  });

  it('streams 5,000 pods in chunks and ends them with the bookmark, then goes on watching', async () => {
    const { store, server } = await start();
    const pods = type('pods');
    for (let i = 0; i < 5000; i += 1) {
      store.create(pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-${String(i).padStart(5, '0')}`, namespace: 'default', labels: { app: 'bulk' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } as never);
    }
    const rv = store.currentRv();
    const w = await watch(`/api/v1/pods?${WATCH_LIST}`);
    const events = await initialEvents(w, 10_000);
    expect(events.length).toBe(5001);
    expect(events.slice(0, -1).every((e) => e.type === 'ADDED')).toBe(true);
    expect(events[4999]?.object.metadata.name).toBe('pod-04999');
    expect(events[5000]?.object.metadata.resourceVersion).toBe(String(rv));
    // Chunked: neither one write per event nor one write for all of them.
    expect(w.chunks.length).toBeGreaterThan(1);
    expect(w.chunks.length).toBeLessThan(5000);
    await call(server, 'DELETE', '/api/v1/namespaces/default/pods/pod-00001?gracePeriodSeconds=0');
    expect(await w.next()).toMatchObject({ object: { metadata: { name: 'pod-00001' } } });
  }, 30_000);
});

describe('WatchList under faults', () => {
  it('ends cleanly when cut while a client that stopped reading holds up the initial events', async () => {
    const { store, server } = await start();
    const pods = type('pods');
    for (let i = 0; i < 5000; i += 1) {
      store.create(pods, { apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-${i}`, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } as never);
    }
    const w = await watch(`/api/v1/pods?${WATCH_LIST}`);
    w.response.pause();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.faults.openWatches()).toBe(1);
    expect(server.faults.cutWatches()).toBe(1);
    expect(server.faults.openWatches()).toBe(0);
    w.response.resume();
    expect((await w.ended).cut).toBe(true);
  });
});

describe('WatchList option validation (as ValidateListOptions)', () => {
  it('requires resourceVersionMatch=NotOlderThan with sendInitialEvents', async () => {
    await start();
    const status = await invalidWatch(`${DEPLOYMENTS}?watch=1&sendInitialEvents=false`);
    expect(status.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    expect(status.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', field: 'resourceVersionMatch' }]);
  });

  it('forbids resourceVersionMatch on a watch without sendInitialEvents', async () => {
    await start();
    const status = await invalidWatch(`${DEPLOYMENTS}?watch=1&resourceVersionMatch=NotOlderThan`);
    expect(status.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
  });

  it('lists every problem of an Exact match, in upstream order', async () => {
    await start();
    const status = await invalidWatch(`${DEPLOYMENTS}?watch=1&sendInitialEvents=true&resourceVersionMatch=Exact&allowWatchBookmarks=true`);
    expect(status.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    );
    expect(status.details.causes.map((c: Json) => c.reason)).toEqual(['FieldValueForbidden', 'FieldValueNotSupported']);
  });

  it('forbids resourceVersionMatch with continue', async () => {
    await start();
    const status = await invalidWatch(`${DEPLOYMENTS}?${WATCH_LIST}&continue=abc`);
    expect(status.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided');
  });
});
