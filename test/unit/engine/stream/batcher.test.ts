import { describe, expect, it } from 'vitest';
import { createFrameStream } from '../../../../electron/engine/stream/batcher.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { FRAME_ENVELOPE_BYTES, frameText } from '../../../../electron/engine/stream/frames.ts';
import { FLUSH_INTERVAL_MS, MAX_FLUSH_INTERVAL_MS } from '../../../../electron/engine/stream/interval.ts';
import { ClusterFrameSchema, MAX_FRAME_BYTES } from '../../../../shared/cluster.ts';
import { viewObject } from '../../../../electron/engine/stream/view.ts';
import { bulkyObject, slimPod } from './fixtures.ts';
import { harness, type Harness } from './harness.ts';
import { upsertBuiltin } from './cache-helpers.ts';
import { builtinKeyOf } from '../../../../shared/builtin-kinds.ts';

const BUDGET = MAX_FRAME_BYTES - FRAME_ENVELOPE_BYTES;

describe('frame stream coalescing', () => {
  it('coalesces three updates of one pod into one upsert in one frame', () => {
    const h = harness();
    upsertBuiltin(h.cache, slimPod(1, '10'));
    upsertBuiltin(h.cache, slimPod(1, '11'));
    upsertBuiltin(h.cache, slimPod(1, '12'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    expect(h.frames).toHaveLength(1);
    const [frame] = h.deltas();
    expect(frame?.upserts.map((pod) => pod.metadata.resourceVersion)).toEqual(['12']);
    expect(frame?.deletes).toEqual([]);
  });

  it('cancels a create followed by a delete the renderer never saw', () => {
    const h = harness();
    upsertBuiltin(h.cache, slimPod(1, '10'));
    upsertBuiltin(h.cache, slimPod(2, '10'));
    h.cache.delete('pods', slimPod(1).metadata.uid);
    h.clock.advance(FLUSH_INTERVAL_MS);
    expect(h.deltas().map((f) => [f.upserts.map((p) => p.metadata.uid), f.deletes])).toEqual([[[slimPod(2).metadata.uid], []]]);
    upsertBuiltin(h.cache, slimPod(3, '10'));
    h.cache.delete('pods', slimPod(3).metadata.uid);
    h.clock.advance(MAX_FLUSH_INTERVAL_MS);
    expect(h.frames).toHaveLength(1);
  });

  it('turns a delete and re-create of a known uid into one upsert of the new version', () => {
    const h = harness();
    upsertBuiltin(h.cache, slimPod(1, '10'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    h.cache.delete('pods', slimPod(1).metadata.uid);
    upsertBuiltin(h.cache, slimPod(1, '20'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    const second = h.deltas()[1];
    expect(second?.upserts.map((pod) => pod.metadata.resourceVersion)).toEqual(['20']);
    expect(second?.deletes).toEqual([]);
  });

  it('sends one delete for a known pod updated and then deleted', () => {
    const h = harness();
    upsertBuiltin(h.cache, slimPod(1, '10'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    upsertBuiltin(h.cache, slimPod(1, '11'));
    h.cache.delete('pods', slimPod(1).metadata.uid);
    h.clock.advance(FLUSH_INTERVAL_MS);
    expect(h.deltas()[1]).toMatchObject({ upserts: [], deletes: [{ kind: 'pods', uid: slimPod(1).metadata.uid }] });
  });

  it('sends a change that follows a quiet window on the next turn, with the rest of that turn', () => {
    const h = harness();
    upsertBuiltin(h.cache, slimPod(1, '10'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    h.clock.advance(FLUSH_INTERVAL_MS);
    upsertBuiltin(h.cache, slimPod(1, '11'));
    upsertBuiltin(h.cache, slimPod(2, '10'));
    expect(h.frames).toHaveLength(1);
    h.clock.advance(0);
    expect(h.deltas()[1]?.upserts.map((pod) => pod.metadata.resourceVersion)).toEqual(['11', '10']);
  });

  it('holds changes that follow a flush until one window after that flush', () => {
    const h = harness();
    upsertBuiltin(h.cache, slimPod(1));
    h.clock.advance(0);
    expect(h.frames).toHaveLength(1);
    h.clock.advance(10);
    upsertBuiltin(h.cache, slimPod(2));
    h.clock.advance(FLUSH_INTERVAL_MS - 11);
    upsertBuiltin(h.cache, slimPod(3));
    expect(h.frames).toHaveLength(1);
    h.clock.advance(1);
    expect(h.deltas()[1]?.upserts.map((pod) => pod.metadata.uid)).toEqual([slimPod(2).metadata.uid, slimPod(3).metadata.uid]);
  });

  it('sends every change of a steady stream within one window of its write, one frame per window at most', () => {
    const h = harness();
    const sentAt = new Map<string, number>();
    const writtenAt = new Map<string, number>();
    let seen = 0;
    const noteSent = (): void => {
      for (const frame of h.deltas().slice(seen)) for (const pod of frame.upserts) sentAt.set(pod.metadata.uid, h.clock.now());
      seen = h.deltas().length;
    };
    for (let ms = 0; ms < 1_000; ms += 1) {
      // Five pods a millisecond (5,000 a second), each written once.
      for (let i = 0; i < 5; i += 1) {
        const pod = slimPod(ms * 5 + i);
        writtenAt.set(pod.metadata.uid, ms);
        upsertBuiltin(h.cache, pod);
      }
      h.clock.advance(1);
      noteSent();
    }
    for (let ms = 0; ms < FLUSH_INTERVAL_MS; ms += 1) {
      h.clock.advance(1);
      noteSent();
    }
    expect(sentAt.size).toBe(5_000);
    const waits = [...writtenAt].map(([uid, at]) => (sentAt.get(uid) as number) - at);
    expect(Math.max(...waits)).toBeLessThanOrEqual(FLUSH_INTERVAL_MS);
    expect(h.stream.stats().flushes).toBeLessThanOrEqual(Math.ceil(1_000 / FLUSH_INTERVAL_MS) + 1);
  });
});

describe('frame stream framing', () => {
  it('splits a flush of 5,000 pods into frames under the limit, with exact sizes', () => {
    const h = harness();
    for (let i = 0; i < 5000; i += 1) upsertBuiltin(h.cache, slimPod(i));
    h.clock.advance(FLUSH_INTERVAL_MS);
    const sizes = h.sizes();
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BUDGET);
    // Packing is tight: every frame but the last is within one pod of the budget.
    const podBytes = Buffer.byteLength(JSON.stringify(slimPod(4999)));
    for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThan(BUDGET - podBytes - 1);
    expect(h.stream.stats().bytes).toBe(sizes.reduce((a, b) => a + b, 0));
    expect(h.stream.stats().largestFrameBytes).toBe(Math.max(...sizes));
    const envelope = (frame: unknown) => Buffer.byteLength(JSON.stringify({ t: 'evt', stream: 'cluster:frames', payload: frame }));
    expect(Math.max(...h.frames.map(envelope))).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    expect(new Set(h.deltas().flatMap((f) => f.upserts.map((p) => p.metadata.uid))).size).toBe(5000);
    for (const frame of h.frames) expect(ClusterFrameSchema.safeParse(frame).success).toBe(true);
    for (const frame of h.frames) expect(frameText(frame)).toBe(JSON.stringify(frame));
  });

  it('sends the JSON the cache writer supplied instead of serialising the object again', () => {
    const h = harness();
    // Equivalent JSON in another key order: only the supplied text can produce it. A pod travels
    // in the renderer's form (its view JSON is sent); other kinds as cached (their JSON is sent).
    const reordered = (object: object) => {
      const { metadata, ...rest } = object as { metadata: unknown };
      return JSON.stringify({ metadata, ...rest });
    };
    const pod = slimPod(1);
    const podView = reordered(viewObject(pod, 'pods'));
    const replicaSet = bulkyObject(2);
    const replicaSetJson = reordered(replicaSet);
    expect(podView).not.toBe(JSON.stringify(viewObject(pod, 'pods')));
    upsertBuiltin(h.cache, pod, reordered(pod), podView);
    upsertBuiltin(h.cache, replicaSet, replicaSetJson);
    upsertBuiltin(h.cache, slimPod(3));
    h.clock.advance(FLUSH_INTERVAL_MS);
    const [frame] = h.deltas();
    if (!frame) throw new Error('no delta frame');
    expect(frameText(frame)).toBe(`{"type":"delta","epoch":"e1","seq":1,"upserts":[${podView},${replicaSetJson},${JSON.stringify(viewObject(slimPod(3), 'pods'))}],"kinds":["pods","${builtinKeyOf(replicaSet)}","pods"],"deletes":[]}`);
    expect(JSON.parse(frameText(frame))).toEqual(frame);
    expect(h.stream.stats().bytes).toBe(Buffer.byteLength(frameText(frame)));
  });

  it('hands the transport each frame as the JSON it measured, upserts and deletes alike', () => {
    const h = harness();
    const tricky = slimPod(7);
    // Text that looks like the frame's own arrays, and characters that take several bytes.
    tricky.metadata.labels = { note: '"deletes":[],"upserts":[]', 'zone-名前': 'ü' };
    for (const i of [1, 2, 3]) upsertBuiltin(h.cache, slimPod(i));
    h.clock.advance(FLUSH_INTERVAL_MS);
    h.cache.delete('pods', slimPod(2).metadata.uid);
    upsertBuiltin(h.cache, tricky);
    upsertBuiltin(h.cache, slimPod(3, '2'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    const [first, second] = h.deltas();
    expect(second?.upserts.length).toBe(2);
    expect(second?.deletes.length).toBe(1);
    for (const frame of [first, second]) {
      if (!frame) throw new Error('a delta frame is missing');
      expect(frameText(frame)).toBe(JSON.stringify(frame));
    }
    expect(h.stream.stats().bytes).toBe(h.sizes().reduce((a, b) => a + b, 0));
  });

  it('numbers delta frames 1, 2, 3... with no gap across flushes', () => {
    const h = harness();
    for (let round = 0; round < 5; round += 1) {
      for (let i = 0; i < 200; i += 1) upsertBuiltin(h.cache, slimPod(i, String(round + 1)));
      h.clock.advance(MAX_FLUSH_INTERVAL_MS);
    }
    const seqs = h.deltas().map((f) => f.seq);
    expect(seqs.length).toBeGreaterThan(5);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(h.stream.stats().seq).toBe(seqs.length);
  });

  it('sends an object larger than the limit alone in its own frame', () => {
    const h = harness();
    const huge = bulkyObject(2);
    huge.metadata.annotations = { 'example.com/blob': 'x'.repeat(100_000) };
    upsertBuiltin(h.cache, slimPod(1));
    upsertBuiltin(h.cache, huge);
    upsertBuiltin(h.cache, slimPod(3));
    h.clock.advance(FLUSH_INTERVAL_MS);
    expect(h.deltas().map((f) => f.upserts.map((p) => p.metadata.uid))).toEqual([
      [slimPod(1).metadata.uid],
      [huge.metadata.uid],
      [slimPod(3).metadata.uid],
    ]);
    expect(h.stream.stats().oversizeFrames).toBe(1);
  });

  it('emits nothing after dispose', () => {
    const h = harness();
    upsertBuiltin(h.cache, slimPod(1));
    h.stream.dispose();
    upsertBuiltin(h.cache, slimPod(2));
    h.clock.advance(MAX_FLUSH_INTERVAL_MS);
    h.stream.resync('late');
    expect(h.frames).toEqual([]);
  });
});

describe('frame stream flow control', () => {
  /** Writes `perTick` updates of distinct ~1.5 KB objects every 50 ms for `ms`; returns the windows seen, without repeats. */
  function churn(h: Harness, perTick: number, ms: number, rv: { n: number }): number[] {
    const windows: number[] = [];
    for (let t = 0; t < ms; t += 50) {
      for (let i = 0; i < perTick; i += 1, rv.n += 1) upsertBuiltin(h.cache, bulkyObject(rv.n % 100_000, String(rv.n)));
      h.clock.advance(50);
      const window = h.stream.stats().flushIntervalMs;
      if (windows.at(-1) !== window) windows.push(window);
    }
    return windows;
  }

  it('widens the flush window when the stream runs heavy and narrows it back when it calms down', () => {
    const h = harness();
    const rv = { n: 0 };
    // 2,000 pods per 50 ms is about 75 MiB/s; 20 per 50 ms is under 1 MiB/s.
    expect(churn(h, 2000, 4000, rv)).toEqual([32, 64, 128, 256, 512, 1000]);
    expect(churn(h, 20, 5000, rv)).toEqual([1000, 500, 250, 125, 62.5, 31.25, FLUSH_INTERVAL_MS]);
  });

  it('keeps the base window at 5,000 updates a second, even after a burst widened it', () => {
    const h = harness();
    for (let i = 0; i < 5000; i += 1) upsertBuiltin(h.cache, slimPod(i));
    h.clock.advance(FLUSH_INTERVAL_MS);
    expect(h.stream.stats().flushIntervalMs).toBe(2 * FLUSH_INTERVAL_MS);
    const windows = churn(h, 250, 3000, { n: 1 });
    expect(windows.at(-1)).toBe(FLUSH_INTERVAL_MS);
    expect(Math.max(...windows)).toBeLessThanOrEqual(2 * FLUSH_INTERVAL_MS);
  });

  it('returns to the base window after being idle for the widest window', () => {
    const h = harness();
    churn(h, 2000, 1000, { n: 0 });
    expect(h.stream.stats().flushIntervalMs).toBeGreaterThan(FLUSH_INTERVAL_MS);
    h.clock.advance(MAX_FLUSH_INTERVAL_MS * 2);
    const before = h.frames.length;
    upsertBuiltin(h.cache, bulkyObject(1, 'after-idle'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    expect(h.frames.length).toBe(before + 1);
  });

  it('emits a big flush in slices, one per event-loop turn', () => {
    const clock = new ManualClock(0);
    const sliceBytes = 256 * 1024;
    let turn = 0;
    const bytesPerTurn: number[] = [];
    const cache = new ObjectCache();
    const stream = createFrameStream({
      cache,
      epoch: 'e1',
      context: null,
      sliceBytes,
      emit: (frame) => (bytesPerTurn[turn] = (bytesPerTurn[turn] ?? 0) + Buffer.byteLength(JSON.stringify(frame))),
      clock: { now: () => clock.now(), clearTimeout: (h) => clock.clearTimeout(h), setTimeout: (fn, ms) => clock.setTimeout(() => ((turn += 1), fn()), ms) },
    });
    for (let i = 0; i < 1000; i += 1) upsertBuiltin(cache, bulkyObject(i));
    clock.advance(FLUSH_INTERVAL_MS);
    const turns = bytesPerTurn.filter((bytes) => bytes !== undefined);
    expect(turns.length).toBeGreaterThan(5);
    for (const bytes of turns.slice(0, -1)) {
      expect(bytes).toBeGreaterThanOrEqual(sliceBytes);
      expect(bytes).toBeLessThan(sliceBytes + MAX_FRAME_BYTES);
    }
    expect(stream.stats()).toMatchObject({ pending: 0, flushes: 1 });
  });

  it('waits while the consumer is backlogged, coalescing meanwhile, then catches up', () => {
    let backlog = 10 * 1024 * 1024;
    const h = harness({ backlog: () => backlog });
    upsertBuiltin(h.cache, slimPod(1, '1'));
    h.clock.advance(FLUSH_INTERVAL_MS + 200);
    expect(h.frames).toHaveLength(0);
    upsertBuiltin(h.cache, slimPod(1, '2'));
    upsertBuiltin(h.cache, slimPod(1, '3'));
    backlog = 0;
    h.clock.advance(10);
    expect(h.deltas().map((f) => f.upserts.map((p) => p.metadata.resourceVersion))).toEqual([['3']]);
    expect(h.stream.stats().backlogWaits).toBeGreaterThan(0);
    expect(h.stream.stats().flushIntervalMs).toBe(2 * FLUSH_INTERVAL_MS);
  });

  it('stops waiting for a consumer that stays backlogged longer than the widest window', () => {
    const h = harness({ backlog: () => 10 * 1024 * 1024 });
    for (let i = 0; i < 100; i += 1) upsertBuiltin(h.cache, slimPod(i));
    // The flush starts at once (nothing was sent before) and waits for the widest window.
    h.clock.advance(MAX_FLUSH_INTERVAL_MS - 10);
    expect(h.frames).toHaveLength(0);
    h.clock.advance(20);
    expect(h.deltas().flatMap((f) => f.upserts)).toHaveLength(100);
  });
});
