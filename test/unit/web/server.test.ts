import http from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventText, startWebServer, type WebServer } from '../../../electron/web/server.ts';
import { packDelta } from '../../../electron/engine/stream/frames.ts';
import { PendingChanges } from '../../../electron/engine/stream/pending.ts';
import { slimPod } from '../engine/stream/fixtures.ts';
import { createDispatcher, type Handlers } from '../../../electron/engine/dispatcher.ts';
import { StreamHub } from '../../../electron/engine/hub.ts';
import { ok } from '../../../shared/result.ts';
import { REQUEST_CHANNELS } from '../../../shared/contract.ts';
import { withTempDir } from '../../helpers/tmp.ts';

let server: WebServer;
let hub: StreamHub;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await withTempDir();
  cleanup = tmp.cleanup;
  const staticDir = path.join(tmp.dir, 'renderer');
  await mkdir(path.join(staticDir, 'assets'), { recursive: true });
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><div id="app">the app</div>');
  await writeFile(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(tmp.dir, 'secret.txt'), 'outside the static dir');
  hub = new StreamHub();
  const handlers = Object.fromEntries(REQUEST_CHANNELS.map((c) => [c, () => ok({ channel: c })])) as unknown as Handlers;
  const dispatcher = createDispatcher({ ...handlers, 'contexts:select': ({ name }) => ok({ contexts: [], selected: name, kubeconfigCurrent: null, sources: [] }) });
  server = await startWebServer({ engine: { dispatch: dispatcher.dispatch, hub }, staticDir });
});
afterAll(async () => {
  await server.close();
  await cleanup();
});

function get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path: pathAndQuery, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
  });
}

const origin = () => `http://127.0.0.1:${server.port}`;

function connect(query: string, headers: Record<string, string> = { Origin: origin() }): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>)));
}

describe('browser shell server', () => {
  it('prints a loopback URL carrying the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the app with a strict CSP when the token is right', async () => {
    const res = await get(`/?token=${server.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('the app');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('shows a refusal page, not the app, for a missing or wrong token', async () => {
    for (const query of ['', '?token=', `?token=${server.token}x`, '?token=wrong']) {
      const res = await get(`/${query}`);
      expect(res.status).toBe(403);
      expect(res.body).toContain('data-refusal');
      expect(res.body).not.toContain('the app');
    }
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const res = await get(`/?token=${server.token}`, { Host: `evil.example:${server.port}` });
    expect(res.status).toBe(403);
  });

  it('serves static assets but nothing outside the build folder', async () => {
    expect((await get('/assets/app.js')).status).toBe(200);
    expect((await get('/../secret.txt')).status).toBe(404);
    expect((await get('/%2e%2e/secret.txt')).status).toBe(404);
    expect((await get('/assets/%2e%2e%2f%2e%2e%2fsecret.txt')).status).toBe(404);
  });

  it('refuses sockets without the token, with a wrong token, or from another origin', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401');
    await expect(connect('?token=nope')).rejects.toThrow('HTTP 401');
    await expect(connect(`?token=${server.token}`, { Origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect(`?token=${server.token}`, { Origin: `http://127.0.0.1:${server.port + 1}` })).rejects.toThrow('HTTP 403');
    await expect(connect(`?token=${server.token}`, {})).rejects.toThrow('HTTP 403');
  });

  it('carries requests and their Results', async () => {
    const ws = await connect(`?token=${server.token}`);
    const reply = nextMessage(ws);
    ws.send(JSON.stringify({ t: 'req', id: 7, channel: 'contexts:select', payload: { name: 'prod' } }));
    expect(await reply).toEqual({ t: 'res', id: 7, result: { ok: true, value: { contexts: [], selected: 'prod', kubeconfigCurrent: null, sources: [] } } });
    ws.close();
  });

  it('answers a malformed payload with an error Result and keeps the socket open', async () => {
    const ws = await connect(`?token=${server.token}`);
    let reply = nextMessage(ws);
    ws.send(JSON.stringify({ t: 'req', id: 1, channel: 'contexts:select', payload: { name: ['x'] } }));
    expect(await reply).toMatchObject({ t: 'res', id: 1, result: { ok: false, error: { code: 'invalid-request' } } });
    reply = nextMessage(ws);
    ws.send('{not json');
    expect(await reply).toEqual({ t: 'error', message: 'message is not JSON' });
    reply = nextMessage(ws);
    ws.send(JSON.stringify({ t: 'req', id: 'x' }));
    expect(await reply).toEqual({ t: 'error', message: 'message does not follow the protocol' });
    reply = nextMessage(ws);
    ws.send(JSON.stringify({ t: 'req', id: 2, channel: 'app:info', payload: {} }));
    expect(await reply).toMatchObject({ t: 'res', id: 2, result: { ok: true } });
    ws.close();
  });

  it('delivers only subscribed streams, starting with the latest payload', async () => {
    hub.emit('settings:changed', { theme: 'light', lastContext: null });
    const ws = await connect(`?token=${server.token}`);
    let message = nextMessage(ws);
    ws.send(JSON.stringify({ t: 'sub', stream: 'settings:changed' }));
    expect(await message).toEqual({ t: 'evt', stream: 'settings:changed', payload: { theme: 'light', lastContext: null } });
    message = nextMessage(ws);
    hub.emit('connection:changed', { context: null, state: 'idle', since: 1 });
    hub.emit('settings:changed', { theme: 'dark', lastContext: null });
    expect(await message).toEqual({ t: 'evt', stream: 'settings:changed', payload: { theme: 'dark', lastContext: null } });
    message = nextMessage(ws);
    ws.send(JSON.stringify({ t: 'sub', stream: 'nope:nothing' }));
    expect(await message).toEqual({ t: 'error', message: 'unknown stream nope:nothing' });
    ws.close();
  });

  it('refuses to listen on a non-loopback address', async () => {
    await expect(startWebServer({ engine: { dispatch: async () => ok(1), hub }, staticDir: '.', host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });

  it('sends a packed frame as the text the stream measured, the same JSON as serialising the message', () => {
    const pending = new PendingChanges();
    for (const i of [1, 2]) pending.record({ type: 'upsert', kind: 'pods', object: slimPod(i), previous: undefined });
    pending.record({ type: 'delete', kind: 'pods', ref: { kind: 'pods', uid: 'gone' }, object: slimPod(3) });
    const { frame } = packDelta(pending, { epoch: 'e', seq: 4 }, 60_000);
    expect(eventText('cluster:frames', frame)).toBe(JSON.stringify({ t: 'evt', stream: 'cluster:frames', payload: frame }));
    const begin = { type: 'snapshot-begin', epoch: 'e', context: null, seq: 5, total: 0 } as const;
    expect(eventText('cluster:frames', begin)).toBe(JSON.stringify({ t: 'evt', stream: 'cluster:frames', payload: begin }));
    const settings = { theme: 'dark', lastContext: null };
    expect(eventText('settings:changed', settings)).toBe(JSON.stringify({ t: 'evt', stream: 'settings:changed', payload: settings }));
  });
});
