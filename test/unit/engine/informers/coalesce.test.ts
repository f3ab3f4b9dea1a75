import { describe, expect, it } from 'vitest';
import { CoalescingBuffer } from '../../../../electron/engine/cluster/informers/coalesce.ts';

interface Event {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  rv: number;
}

function rig(options: { sliceMs?: number; applyMs?: number; immediate?: boolean } = {}) {
  const applied: Array<[string, Event]> = [];
  const deferred: Array<() => void> = [];
  let now = 0;
  const progress: Array<[number, number | undefined]> = [];
  const buffer = new CoalescingBuffer<[string, Event]>({
    apply: (entry) => {
      applied.push(entry);
      if (options.applyMs) {
        const until = performance.now() + options.applyMs;
        while (performance.now() < until);
      }
    },
    onError: (error) => {
      throw error;
    },
    onProgress: (waiting, oldestAt) => progress.push([waiting, oldestAt]),
    now: () => now,
    defer: (run) => deferred.push(run),
    immediate: options.immediate ?? false,
    ...(options.sliceMs !== undefined ? { sliceMs: options.sliceMs } : {}),
  });
  const push = (uid: string, event: Event) => buffer.push(uid, [uid, event]);
  const turn = () => deferred.shift()?.();
  return { buffer, applied, deferred, progress, push, turn, tick: (ms: number) => (now += ms) };
}

describe('the watch event buffer', () => {
  it('applies each object once, in its latest state, in the order objects first changed', () => {
    const r = rig();
    r.push('a', { type: 'ADDED', rv: 1 });
    r.push('b', { type: 'ADDED', rv: 2 });
    r.push('a', { type: 'MODIFIED', rv: 3 });
    r.push('a', { type: 'MODIFIED', rv: 4 });
    r.push('b', { type: 'DELETED', rv: 5 });
    expect(r.deferred).toHaveLength(1);
    r.turn();
    expect(r.applied).toEqual([
      ['a', { type: 'MODIFIED', rv: 4 }],
      ['b', { type: 'DELETED', rv: 5 }],
    ]);
    expect(r.buffer.coalesced).toBe(3);
    expect(r.buffer.size).toBe(0);
  });

  it('holds at most one event per object however many arrive', () => {
    const r = rig();
    for (let i = 0; i < 50_000; i += 1) r.push(`pod-${i % 100}`, { type: 'MODIFIED', rv: i });
    expect(r.buffer.size).toBe(100);
    r.turn();
    expect(r.applied.map(([, e]) => e.rv).slice(0, 3)).toEqual([49_900, 49_901, 49_902]);
  });

  it('gives the event loop a turn between slices and says how far behind it is', () => {
    const r = rig({ sliceMs: 2, applyMs: 1 });
    for (let i = 0; i < 20; i += 1) r.push(`pod-${i}`, { type: 'ADDED', rv: i });
    r.tick(3_000);
    r.turn();
    // One slice applied a few, then stopped for reads; the rest wait with the oldest's arrival time.
    expect(r.applied.length).toBeGreaterThan(0);
    expect(r.applied.length).toBeLessThan(20);
    expect(r.progress.at(-1)).toEqual([20 - r.applied.length, 0]);
    expect(r.deferred).toHaveLength(1);
    while (r.deferred.length > 0) r.turn();
    expect(r.applied).toHaveLength(20);
    expect(r.progress.at(-1)).toEqual([0, undefined]);
  });

  it('applies events as they arrive while it keeps up, and buffers the rest of a read that overruns its slice', () => {
    const r = rig({ immediate: true, sliceMs: 5, applyMs: 1 });
    r.push('a', { type: 'ADDED', rv: 1 });
    r.push('a', { type: 'MODIFIED', rv: 2 });
    // Both states were applied: nothing waited, so nothing was coalesced.
    expect(r.applied.slice(0, 2)).toEqual([
      ['a', { type: 'ADDED', rv: 1 }],
      ['a', { type: 'MODIFIED', rv: 2 }],
    ]);
    for (let i = 0; i < 20; i += 1) r.push(`pod-${i}`, { type: 'ADDED', rv: 10 + i });
    expect(r.buffer.size).toBeGreaterThan(0);
    expect(r.deferred).toHaveLength(1);
    while (r.deferred.length > 0) r.turn();
    expect(r.applied).toHaveLength(22);
  });

  it('forgets what waits when a relist replaces it', () => {
    const r = rig();
    r.push('a', { type: 'ADDED', rv: 1 });
    r.buffer.clear();
    r.turn();
    expect(r.applied).toEqual([]);
    expect(r.buffer.oldestAt()).toBeUndefined();
  });
});

describe('the watch event buffer, a batch at a time', () => {
  /** A buffer whose batches are decoded by hand (`decode(i)`) and applied after the batch before. */
  function batchRig(batchSize: number) {
    const decoding: Array<{ events: Array<[string, Event]>; decode: () => void }> = [];
    const applied: number[] = [];
    const deferred: Array<() => void> = [];
    const buffer = new CoalescingBuffer<[string, Event]>({
      apply: () => {
        throw new Error('batches only');
      },
      onError: (error) => {
        throw error;
      },
      now: () => 0,
      defer: (run) => deferred.push(run),
      immediate: false,
      batchSize,
      applyBatch: async (events, current, previous) => {
        await new Promise<void>((resolve) => decoding.push({ events, decode: resolve }));
        await previous;
        if (current()) for (const [, event] of events) applied.push(event.rv);
      },
    });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    return { buffer, decoding, applied, deferred, settle, turn: () => deferred.shift()?.() };
  }

  it('decodes a second full batch while the first is applied, and applies them in the order taken', async () => {
    const r = batchRig(3);
    for (let i = 0; i < 7; i += 1) r.buffer.push(`pod-${i}`, [`pod-${i}`, { type: 'MODIFIED', rv: i }]);
    r.turn();
    // Two full batches left at once; the seventh change waits for a batch to finish.
    expect(r.decoding.map((batch) => batch.events.length)).toEqual([3, 3]);
    expect(r.buffer.pending).toBe(7);
    // The second batch decoded first still waits for the first to be applied.
    r.decoding[1]?.decode();
    await r.settle();
    expect(r.applied).toEqual([]);
    r.decoding[0]?.decode();
    await r.settle();
    expect(r.applied).toEqual([0, 1, 2, 3, 4, 5]);
    while (r.deferred.length > 0) r.turn();
    expect(r.decoding.map((batch) => batch.events.length)).toEqual([3, 3, 1]);
    r.decoding[2]?.decode();
    await r.settle();
    expect(r.applied).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(r.buffer.pending).toBe(0);
  });

  it('takes no second batch while one is in flight and less than a full batch waits', async () => {
    const r = batchRig(10);
    for (let i = 0; i < 4; i += 1) r.buffer.push(`pod-${i}`, [`pod-${i}`, { type: 'MODIFIED', rv: i }]);
    r.turn();
    for (let i = 4; i < 9; i += 1) r.buffer.push(`pod-${i}`, [`pod-${i}`, { type: 'MODIFIED', rv: i }]);
    while (r.deferred.length > 0) r.turn();
    expect(r.decoding.map((batch) => batch.events.length)).toEqual([4]);
    r.decoding[0]?.decode();
    await r.settle();
    while (r.deferred.length > 0) r.turn();
    expect(r.decoding.map((batch) => batch.events.length)).toEqual([4, 5]);
  });

  it('applies nothing of batches taken before a clear', async () => {
    const r = batchRig(2);
    for (let i = 0; i < 4; i += 1) r.buffer.push(`pod-${i}`, [`pod-${i}`, { type: 'MODIFIED', rv: i }]);
    r.turn();
    expect(r.decoding).toHaveLength(2);
    r.buffer.clear();
    for (const batch of r.decoding) batch.decode();
    await r.settle();
    expect(r.applied).toEqual([]);
    expect(r.buffer.pending).toBe(0);
    expect(r.buffer.oldestAt()).toBeUndefined();
  });
});
