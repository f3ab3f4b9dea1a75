import { describe, expect, it } from 'vitest';
import { createFrameStream, type FrameStream } from '../../../../electron/engine/stream/batcher.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { createFrameClient } from '../../../../shared/frame-client.ts';
import { FRAME_ENVELOPE_BYTES, frameText } from '../../../../electron/engine/stream/frames.ts';
import { FLUSH_INTERVAL_MS } from '../../../../electron/engine/stream/interval.ts';
import { MAX_FRAME_BYTES, type ClusterFrame } from '../../../../shared/cluster.ts';
import { viewObject } from '../../../../electron/engine/stream/view.ts';
import { slimPod } from './fixtures.ts';
import { harness } from './harness.ts';
import { upsertBuiltin } from './cache-helpers.ts';

type Chunk = Extract<ClusterFrame, { type: 'snapshot-chunk' }>;
const chunks = (frames: ClusterFrame[]) => frames.filter((f): f is Chunk => f.type === 'snapshot-chunk');

describe('frame stream snapshots', () => {
  it('streams begin, chunks under the limit with running counts, and end, all at the current seq', () => {
    const h = harness();
    for (let i = 0; i < 3000; i += 1) upsertBuiltin(h.cache, slimPod(i));
    h.clock.advance(FLUSH_INTERVAL_MS);
    const seq = h.stream.stats().seq + 1;
    h.frames.length = 0;
    expect(h.stream.resync('test')).toEqual({ epoch: 'e1', seq });
    h.clock.advance(0);
    const [begin, ...rest] = h.frames;
    expect(begin).toEqual({ type: 'snapshot-begin', epoch: 'e1', context: 'test', seq, total: 3000 });
    expect(rest.at(-1)).toEqual({ type: 'snapshot-end', epoch: 'e1', seq });
    const parts = chunks(h.frames);
    expect(parts).toHaveLength(h.frames.length - 2);
    let sent = 0;
    for (const part of parts) {
      sent += part.objects.length;
      expect(part).toMatchObject({ seq, sent, total: 3000 });
      expect(frameText(part)).toBe(JSON.stringify(part));
    }
    expect(sent).toBe(3000);
    expect(Math.max(...h.sizes())).toBeLessThanOrEqual(MAX_FRAME_BYTES - FRAME_ENVELOPE_BYTES);
    expect(new Set(parts.flatMap((p) => p.objects.map((o) => o.metadata.uid))).size).toBe(3000);
    expect(h.stream.stats()).toMatchObject({ snapshots: 1, snapshotInProgress: false, lastResyncReason: 'test' });
  });

  it('folds pending changes into a snapshot that takes its own seq, and numbers later deltas from S+1', () => {
    const h = harness();
    upsertBuiltin(h.cache, slimPod(1, '1'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    upsertBuiltin(h.cache, slimPod(1, '2'));
    upsertBuiltin(h.cache, slimPod(2, '1'));
    const { seq } = h.stream.resync();
    expect(seq).toBe(2);
    h.clock.advance(FLUSH_INTERVAL_MS);
    const after = h.frames.slice(h.frames.findIndex((f) => f.type === 'snapshot-begin'));
    expect(after.map((f) => f.type)).toEqual(['snapshot-begin', 'snapshot-chunk', 'snapshot-end']);
    expect(chunks(after)[0]?.objects.map((o) => o.metadata.resourceVersion)).toEqual(['2', '1']);
    upsertBuiltin(h.cache, slimPod(2, '2'));
    h.clock.advance(FLUSH_INTERVAL_MS);
    expect(h.frames.at(-1)).toMatchObject({ type: 'delta', seq: 3, upserts: [{ metadata: { resourceVersion: '2', uid: slimPod(2).metadata.uid } }] });
  });

  it('sends an empty cache as begin and end only', () => {
    const h = harness();
    h.stream.resync();
    expect(h.frames).toEqual([
      { type: 'snapshot-begin', epoch: 'e1', context: 'test', seq: 1, total: 0 },
      { type: 'snapshot-end', epoch: 'e1', seq: 1 },
    ]);
  });

  it('holds deltas back until a sliced snapshot has ended, then sends them as S+1', () => {
    const h = harness({ sliceBytes: 128 * 1024 });
    for (let i = 0; i < 500; i += 1) upsertBuiltin(h.cache, slimPod(i));
    h.clock.advance(FLUSH_INTERVAL_MS);
    const { seq } = h.stream.resync();
    expect(h.stream.stats().snapshotInProgress).toBe(true);
    upsertBuiltin(h.cache, slimPod(7, 'during'));
    h.cache.delete('pods', slimPod(8).metadata.uid);
    h.clock.advance(FLUSH_INTERVAL_MS);
    const fromBegin = h.frames.slice(h.frames.findIndex((f) => f.type === 'snapshot-begin'));
    const end = fromBegin.findIndex((f) => f.type === 'snapshot-end');
    expect(fromBegin.slice(0, end).every((f) => f.type !== 'delta')).toBe(true);
    expect(fromBegin.slice(end + 1)).toEqual([
      { type: 'delta', epoch: 'e1', seq: seq + 1, upserts: [viewObject(slimPod(7, 'during'), 'pods')], kinds: ['pods'], deletes: [{ kind: 'pods', uid: slimPod(8).metadata.uid }] },
    ]);
  });

  it('abandons a snapshot in progress when another resync starts', () => {
    const h = harness({ sliceBytes: 64 * 1024 });
    for (let i = 0; i < 200; i += 1) upsertBuiltin(h.cache, slimPod(i));
    h.clock.advance(FLUSH_INTERVAL_MS);
    h.frames.length = 0;
    h.stream.resync('first');
    h.stream.resync('second');
    h.clock.advance(0);
    expect(h.frames.filter((f) => f.type === 'snapshot-begin')).toHaveLength(2);
    expect(h.frames.filter((f) => f.type === 'snapshot-end')).toHaveLength(1);
    const second = h.frames.slice(h.frames.findLastIndex((f) => f.type === 'snapshot-begin'));
    expect(chunks(second).at(-1)?.sent).toBe(200);
  });

  it('paces a snapshot to the consumer backlog instead of flooding it', () => {
    let consumed = 0;
    const backlog = () => h.stream.stats().bytes - consumed;
    const h = harness({ backlog, backlogPauseBytes: 100_000 });
    for (let i = 0; i < 300; i += 1) upsertBuiltin(h.cache, slimPod(i));
    h.clock.advance(FLUSH_INTERVAL_MS);
    consumed = h.stream.stats().bytes;
    h.stream.resync();
    // The consumer takes 40 KB per 5 ms: what waits for it never exceeds the pause threshold plus a frame.
    let most = 0;
    for (let step = 0; step < 400 && h.stream.stats().snapshotInProgress; step += 1) {
      most = Math.max(most, backlog());
      consumed = Math.min(h.stream.stats().bytes, consumed + 40_000);
      h.clock.advance(5);
    }
    expect(h.stream.stats().snapshotInProgress).toBe(false);
    expect(most).toBeLessThanOrEqual(100_000 + MAX_FRAME_BYTES);
    expect(h.stream.stats().backlogWaits).toBeGreaterThan(0);
  });

  it('stays consistent when a resync is asked for from inside emit', () => {
    const cache = new ObjectCache();
    const clock = new ManualClock(0);
    const held = new Map<string, string>();
    let dropNext = true;
    const client = createFrameClient({
      onSnapshot: (objects) => {
        held.clear();
        for (const o of objects) held.set(o.metadata.uid, o.metadata.resourceVersion);
      },
      onDeltas: (upserts, _kinds, deletes) => {
        for (const o of upserts) held.set(o.metadata.uid, o.metadata.resourceVersion);
        for (const ref of deletes) held.delete(ref.uid);
      },
      // A transport that answers synchronously, feeding the snapshot back while a frame is being emitted.
      requestResync: (reason) => void stream.resync(reason),
    });
    const stream: FrameStream = createFrameStream({
      cache,
      clock,
      epoch: 'e1',
      context: null,
      maxFrameBytes: 8 * 1024,
      sliceBytes: 16 * 1024,
      emit: (frame) => {
        if (frame.type === 'delta' && dropNext) dropNext = false;
        else client.receive(frame);
      },
    });
    client.resync('start');
    for (let i = 0; i < 50; i += 1) upsertBuiltin(cache, slimPod(i));
    clock.advance(FLUSH_INTERVAL_MS);
    for (let i = 0; i < 50; i += 2) upsertBuiltin(cache, slimPod(i, '2'));
    clock.advance(FLUSH_INTERVAL_MS);
    clock.advance(FLUSH_INTERVAL_MS);
    expect(client.state()).toMatchObject({ phase: 'live', seq: stream.stats().seq });
    expect(held).toEqual(new Map(cache.list().map((o) => [o.metadata.uid, o.metadata.resourceVersion])));
  });
});
