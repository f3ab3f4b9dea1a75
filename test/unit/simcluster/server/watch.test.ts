import { describe, expect, it } from 'vitest';
import { call, deployment, useTestCluster } from './helpers.ts';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

const fixture = useTestCluster();
const { start, watch } = fixture;

describe('watch stream', () => {
  it('streams chunked newline-delimited JSON events with apiVersion and kind', async () => {
    const { server, store } = await start();
    const rv = store.currentRv();
    const w = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${rv}`);
    expect(w.status).toBe(200);
    expect(w.headers['content-type']).toBe('application/json');
    expect(w.headers['transfer-encoding']).toBe('chunked');
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    await call(server, 'PATCH', `${DEPLOYMENTS}/web`, { body: { spec: { replicas: 3 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    await call(server, 'DELETE', `${DEPLOYMENTS}/web`);
    const added = await w.next();
    expect(added).toMatchObject({ type: 'ADDED', object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', resourceVersion: String(rv + 1) } } });
    expect((await w.next()).type).toBe('MODIFIED');
    expect((await w.next()).type).toBe('DELETED');
    for (const chunk of w.chunks) expect(chunk.endsWith('\n')).toBe(true);
  });

  it('replays history from an older resourceVersion and starts with ADDED for unset', async () => {
    const { server, store } = await start();
    const rv = store.currentRv();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('b') });
    const replay = await watch(`${DEPLOYMENTS}?watch=1&resourceVersion=${rv + 1}`);
    expect(await replay.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'b' } } });
    const fresh = await watch(`${DEPLOYMENTS}?watch=true`);
    expect([(await fresh.next()).object.metadata.name, (await fresh.next()).object.metadata.name]).toEqual(['a', 'b']);
  });

  it('filters by label selector', async () => {
    const { server, store } = await start();
    const w = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}&labelSelector=app%3Db`);
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('b') });
    expect((await w.next()).object.metadata.name).toBe('b');
  });

  it('sends BOOKMARKs on the interval to clients that allowed them', async () => {
    const { store } = await start({ bookmarkIntervalMs: 50 });
    const w = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}&allowWatchBookmarks=true`);
    expect(await w.next()).toEqual({ type: 'BOOKMARK', object: { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { resourceVersion: String(store.currentRv()) } } });
  });

  it('keeps other watchers alive with bare newlines instead of unrequested BOOKMARKs', async () => {
    const { store } = await start({ bookmarkIntervalMs: 50 });
    const w = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(w.chunks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(w.chunks)).toEqual(new Set(['\n']));
  });

  it('ends the stream cleanly after timeoutSeconds', async () => {
    const { store } = await start();
    const started = Date.now();
    const w = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}&timeoutSeconds=1`);
    expect(await w.ended).toEqual({ cut: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fixture.current()?.server.faults.openWatches()).toBe(0);
  });

  it('sends initial events then the initial-events-end bookmark', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    const w = await watch(`${DEPLOYMENTS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
    expect(await w.next()).toMatchObject({ type: 'BOOKMARK', object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } } });
  });

  it('rejects sendInitialEvents without resourceVersionMatch=NotOlderThan', async () => {
    const { server } = await start();
    const res = await call(server, 'GET', `${DEPLOYMENTS}?watch=true&sendInitialEvents=true`);
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  });

  it('answers a compacted resourceVersion with HTTP 200 and one in-stream 410 ERROR', async () => {
    const { server, store } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    server.faults.compact();
    const oldest = store.oldestServableRv();
    const w = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=1`);
    expect(w.status).toBe(200);
    expect(await w.next()).toEqual({
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: 1 (${oldest})`, reason: 'Expired', code: 410 },
    });
    expect(await w.ended).toEqual({ cut: false });
  });

  it('answers 410 as an HTTP status in http mode', async () => {
    const { server } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    server.faults.compact();
    server.faults.watch410Mode('http');
    const res = await call(server, 'GET', `${DEPLOYMENTS}?watch=true&resourceVersion=1`);
    expect(res.status).toBe(410);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
  });

  it('streams Tables for kubectl get -w, with column definitions only on the first event', async () => {
    const { server, store } = await start();
    const w = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}`, { Accept: TABLE_ACCEPT });
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('b') });
    const first = await w.next();
    expect(first.type).toBe('ADDED');
    expect(first.object).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: String(store.currentRv() - 1) } });
    expect(first.object.columnDefinitions.length).toBeGreaterThan(0);
    expect(first.object.rows).toHaveLength(1);
    expect(first.object.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'a' } });
    const second = await w.next();
    expect(second.object.columnDefinitions).toBeNull();
    expect(second.object.rows[0].cells[0]).toBe('b');
  });
});
