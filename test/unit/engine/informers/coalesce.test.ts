import { describe, expect, it } from 'vitest';
import { CoalescingBuffer, MAX_BATCHES_IN_FLIGHT } from '../../../../electron/engine/cluster/informers/coalesce.ts';

interface Event {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  rv: number;
}

function rig(options: { sliceMs?: number; applyMs?: number; immediate?: boolean } = {}) {
  const applied: Array<[string, Event]> = [];
  const deferred: Array<() => void> = [];
  let now = 0;
  // Slices are timed by applies, not by the machine: each apply takes `applyMs` of this clock.
  let sliceTime = 0;
  const progress: Array<[number, number | undefined]> = [];
  const buffer = new CoalescingBuffer<[string, Event]>({
    apply: (entry) => {
      applied.push(entry);
      sliceTime += options.applyMs ?? 0;
    },
    onError: (error) => {
      throw error;
    },
    onProgress: (waiting, oldestAt) => progress.push([waiting, oldestAt]),
    now: () => now,
    sliceClock: () => sliceTime,
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

  it('decodes the next batch while the one before is applied, and applies them in the order taken', async () => {
    const decoding: string[][] = [];
    const finishDecode: Array<() => void> = [];
    const applied: string[] = [];
    const deferred: Array<() => void> = [];
    const buffer = new CoalescingBuffer<string>({
      apply: () => {
        throw new Error('applied one by one');
      },
      onError: (error) => {
        throw error;
      },
      now: () => 0,
      defer: (run) => deferred.push(run),
      immediate: false,
      batchSize: 2,
      applyBatch: async (events, current, after) => {
        decoding.push(events);
        await new Promise<void>((resolve) => finishDecode.push(resolve));
        await after;
        if (current()) applied.push(...events);
      },
    });
    for (const uid of ['a', 'b', 'c', 'd', 'e', 'f']) buffer.push(uid, uid);
    deferred.shift()?.();
    // Two batches are out at once; the third waits until one of them is applied.
    expect(MAX_BATCHES_IN_FLIGHT).toBe(2);
    expect(decoding).toEqual([['a', 'b'], ['c', 'd']]);
    expect(buffer.pending).toBe(6);
    expect(buffer.size).toBe(2);
    // The second batch's decode ends first: it is still applied after the first.
    finishDecode[1]?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(applied).toEqual([]);
    finishDecode[0]?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(applied).toEqual(['a', 'b', 'c', 'd']);
    while (deferred.length > 0) deferred.shift()?.();
    expect(decoding.at(-1)).toEqual(['e', 'f']);
    // A relist while that batch decodes: it is stale and applies nothing.
    buffer.clear();
    finishDecode[2]?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(applied).toEqual(['a', 'b', 'c', 'd']);
    expect(buffer.pending).toBe(0);
  });
});
