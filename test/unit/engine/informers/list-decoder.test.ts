import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeInline } from '../../../../electron/engine/cluster/informers/list-decode.ts';
import { availableParallelism } from 'node:os';
import { createListDecoder, defaultListWorkers, INLINE_BELOW_BYTES, MAX_LIST_WORKERS, SECOND_WORKER_MIN_CORES, type PooledListDecoder } from '../../../../electron/engine/cluster/informers/list-decoder.ts';
import { viewObject } from '../../../../electron/engine/stream/view.ts';
import { NODE, POD_LIST_ITEM } from './fixtures/objects.ts';

const POD = { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' } as const;

/** A PodList page of `count` copies of the fixture pod, one with characters of several bytes. */
function podPage(count: number, token = 'next'): string {
  const items = Array.from({ length: count }, (_, i) => ({
    ...POD_LIST_ITEM,
    metadata: { ...POD_LIST_ITEM.metadata, name: `web-${i}`, uid: `uid-${i}`, ...(i === 1 ? { labels: { zone: 'zürich-名前' } } : {}) },
  }));
  return JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '77', continue: token }, items });
}

/** Sends every page to the worker, however small (the tests' pages are a few objects). */
const WORKER_FOR_ALL = { inlineBelowBytes: 0 };
/** A worker that dies at its first page. */
const DYING_WORKER = new URL('data:text/javascript,import { parentPort } from "node:worker_threads"; parentPort.on("message", () => process.exit(3));');

let decoder: PooledListDecoder | undefined;
afterEach(() => {
  decoder?.close();
  decoder = undefined;
});

describe('list decoder', () => {
  it('decodes pages in the worker into the same slim objects as on the engine thread, each with its exact JSON', async () => {
    decoder = createListDecoder(WORKER_FOR_ALL);
    const text = podPage(3);
    const page = await decoder.decode(Buffer.from(text), POD);
    expect(decoder.usesWorker()).toBe(true);
    expect(page.metadata).toEqual({ resourceVersion: '77', continue: 'next' });
    expect(page.objects).toEqual(decodeInline(text, POD).objects);
    // The same texts whichever thread decoded the page.
    expect(page.json).toEqual(decodeInline(text, POD).json);
    expect(page.viewJson).toEqual(decodeInline(text, POD).viewJson);
    expect(page.objects.map((o) => o.metadata.labels?.['zone'])).toEqual([undefined, 'zürich-名前', undefined]);
    page.objects.forEach((object, i) => expect(page.json[i]).toBe(JSON.stringify(object)));
    // Pods reach the renderer in a form of their own; the worker makes its JSON too.
    expect(page.viewJson).toEqual(page.objects.map((object) => JSON.stringify(viewObject(object, 'pods'))));
    expect(page.viewJson?.[0]?.length).toBeLessThan(page.json[0]?.length ?? 0);
  });

  it('makes no view JSON for kinds the renderer receives as cached', async () => {
    decoder = createListDecoder(WORKER_FOR_ALL);
    const nodes = JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion: '5' }, items: [NODE] });
    const page = await decoder.decode(Buffer.from(nodes), { kind: 'nodes', objectKind: 'Node', apiVersion: 'v1' });
    expect(page.json).toEqual([JSON.stringify(page.objects[0])]);
    expect(page.viewJson).toBeUndefined();
  });

  it('makes no view JSON for pods no renderer reads (a background recorder), in the worker or inline', async () => {
    decoder = createListDecoder(WORKER_FOR_ALL);
    const text = podPage(2);
    const page = await decoder.decode(Buffer.from(text), { ...POD, noView: true });
    expect(page.viewJson).toBeUndefined();
    expect(page.json).toEqual(decodeInline(text, POD).json);
    expect(decodeInline(text, { ...POD, noView: true }).viewJson).toBeUndefined();
  });

  it('keeps pages apart when several kinds are decoded at once', async () => {
    decoder = createListDecoder(WORKER_FOR_ALL);
    const nodes = JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata: { resourceVersion: '5' }, items: [NODE] });
    const [pods, nodePage, more] = await Promise.all([
      decoder.decode(Buffer.from(podPage(2)), POD),
      decoder.decode(Buffer.from(nodes), { kind: 'nodes', objectKind: 'Node', apiVersion: 'v1' }),
      decoder.decode(Buffer.from(podPage(4, 'later')), POD),
    ]);
    expect(pods.objects.map((o) => o.kind)).toEqual(['Pod', 'Pod']);
    expect(nodePage.objects.map((o) => o.kind)).toEqual(['Node']);
    expect(more.objects).toHaveLength(4);
    expect(more.metadata?.continue).toBe('later');
  });

  it('rejects a body that is not a list with the parser’s own message', async () => {
    decoder = createListDecoder(WORKER_FOR_ALL);
    await expect(decoder.decode(Buffer.from('{"items": [oops'), POD)).rejects.toThrow(/JSON/);
    await expect(decoder.decode(Buffer.from('[1, 2]'), POD)).rejects.toThrow('the list answer is not a JSON object');
    // A bad page is the server's fault, not the worker's: it keeps working.
    expect((await decoder.decode(Buffer.from(podPage(1)), POD)).objects).toHaveLength(1);
    expect(decoder.usesWorker()).toBe(true);
  });

  it('decodes on the engine thread when the worker cannot start, and says so once', async () => {
    const logs: string[] = [];
    decoder = createListDecoder({ ...WORKER_FOR_ALL, workerUrl: new URL('./no-such-list-worker.ts', import.meta.url), log: (m) => logs.push(m) });
    // The start fails asynchronously: the page in flight fails (its reflector lists again) ...
    await expect(decoder.decode(Buffer.from(podPage(2)), POD)).rejects.toThrow(/the list worker failed: .*no-such-list-worker/);
    // ... and every later page is decoded inline, to the same objects.
    const page = await decoder.decode(Buffer.from(podPage(2)), POD);
    expect(page.objects).toEqual(decodeInline(podPage(2), POD).objects);
    expect((await decoder.decode(Buffer.from(podPage(3)), POD)).objects).toHaveLength(3);
    expect(decoder.usesWorker()).toBe(false);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^list pages are decoded on the engine thread from now on: /);
  });

  it('fails the pages a dying worker held, then goes on inline', async () => {
    decoder = createListDecoder({ ...WORKER_FOR_ALL, workerUrl: DYING_WORKER });
    await expect(decoder.decode(Buffer.from(podPage(2)), POD)).rejects.toThrow(/the list worker failed: the list worker exited \(3\)/);
    expect((await decoder.decode(Buffer.from(podPage(2)), POD)).objects).toHaveLength(2);
    expect(decoder.usesWorker()).toBe(false);
  });

  it('refuses pages once closed', async () => {
    decoder = createListDecoder(WORKER_FOR_ALL);
    decoder.close();
    await expect(decoder.decode(Buffer.from(podPage(1)), POD)).rejects.toThrow('the list decoder was closed');
  });

  it('decodes small pages inline, without the worker, and large ones in it', async () => {
    // The worker would die at its first page: small pages never reach it.
    decoder = createListDecoder({ workerUrl: DYING_WORKER });
    const small = podPage(3);
    expect(Buffer.byteLength(small)).toBeLessThan(INLINE_BELOW_BYTES);
    expect((await decoder.decode(Buffer.from(small), POD)).objects).toEqual(decodeInline(small, POD).objects);
    expect(decoder.usesWorker()).toBe(true);
    const large = podPage(200);
    expect(Buffer.byteLength(large)).toBeGreaterThanOrEqual(INLINE_BELOW_BYTES);
    await expect(decoder.decode(Buffer.from(large), POD)).rejects.toThrow(/the list worker exited \(3\)/);
  });

  it('starts the worker at once when eager, before any page', async () => {
    const logs: string[] = [];
    decoder = createListDecoder({ eager: true, workerUrl: new URL('./no-such-list-worker.ts', import.meta.url), log: (m) => logs.push(m) });
    // No page was handed in: only an eager start can have found the worker missing.
    // A worker thread's start (and its failure) can take seconds on a loaded machine.
    await vi.waitFor(() => expect(logs).toEqual([expect.stringMatching(/^list pages are decoded on the engine thread from now on: .*no-such-list-worker/)]), { timeout: 15_000 });
    expect(decoder.usesWorker()).toBe(false);
  });

  it('starts a second worker only while the first is busy, and resolves each page with its own objects', async () => {
    decoder = createListDecoder({ ...WORKER_FOR_ALL, workers: 2 });
    expect(decoder.workers()).toBe(0);
    expect((await decoder.decode(Buffer.from(podPage(1)), POD)).objects).toHaveLength(1);
    // One page at a time: the first worker was idle each time.
    expect((await decoder.decode(Buffer.from(podPage(2)), POD)).objects).toHaveLength(2);
    expect(decoder.workers()).toBe(1);
    const sizes = [5, 1, 4, 2, 3];
    const pages = await Promise.all(sizes.map((n, i) => decoder?.decode(Buffer.from(podPage(n, `t${i}`)), POD)));
    expect(decoder.workers()).toBe(2);
    expect(pages.map((page) => page?.objects.length)).toEqual(sizes);
    expect(pages.map((page) => page?.metadata?.continue)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(pages[2]?.objects).toEqual(decodeInline(podPage(4, 't2'), POD).objects);
  });

  it('never runs more workers than asked for', async () => {
    decoder = createListDecoder({ ...WORKER_FOR_ALL, workers: 1 });
    await Promise.all([1, 2, 3].map((n) => decoder?.decode(Buffer.from(podPage(n)), POD)));
    expect(decoder.workers()).toBe(1);
  });

  it('fails what every worker held when one dies, then decodes inline', async () => {
    decoder = createListDecoder({ ...WORKER_FOR_ALL, workers: 2, workerUrl: DYING_WORKER });
    const held = [decoder.decode(Buffer.from(podPage(1)), POD), decoder.decode(Buffer.from(podPage(2)), POD)];
    expect(decoder.workers()).toBe(2);
    for (const page of held) await expect(page).rejects.toThrow(/the list worker failed: the list worker exited \(3\)/);
    expect(decoder.workers()).toBe(0);
    expect((await decoder.decode(Buffer.from(podPage(2)), POD)).objects).toHaveLength(2);
    expect(decoder.usesWorker()).toBe(false);
  });

  it('runs a second worker only where cores are spare', () => {
    expect([1, 2, 3].map((cores) => defaultListWorkers(cores))).toEqual([1, 1, 1]);
    expect(defaultListWorkers(SECOND_WORKER_MIN_CORES)).toBe(MAX_LIST_WORKERS);
    expect(defaultListWorkers(16)).toBe(MAX_LIST_WORKERS);
    expect(defaultListWorkers()).toBe(defaultListWorkers(availableParallelism()));
  });
});
