/**
 * A watch resumed from an old resourceVersion, as client-go re-watches after the server closed
 * it as a slow consumer: its backlog (up to the watch cache's 102,400 changes) is sent in order,
 * each change once, while the server's one thread goes on answering other requests.
 */
import { describe, expect, it, vi } from 'vitest';
import { request, type IncomingMessage } from 'node:http';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { ApiServer } from '../../../../electron/engine/simcluster/server/http.ts';
import { call, configMap, NOW, type, useTestCluster } from './helpers.ts';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const BACKLOG_CHANGES = 100_000;
const OBJECTS = 100;

const fixture = useTestCluster();

interface Line {
  type: string;
  object: { metadata: { name: string; resourceVersion: string } };
}

interface ReadWatch {
  res: IncomingMessage;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
}

/** A watch read line by line, with a hook on every event, to see what arrived by when. */
function readWatch(server: ApiServer, path: string, onLine: (line: Line) => void): Promise<ReadWatch> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), (res) => {
      const ended = new Promise<void>((done) => res.on('end', done));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let index;
        while ((index = buffer.indexOf('\n')) >= 0) {
          const text = buffer.slice(0, index);
          buffer = buffer.slice(index + 1);
          if (text.trim() !== '') onLine(JSON.parse(text) as Line);
        }
      });
      resolve({ res, ended });
    });
    req.on('error', reject);
    req.end();
  });
}

/** `count` MODIFIED changes spread over `OBJECTS` ConfigMaps; returns the rv before them. */
function churn(store: ObjectStore, count: number): number {
  const configmaps = type('configmaps');
  for (let i = 0; i < OBJECTS; i += 1) store.create(configmaps, configMap(`cm-${i}`) as never);
  const from = store.currentRv();
  for (let i = 0; i < count; i += 1) {
    const name = `cm-${i % OBJECTS}`;
    store.update(configmaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { key: String(i) } });
  }
  return from;
}

describe('a resumed watch with a long backlog', () => {
  it('sends every change once in resourceVersion order while another request is answered meanwhile', async () => {
    const store = new ObjectStore({ now: () => NOW, retainedChanges: 2 * BACKLOG_CHANGES });
    const { server } = await fixture.start({ store });
    const from = churn(store, BACKLOG_CHANGES);
    const encoded = vi.spyOn(store, 'toJson');

    const lines: Line[] = [];
    let last: () => void = () => undefined;
    const lastSeen = new Promise<void>((resolve) => (last = resolve));
    const { res } = await readWatch(server, `${CONFIGMAPS}?watch=true&resourceVersion=${from}`, (line) => {
      lines.push(line);
      if (line.object.metadata.name === 'late') last();
    });
    expect(res.statusCode).toBe(200);

    // Asked once the watch's headers are in: answered before the backlog is all encoded.
    const answer = await call(server, 'GET', `${CONFIGMAPS}/cm-0`);
    const encodedAtAnswer = encoded.mock.calls.length;
    expect(answer.status).toBe(200);
    expect(encodedAtAnswer).toBeLessThan(BACKLOG_CHANGES);
    // A write during the replay reaches the watch after it, once.
    const created = await call(server, 'POST', CONFIGMAPS, { body: configMap('late') });
    expect(created.status).toBe(201);

    await lastSeen;
    res.destroy();
    const rvs = lines.map((line) => Number(line.object.metadata.resourceVersion));
    const expected = Array.from({ length: BACKLOG_CHANGES }, (_, i) => from + 1 + i);
    expect(rvs.slice(0, BACKLOG_CHANGES)).toEqual(expected);
    expect(lines.slice(0, BACKLOG_CHANGES).every((line) => line.type === 'MODIFIED')).toBe(true);
    expect(lines.slice(BACKLOG_CHANGES)).toEqual([expect.objectContaining({ type: 'ADDED', object: expect.objectContaining({ metadata: expect.objectContaining({ name: 'late' }) }) })]);
    expect(rvs[BACKLOG_CHANGES]).toBe(Number(created.json.metadata.resourceVersion));
  }, 60_000);

  it('closes a resumed watch whose client falls the buffer bound behind the changes made meanwhile; resuming again misses none', async () => {
    const store = new ObjectStore({ now: () => NOW, retainedChanges: 100_000 });
    const { server } = await fixture.start({ store, watchBufferLimitBytes: 64 * 1024 });
    const backlog = 20_000;
    const from = churn(store, backlog);

    const first: Line[] = [];
    const { res, ended } = await readWatch(server, `${CONFIGMAPS}?watch=true&resourceVersion=${from}`, (line) => first.push(line));
    res.pause();
    // Changes made while the paused client holds the replay back: over 64 KB of them.
    const configmaps = type('configmaps');
    for (let i = 0; i < 2_000; i += 1) {
      store.update(configmaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-1', namespace: 'default' }, data: { key: `later-${i}` } });
    }
    res.resume();
    await ended;
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThan(backlog);
    const lastRead = Number(first.at(-1)?.object.metadata.resourceVersion);

    const second: Line[] = [];
    const end = store.currentRv();
    let done: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (done = resolve));
    const { res: again } = await readWatch(server, `${CONFIGMAPS}?watch=true&resourceVersion=${lastRead}`, (line) => {
      second.push(line);
      if (Number(line.object.metadata.resourceVersion) === end) done();
    });
    await all;
    again.destroy();
    const rvs = [...first, ...second].map((line) => Number(line.object.metadata.resourceVersion));
    expect(rvs).toEqual(Array.from({ length: end - from }, (_, i) => from + 1 + i));
  }, 60_000);

  it('answers a resourceVersion that left the window with one in-stream 410 ERROR', async () => {
    const store = new ObjectStore({ now: () => NOW, retainedChanges: 1_000 });
    const { server } = await fixture.start({ store });
    const from = churn(store, 5_000);
    const lines: Line[] = [];
    const { ended } = await readWatch(server, `${CONFIGMAPS}?watch=true&resourceVersion=${from}`, (line) => lines.push(line));
    await ended;
    expect(lines).toEqual([
      {
        type: 'ERROR',
        object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${from} (${store.oldestServableRv()})`, reason: 'Expired', code: 410 },
      },
    ]);
  });
});
