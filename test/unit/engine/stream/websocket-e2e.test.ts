/**
 * The whole delta stream through the real browser-shell transport: cache -> frame stream -> hub
 * -> WebSocket -> frame client, with `cluster:resync` going back the same way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { createFrameStream, type FrameStream } from '../../../../electron/engine/stream/batcher.ts';
import { createDispatcher, type Handlers } from '../../../../electron/engine/dispatcher.ts';
import { StreamHub } from '../../../../electron/engine/hub.ts';
import { startWebServer, type WebServer } from '../../../../electron/web/server.ts';
import { MAX_FRAME_BYTES, type ClusterFrame, type SlimObject } from '../../../../shared/cluster.ts';
import { REQUEST_CHANNELS } from '../../../../shared/contract.ts';
import { createFrameClient, type FrameClient, type ResyncAnswer } from '../../../../shared/frame-client.ts';
import { ok } from '../../../../shared/result.ts';
import { slimPod } from './fixtures.ts';
import { upsertBuiltin } from './cache-helpers.ts';

/** The paced snapshot's size: well past what the kernel buffers between server and page. */
const PACED_PODS = 40_000;

interface Setup {
  cache: ObjectCache;
  stream: FrameStream;
  server: WebServer;
  close(): Promise<void>;
}

async function setup(): Promise<Setup> {
  const cache = new ObjectCache();
  const hub = new StreamHub();
  // The server starts after the stream, which reads the server's backlog from then on.
  const transport: { server?: WebServer } = {};
  const stream = createFrameStream({
    cache,
    epoch: 'e1',
    context: 'sim',
    emit: (frame) => hub.emit('cluster:frames', frame),
    // The wiring the engine needs: the browser shell tells the stream how far its slowest page is behind.
    backlog: () => transport.server?.framesBacklog() ?? 0,
  });
  const handlers = Object.fromEntries(REQUEST_CHANNELS.map((c) => [c, () => ok({})])) as unknown as Handlers;
  const dispatcher = createDispatcher({ ...handlers, 'cluster:resync': ({ reason }) => ok(stream.resync(reason)) });
  const server = await startWebServer({ engine: { dispatch: dispatcher.dispatch, hub }, staticDir: '.' });
  transport.server = server;
  return {
    cache,
    stream,
    server,
    close: async () => {
      stream.dispose();
      await server.close();
    },
  };
}

interface Page {
  ws: WebSocket;
  client: FrameClient;
  held: Map<string, SlimObject>;
  frames: ClusterFrame[];
  largestMessage: number;
}

async function page(server: WebServer): Promise<Page> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { headers: { Origin: `http://127.0.0.1:${server.port}` } });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const answers = new Map<number, (answer: ResyncAnswer | undefined) => void>();
  let nextId = 1;
  const held = new Map<string, SlimObject>();
  const client = createFrameClient({
    onSnapshot(objects) {
      held.clear();
      for (const o of objects) held.set(o.metadata.uid, o);
    },
    onDeltas(upserts, _kinds, deletes) {
      for (const o of upserts) held.set(o.metadata.uid, o);
      for (const ref of deletes) held.delete(ref.uid);
    },
    requestResync(reason) {
      const id = nextId++;
      ws.send(JSON.stringify({ t: 'req', id, channel: 'cluster:resync', payload: { reason } }));
      return new Promise((resolve) => answers.set(id, resolve));
    },
  });
  const p: Page = { ws, client, held, frames: [], largestMessage: 0 };
  ws.on('message', (data) => {
    const text = String(data);
    const message = JSON.parse(text) as { t: string; id?: number; stream?: string; payload?: unknown; result?: { ok: boolean; value?: ResyncAnswer } };
    if (message.t === 'res' && message.id !== undefined) {
      answers.get(message.id)?.(message.result?.ok ? message.result.value : undefined);
      answers.delete(message.id);
    }
    if (message.stream !== 'cluster:frames') return;
    p.largestMessage = Math.max(p.largestMessage, Buffer.byteLength(text));
    p.frames.push(message.payload as ClusterFrame);
    client.receive(message.payload as ClusterFrame);
  });
  ws.send(JSON.stringify({ t: 'sub', stream: 'cluster:frames' }));
  client.resync('page loaded');
  return p;
}

async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const versions = (objects: Iterable<SlimObject>) => new Map([...objects].map((o) => [o.metadata.uid, o.metadata.resourceVersion]));
const inSync = (p: Page, s: Setup) => {
  const state = p.client.state();
  const stats = s.stream.stats();
  return state.phase === 'live' && state.seq === stats.seq && stats.pending === 0 && !stats.snapshotInProgress;
};

let current: Setup | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('delta stream over the WebSocket transport', () => {
  it('keeps a page equal to the cache through churn', async () => {
    const s = (current = await setup());
    for (let i = 0; i < 2000; i += 1) upsertBuiltin(s.cache, slimPod(i));
    const p = await page(s.server);
    await until(() => p.client.state().phase === 'live');
    expect(p.held.size).toBe(2000);

    let rv = 1;
    const deadline = Date.now() + 1500;
    while (Date.now() < deadline) {
      for (let op = 0; op < 40; op += 1) {
        const n = Math.floor(Math.random() * 3000);
        if (Math.random() < 0.2) s.cache.delete('pods', slimPod(n).metadata.uid);
        else upsertBuiltin(s.cache, slimPod(n, String(++rv)));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await until(() => inSync(p, s));
    expect(versions(p.held.values())).toEqual(versions(s.cache.list()));
    expect(p.largestMessage).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    expect(s.stream.stats().flushes).toBeGreaterThan(5);
    p.ws.close();
  });

  it('paces a snapshot far bigger than the cutoff to a page that reads in bursts, so it arrives whole', async () => {
    const s = (current = await setup());
    // Far more than loopback's socket buffers hold (several MB autotuned), or a fast machine
    // takes the whole snapshot into the kernel before the page's first pause and nothing waits.
    for (let i = 0; i < PACED_PODS; i += 1) upsertBuiltin(s.cache, slimPod(i));
    const p = await page(s.server);
    // The page reads 10 ms out of every 40 ms.
    const toggle = setInterval(() => {
      p.ws.pause();
      setTimeout(() => p.ws.resume(), 30);
    }, 40);
    try {
      await until(() => p.client.state().phase === 'live', 15_000);
    } finally {
      clearInterval(toggle);
      p.ws.resume();
    }
    expect(p.held.size).toBe(PACED_PODS);
    // One snapshot: the page was never cut off (a cutoff would have started another).
    expect(p.frames.filter((f) => f.type === 'snapshot-begin')).toHaveLength(1);
    expect(s.stream.stats().backlogWaits).toBeGreaterThan(0);
    p.ws.close();
  });
});
