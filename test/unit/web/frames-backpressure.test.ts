/**
 * The browser shell's bound on `cluster:frames`: a page that stops reading is cut off instead of
 * making the engine buffer without limit, gets its other streams meanwhile, and resumes at a
 * fresh snapshot once it drains.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from '../../../electron/web/server.ts';
import { FRAMES_CUTOFF_BYTES } from '../../../electron/web/frames-flow.ts';
import { createDispatcher, type Handlers } from '../../../electron/engine/dispatcher.ts';
import { StreamHub } from '../../../electron/engine/hub.ts';
import { REQUEST_CHANNELS } from '../../../shared/contract.ts';
import type { ClusterFrame } from '../../../shared/cluster.ts';
import { ok } from '../../../shared/result.ts';

let server: WebServer;
let hub: StreamHub;
let seq = 0;
const resyncReasons: string[] = [];

beforeAll(async () => {
  hub = new StreamHub();
  const handlers = Object.fromEntries(REQUEST_CHANNELS.map((c) => [c, () => ok({})])) as unknown as Handlers;
  const dispatcher = createDispatcher({
    ...handlers,
    'cluster:resync': ({ reason }) => {
      resyncReasons.push(reason ?? '');
      seq += 1;
      hub.emit('cluster:frames', { type: 'snapshot-begin', epoch: 'e1', context: null, seq, total: 0 });
      hub.emit('cluster:frames', { type: 'snapshot-end', epoch: 'e1', seq });
      return ok({ epoch: 'e1', seq });
    },
  });
  server = await startWebServer({ engine: { dispatch: dispatcher.dispatch, hub }, staticDir: '.' });
});
afterAll(() => server.close());

interface Client {
  ws: WebSocket;
  frames: ClusterFrame[];
  frameBytes: number;
  settings: unknown[];
}

async function client(): Promise<Client> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { headers: { Origin: `http://127.0.0.1:${server.port}` } });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const c: Client = { ws, frames: [], frameBytes: 0, settings: [] };
  let answered = false;
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { t: string; stream?: string; payload?: unknown };
    if (message.t === 'res') answered = true;
    if (message.stream === 'cluster:frames') {
      c.frames.push(message.payload as ClusterFrame);
      c.frameBytes += String(data).length;
    }
    if (message.stream === 'settings:changed') c.settings.push(message.payload);
  });
  ws.send(JSON.stringify({ t: 'sub', stream: 'cluster:frames' }));
  ws.send(JSON.stringify({ t: 'sub', stream: 'settings:changed' }));
  ws.send(JSON.stringify({ t: 'req', id: 1, channel: 'app:info', payload: {} }));
  await until(() => answered);
  return c;
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function bigDelta(n: number): ClusterFrame {
  const pad = 'x'.repeat(60_000);
  return { type: 'delta', epoch: 'e1', seq: n, upserts: [{ apiVersion: 'v1', kind: 'Pod', metadata: { uid: `u${n}`, name: `p${n}`, resourceVersion: '1', annotations: { pad } } }], kinds: ['pods'], deletes: [] };
}

describe('cluster:frames backpressure on the WebSocket', () => {
  it('cuts off a page that stops reading, keeps its other streams, and resumes it at a snapshot once drained', async () => {
    const slow = await client();
    const fast = await client();
    slow.ws.pause();
    const FRAMES = 600;
    for (let i = 1; i <= FRAMES; i += 1) {
      seq = i;
      hub.emit('cluster:frames', bigDelta(i));
      if (i === FRAMES / 2) hub.emit('settings:changed', { theme: 'light', lastContext: null });
      // One frame per turn, so the page that does read keeps up.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => fast.frames.length === FRAMES);
    expect(resyncReasons).toEqual([]);
    expect(server.framesBacklog()).toBeLessThan(FRAMES_CUTOFF_BYTES);

    slow.ws.resume();
    await until(() => slow.frames.some((f) => f.type === 'snapshot-end'));
    const cut = slow.frames.findIndex((f) => f.type === 'snapshot-begin');
    const before = slow.frames.slice(0, cut);
    // A contiguous prefix, then nothing until the snapshot: never a torn stream.
    expect(before.map((f) => f.seq)).toEqual(before.map((_, i) => i + 1));
    expect(before.length).toBeLessThan(FRAMES);
    expect(slow.frames[cut]).toMatchObject({ type: 'snapshot-begin', seq: FRAMES + 1 });
    expect(resyncReasons).toHaveLength(1);
    expect(slow.settings).toEqual([{ theme: 'light', lastContext: null }]);
    // It got the bound plus what the loopback socket buffers hold (about 8 MiB here), not the 36 MB sent.
    expect(slow.frameBytes).toBeLessThan(3 * FRAMES_CUTOFF_BYTES);
    fast.ws.close();
    slow.ws.close();
  });
});
