import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HistorySourceAddSchema } from '../../../../shared/contracts/history-sources.ts';
import type { StoredSource } from '../../../../electron/engine/history/sources/config.ts';
import { createSourceManager, type SourceManager } from '../../../../electron/engine/history/sources/manager.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A port that accepts and drops every connection, counting them: a recorder that never answers well. */
async function droppingServer(): Promise<{ server: Server; url: string; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, connections: () => count };
}

let manager: SourceManager | undefined;
let server: Server | undefined;
afterEach(() => {
  manager?.dispose();
  server?.close();
});

describe('history source manager', () => {
  it('never contacts a removed source again, even when its check was running as it was removed', async () => {
    const recorder = await droppingServer();
    server = recorder.server;
    manager = createSourceManager({ now: Date.now, log: () => undefined, save: async () => undefined, onChange: () => undefined, timeoutMs: 500, retryIntervalMs: 20, checkIntervalMs: 20 });
    const adding = manager.add({ name: 'rack', url: recorder.url, token: 'a-token-of-sixteen-chars' });
    const [source] = manager.list();
    await manager.remove(source!.id);
    await adding;
    const after = recorder.connections();
    await sleep(300);
    expect(recorder.connections()).toBe(after);
    expect(manager.list()).toEqual([]);
  });

  it('saves one list at a time, the last one saved being the list as it is', async () => {
    const saved: StoredSource[][] = [];
    let writing = 0;
    let overlapped = false;
    manager = createSourceManager({
      now: Date.now,
      log: () => undefined,
      onChange: () => undefined,
      timeoutMs: 200,
      retryIntervalMs: 60_000,
      save: async (sources) => {
        writing += 1;
        if (writing > 1) overlapped = true;
        await sleep(30);
        saved.push([...sources]);
        writing -= 1;
      },
    });
    const first = manager.add({ name: 'one', url: 'http://127.0.0.1:9', token: 'a-token-of-sixteen-chars' });
    const second = manager.add({ name: 'two', url: 'http://127.0.0.1:9', token: 'a-token-of-sixteen-chars' });
    await Promise.all([first, second]);
    await manager.remove(manager.list().find((source) => source.name === 'one')!.id);
    expect(overlapped).toBe(false);
    expect(saved.at(-1)!.map((source) => source.name)).toEqual(['two']);
  });
});

describe('history source URL', () => {
  it('refuses a user, password or query in the URL, which would be shown and logged', () => {
    for (const url of ['http://admin:secret@recorder:7443', 'http://recorder:7443/?token=abc']) {
      const parsed = HistorySourceAddSchema.safeParse({ name: 'rack', url, token: 't' });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/token field/);
    }
    expect(HistorySourceAddSchema.safeParse({ name: 'rack', url: 'https://recorder.example:7443/ws', token: 't' }).success).toBe(true);
  });
});
