/**
 * A watch's live events written in one event-loop turn leave as one HTTP chunk: one write per line
 * cost the simulator more than serialising the line. The bytes and their order are unchanged.
 * The response is read from a raw socket, so the chunked framing itself is checked.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { IncomingObject } from '../../../../electron/engine/simcluster/types.ts';
import { configMap, type, useTestCluster } from './helpers.ts';

const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';
const CONFIG_MAP = type('configmaps');
const create = (name: string): void => void fixture.current()?.store.create(CONFIG_MAP, configMap(name) as IncomingObject);

const fixture = useTestCluster();

/** An HTTP/1.1 GET on a raw socket; `raw()` is everything received so far, headers included. */
function rawGet(url: string, path: string): Promise<{ socket: Socket; raw: () => string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: application/json\r\n\r\n`);
      resolve({ socket, raw: () => received });
    });
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => (received += data));
    socket.on('error', reject);
  });
}

/** The chunked body's chunks (after the headers), as far as they are complete. */
function chunksOf(raw: string): string[] {
  let rest = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  const chunks: string[] = [];
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) return chunks;
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (rest.length < lineEnd + 2 + size + 2) return chunks;
    chunks.push(rest.slice(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('watch stream batching', () => {
  it('writes the events of one turn as one chunk, in order, and later turns as their own', async () => {
    const { server, store } = await fixture.start();
    const { socket, raw } = await rawGet(server.url, `${CONFIG_MAPS}?watch=true&resourceVersion=${store.currentRv()}`);
    try {
      await until(() => raw().includes('\r\n\r\n'));
      expect(raw()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      for (const name of ['a', 'b', 'c']) create(name);
      await until(() => chunksOf(raw()).length >= 1);
      create('d');
      await until(() => chunksOf(raw()).length >= 2);

      const [first, second] = chunksOf(raw());
      const lines = (first ?? '').split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((line) => (JSON.parse(line) as { object: { metadata: { name: string } } }).object.metadata.name)).toEqual(['a', 'b', 'c']);
      // The same bytes one write per event made: each line is the event's JSON and a newline.
      const names = store.all(CONFIG_MAP, 'default');
      expect(first).toBe(names.slice(0, 3).map((object) => `${JSON.stringify({ type: 'ADDED', object })}\n`).join(''));
      expect(JSON.parse(second ?? '')).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'd' } } });
    } finally {
      socket.destroy();
    }
  });
});
