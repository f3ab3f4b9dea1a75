import { createServer } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectBetweenScenarios } from '../../bench/collect.ts';

type WithGc = { gc?: () => void };
let hadGc = false;

beforeAll(() => {
  hadGc = typeof (globalThis as WithGc).gc === 'function';
  if (!hadGc) {
    setFlagsFromString('--expose-gc');
    (globalThis as WithGc).gc = runInNewContext('gc') as () => void;
  }
});
afterAll(() => {
  if (!hadGc) delete (globalThis as WithGc).gc;
});

/**
 * A listening server whose handler reaches a large object, closed; a weak reference to that
 * object, made before listening (a WeakRef keeps its target alive until the job that made or
 * read it ends: listening turns the loop, so only the handle can hold it here).
 */
async function closedServer(): Promise<WeakRef<object>> {
  const held = { rows: new Array(100_000).fill('row') };
  const ref = new WeakRef(held);
  const server = createServer((socket) => socket.end(String(held.rows.length)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return ref;
}

describe('collecting between benchmark scenarios', () => {
  it('frees what a server closed by the scenario before reached, although the next one never yields', async () => {
    const ref = await closedServer();
    // What the runner did before: collect at once. The closed listening handle still holds the
    // server (and its handler's objects) until the event loop's close phase.
    (globalThis as WithGc).gc?.();
    expect(ref.deref()).toBeDefined();
    await collectBetweenScenarios();
    expect(ref.deref()).toBeUndefined();
  });
});
