import { describe, expect, it } from 'vitest';
import { call, deployment, useTestCluster } from './helpers.ts';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const EVENTS = '/api/v1/namespaces/default/events';

const fixture = useTestCluster();
const { start, watch } = fixture;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watch faults', () => {
  it('cuts every open watch socket', async () => {
    const { server, store } = await start();
    const a = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}`);
    const b = await watch(`${CONFIGMAPS}?watch=true&resourceVersion=${store.currentRv()}`);
    expect(server.faults.openWatches()).toBe(2);
    expect(server.faults.cutWatches()).toBe(2);
    expect(await a.ended).toEqual({ cut: true });
    expect(await b.ended).toEqual({ cut: true });
    expect(server.faults.openWatches()).toBe(0);
    expect((await call(server, 'GET', '/version')).status).toBe(200);
  });

  it('stalls open watches without closing them and delivers the backlog on resume', async () => {
    const { server, store } = await start({ bookmarkIntervalMs: 30 });
    const stalled = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}`);
    expect(server.faults.stallWatches()).toBe(1);
    const fresh = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}`);
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('b') });
    expect((await fresh.next()).object.metadata.name).toBe('a');
    await sleep(150);
    expect(stalled.chunks).toEqual([]);
    server.faults.resumeWatches();
    expect((await stalled.next()).object.metadata.name).toBe('a');
    expect((await stalled.next()).object.metadata.name).toBe('b');
  });

  it('compacts history so the next watch from an older resourceVersion gets 410', async () => {
    const { server, store } = await start();
    const before = store.currentRv();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('a') });
    const ok = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${before}`);
    expect((await ok.next()).type).toBe('ADDED');
    server.faults.compact();
    const expired = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${before}`);
    expect(await expired.next()).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
  });

  it('closes a watch whose client stops reading once the buffer bound is passed', async () => {
    const { server, store } = await start({ watchBufferLimitBytes: 64 * 1024 });
    const slow = await watch(`${CONFIGMAPS}?watch=true&resourceVersion=${store.currentRv()}`);
    slow.response.pause();
    const data = { blob: 'x'.repeat(16 * 1024) };
    for (let i = 0; i < 600 && server.faults.openWatches() > 0; i += 1) {
      await call(server, 'POST', CONFIGMAPS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, data } });
    }
    expect(server.faults.openWatches()).toBe(0);
    slow.response.resume();
    expect(await slow.ended).toEqual({ cut: false });
  });

  it('does not count a large initial burst against the slow-consumer bound', async () => {
    const { server } = await start({ watchBufferLimitBytes: 64 * 1024 });
    const data = { blob: 'x'.repeat(16 * 1024) };
    for (let i = 0; i < 20; i += 1) await call(server, 'POST', CONFIGMAPS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, data } });
    const w = await watch(`${CONFIGMAPS}?watch=true`);
    const names: string[] = [];
    for (let i = 0; i < 20; i += 1) names.push((await w.next()).object.metadata.name);
    expect(names.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`).sort());
    expect(server.faults.openWatches()).toBe(1);
  });
});

describe('request faults', () => {
  it('fails matching requests with 500 for the given count', async () => {
    const { server } = await start();
    server.faults.failRequests({ status: 500, count: 2, match: (method, path) => method === 'GET' && path.startsWith('/apis/apps') });
    expect((await call(server, 'GET', '/version')).status).toBe(200);
    const failed = await call(server, 'GET', DEPLOYMENTS);
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Internal error occurred: injected fault', reason: 'InternalError', code: 500 });
    expect((await call(server, 'GET', DEPLOYMENTS)).status).toBe(500);
    expect((await call(server, 'GET', DEPLOYMENTS)).status).toBe(200);
  });

  it('throttles with 429 and Retry-After until cleared', async () => {
    const { server } = await start();
    server.faults.failRequests({ status: 429, retryAfterSeconds: 3 });
    const res = await call(server, 'GET', DEPLOYMENTS);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.json).toMatchObject({ reason: 'TooManyRequests', details: { retryAfterSeconds: 3 }, code: 429 });
    expect((await call(server, 'GET', '/version')).status).toBe(429);
    server.faults.clear();
    expect((await call(server, 'GET', DEPLOYMENTS)).status).toBe(200);
  });

  it('denies matching requests with 403 Forbidden and the given message', async () => {
    const { server } = await start();
    const message = 'pods is forbidden: User "viewer" cannot list resource "pods" in API group "" at the cluster scope';
    server.faults.failRequests({ status: 403, message, match: (_method, path) => path === '/api/v1/pods' });
    const denied = await call(server, 'GET', '/api/v1/pods');
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', message, code: 403 });
    expect((await call(server, 'GET', DEPLOYMENTS)).status).toBe(200);
    server.faults.clear();
    expect((await call(server, 'GET', '/api/v1/pods')).status).toBe(200);
  });

  it('rejects matching requests with 401 Unauthorized', async () => {
    const { server } = await start();
    server.faults.failRequests({ status: 401, count: 1 });
    const rejected = await call(server, 'GET', DEPLOYMENTS);
    expect(rejected.status).toBe(401);
    expect(rejected.json).toMatchObject({ reason: 'Unauthorized', code: 401 });
    expect((await call(server, 'GET', DEPLOYMENTS)).status).toBe(200);
  });

  it('delays matching requests', async () => {
    const { server } = await start();
    server.faults.delayRequests(200, (_method, path) => path === '/version');
    let started = Date.now();
    await call(server, 'GET', '/version');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    started = Date.now();
    await call(server, 'GET', '/api');
    expect(Date.now() - started).toBeLessThan(150);
  });

  it('answers a stale Events list with an empty 200 when the quirk is on', async () => {
    const { server } = await start();
    const first = await call(server, 'POST', EVENTS, { body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Started', message: 'ok' } });
    const rv = first.json.metadata.resourceVersion;
    await call(server, 'POST', EVENTS, { body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e2' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Started', message: 'ok' } });
    server.faults.compact();
    const path = `${EVENTS}?resourceVersion=${rv}&resourceVersionMatch=Exact`;
    expect((await call(server, 'GET', path)).status).toBe(410);
    server.faults.emptyListOnStaleEvents(true);
    const quirky = await call(server, 'GET', path);
    expect(quirky.status).toBe(200);
    expect(quirky.json).toMatchObject({ kind: 'EventList', items: [] });
    expect((await call(server, 'GET', `${CONFIGMAPS}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).status).toBe(410);
  });
});

describe('restart', () => {
  it('keeps the port and the store and cuts every connection', async () => {
    const { server, store } = await start();
    await call(server, 'POST', DEPLOYMENTS, { body: deployment('web') });
    const w = await watch(`${DEPLOYMENTS}?watch=true&resourceVersion=${store.currentRv()}`);
    await server.restart();
    expect(await w.ended).toEqual({ cut: true });
    const res = await call(server, 'GET', `${DEPLOYMENTS}/web`);
    expect(res.status).toBe(200);
    expect(new URL(server.url).port).toBe(String(server.port));
  });
});
