/**
 * A fast producer and a slow consumer: watch lines arrive faster than the cache's listeners take
 * them. Reading never waits on applying, what waits is one change per pod however many events
 * came, most lines are never parsed, the lag is published while it exceeds 2 s and withdrawn
 * once caught up, and the cache ends at every pod's last state.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { KindKey } from '../../../../shared/cluster.ts';
import { createInlineDecoder, type ListDecoder } from '../../../../electron/engine/cluster/informers/list-decoder.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { WatchIntake } from '../../../../electron/engine/cluster/informers/watch-intake.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { FakeClock } from './helpers.ts';

const PODS = 'pods' as KindKey;
const SOURCE = { kind: PODS, objectKind: 'Pod', apiVersion: 'v1' };

/** A MODIFIED line for pod `i` at `rv`, as kube-apiserver writes it (object last). */
function podLine(i: number, rv: number, type = 'MODIFIED'): string {
  const pod = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `web-${i}`, namespace: 'shop', uid: `uid-${i}`, resourceVersion: String(rv), labels: { app: 'web', round: String(rv) } },
    spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'registry.example/web:1' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
  return JSON.stringify({ type, object: pod });
}

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

function rig(options: { decoder?: ListDecoder; listenerMs?: number } = {}) {
  const cache = new ObjectCache();
  const clock = new FakeClock();
  const lags: Array<number | undefined> = [];
  const logs: string[] = [];
  const errors: unknown[] = [];
  let applying = 0;
  cache.onChange(() => {
    applying += 1;
    busy(options.listenerMs ?? 0);
  });
  const intake = new WatchIntake({
    kind: PODS,
    cache,
    clock,
    log: (line) => logs.push(line),
    health: { count: () => undefined, setLag: (_kind, lag) => lags.push(lag?.lagMs) },
    source: () => SOURCE,
    onError: (error) => errors.push(error),
    ...(options.decoder ? { decoder: options.decoder } : {}),
  });
  return { cache, clock, lags, logs, errors, intake, applied: () => applying };
}

describe('the watch intake under a fast producer and a slow consumer', () => {
  it('keeps reading, keeps one change per pod, parses few lines, reports the lag and ends at the last states', async () => {
    const r = rig({ listenerMs: 4 });
    const PODS_N = 100;
    const ROUNDS = 30;
    let rv = 1;
    let maxWaiting = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      // One socket read: a round of every pod's change, handed over line by line.
      const before = r.applied();
      for (let i = 0; i < PODS_N; i += 1) r.intake.line(podLine(i, (rv += 1)));
      // A read applies at most one 8 ms slice's worth at 4 ms a change: the rest waits.
      expect(r.applied() - before).toBeLessThanOrEqual(3);
      maxWaiting = Math.max(maxWaiting, r.intake.waiting);
      r.clock.time += 500;
      await nextTurn();
    }
    expect(maxWaiting).toBeLessThanOrEqual(PODS_N);
    // 3,000 events for 100 pods: most were replaced while waiting and never parsed.
    expect(r.intake.counts.lines).toBe(PODS_N * ROUNDS);
    expect(r.intake.counts.parsed).toBeLessThan((PODS_N * ROUNDS) / 2);
    expect(r.intake.coalesced).toBeGreaterThan(PODS_N * ROUNDS - r.intake.counts.parsed - PODS_N);
    // The clock moved 500 ms a read: the oldest waiting change was soon seconds old.
    expect(r.lags.some((lag) => lag !== undefined && lag > 2_000)).toBe(true);
    expect(r.logs.some((line) => /^pods: behind by \d+ s, \d+ changes waiting; catching up$/.test(line))).toBe(true);
    while (r.intake.waiting > 0) await nextTurn();
    await nextTurn();
    expect(r.lags.at(-1)).toBeUndefined();
    const last = rv;
    for (let i = 0; i < PODS_N; i += 1) expect(r.cache.get(PODS, `uid-${i}`)?.metadata.resourceVersion).toBe(String(last - PODS_N + 1 + i));
    expect(r.errors).toEqual([]);
  });

  it('decodes a backlog a batch at a time through the list decoder, with each object JSON for the frame stream', async () => {
    const r = rig({ decoder: createInlineDecoder(), listenerMs: 1 });
    const jsons: Array<string | undefined> = [];
    r.cache.onChange((change) => {
      if (change.type === 'upsert') jsons.push(change.json);
    });
    for (let round = 0; round < 5; round += 1) {
      for (let i = 0; i < 400; i += 1) r.intake.line(podLine(i, 1_000 * round + i + 2));
      await nextTurn();
    }
    r.intake.line(podLine(7, 9_999, 'DELETED'));
    while (r.intake.waiting > 0) await nextTurn();
    for (let i = 0; i < 10; i += 1) await nextTurn();
    expect(r.cache.get(PODS, 'uid-7')).toBeUndefined();
    expect(r.cache.get(PODS, 'uid-399')?.metadata.resourceVersion).toBe(String(4_000 + 399 + 2));
    expect(r.cache.size(PODS)).toBe(399);
    // Batched upserts carry their JSON from the decoder (the frame stream does not make it again).
    expect(jsons.filter((json) => json !== undefined).length).toBeGreaterThan(jsons.length / 2);
    expect(r.errors).toEqual([]);
  });

  it("hands a batch to the decoder as its objects' own texts where it takes them, building no list body", async () => {
    const inline = createInlineDecoder();
    const batches: string[][] = [];
    const decoder: ListDecoder = {
      decode: () => Promise.reject(new Error('a list body was built for watch events')),
      decodeObjects: (objects, source) => {
        batches.push(objects);
        return inline.decodeObjects?.(objects, source) ?? Promise.reject(new Error('no decodeObjects'));
      },
      usesWorker: () => false,
      close: () => undefined,
    };
    const r = rig({ decoder, listenerMs: 1 });
    const jsons: Array<string | undefined> = [];
    r.cache.onChange((change) => {
      if (change.type === 'upsert') jsons.push(change.json);
    });
    for (let i = 0; i < 200; i += 1) r.intake.line(podLine(i, i + 2));
    while (r.intake.waiting > 0) await nextTurn();
    expect(batches.length).toBeGreaterThan(0);
    expect(JSON.parse(batches[0]?.[0] ?? 'null')).toHaveProperty('metadata.uid');
    expect(r.logs).toEqual([]);
    // Every pod at its state, whether applied on arrival or from a batch, and the same JSON as the object.
    expect(r.cache.size(PODS)).toBe(200);
    const decoded = r.cache.get(PODS, 'uid-199');
    expect(decoded?.metadata.resourceVersion).toBe('201');
    expect(jsons.filter((json) => json !== undefined).length).toBeGreaterThan(100);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(slimObject(JSON.parse(podLine(199, 201)).object, SOURCE)));
    expect(r.errors).toEqual([]);
  });

  it("applies a change as it arrives from its object's JSON without managedFields, the same object as a whole-line parse", async () => {
    const r = rig();
    const pod = JSON.parse(podLine(3, 7)).object as { metadata: Record<string, unknown> };
    pod.metadata['managedFields'] = [{ manager: 'kubelet', operation: 'Update', fieldsV1: { 'f:status': { 'f:phase': {} } } }];
    r.intake.line(JSON.stringify({ type: 'ADDED', object: pod }));
    // On a loaded machine the slice may have ended: what waits is applied on the next turns.
    while (r.intake.waiting > 0) await nextTurn();
    const reference = new ObjectCache();
    reference.upsert(PODS, slimObject(pod, SOURCE));
    expect(JSON.stringify(r.cache.get(PODS, 'uid-3'))).toBe(JSON.stringify(reference.get(PODS, 'uid-3')));
    // A line with a member after its object is read whole, as before.
    r.intake.line(`${podLine(4, 8, 'ADDED').slice(0, -1)},"extra":true}`);
    while (r.intake.waiting > 0) await nextTurn();
    expect(r.cache.get(PODS, 'uid-4')?.metadata.resourceVersion).toBe('8');
    expect(r.errors).toEqual([]);
  });

  it('drops a batch still decoding when a relist clears the buffer', async () => {
    const release: Array<() => void> = [];
    const inline = createInlineDecoder();
    const held: ListDecoder = {
      decode: (body, source) => new Promise((resolve) => release.push(() => resolve(inline.decode(body, source)))),
      usesWorker: () => false,
      close: () => undefined,
    };
    const r = rig({ decoder: held, listenerMs: 10 });
    // The first change is applied on arrival; the next ones wait, and go to the decoder as a batch.
    for (let i = 0; i < 20; i += 1) r.intake.line(podLine(i, i + 2));
    const applied = r.applied();
    await nextTurn();
    expect(release).toHaveLength(1);
    r.intake.clear();
    release.shift()?.();
    for (let i = 0; i < 5; i += 1) await nextTurn();
    expect(r.applied()).toBe(applied);
    expect(r.lags.at(-1)).toBeUndefined();
  });

  it('applies a batch here when the decoder fails it (a crashed worker), losing no change', async () => {
    const failing: ListDecoder = {
      decode: () => Promise.reject(new Error('the list worker failed: exit 1')),
      usesWorker: () => true,
      close: () => undefined,
    };
    const r = rig({ decoder: failing, listenerMs: 2 });
    for (let i = 0; i < 50; i += 1) r.intake.line(podLine(i, i + 2));
    while (r.intake.waiting > 0) await nextTurn();
    expect(r.cache.size(PODS)).toBe(50);
    expect(r.cache.get(PODS, 'uid-49')?.metadata.resourceVersion).toBe('51');
    expect(r.logs.some((line) => line.includes('could not be decoded (the list worker failed: exit 1); applying it here'))).toBe(true);
    expect(r.errors).toEqual([]);
  });

  it('fails the watch with the Status of an ERROR line', () => {
    const r = rig();
    const gone = JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 5 (90)', reason: 'Expired', code: 410 } });
    expect(() => r.intake.line(gone)).toThrow('too old resource version: 5 (90)');
    expect(r.intake.line('{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"91"}}}')).toBe('91');
    expect(r.intake.counts.parsed).toBe(1);
  });
});
