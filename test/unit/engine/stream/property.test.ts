/**
 * Random cache writes, resyncs, flow-control waits and dropped frames: the renderer side (the
 * frame client) must hold exactly the cache whenever it believes itself in sync, and must get
 * back in sync after any drop.
 */
import { describe, expect, it } from 'vitest';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { createFrameStream } from '../../../../electron/engine/stream/batcher.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { ClusterFrameSchema, type ClusterFrame, type KindKey, type SlimObject } from '../../../../shared/cluster.ts';
import { createFrameClient, type ResyncAnswer } from '../../../../shared/frame-client.ts';
import { kindNameOf } from '../../../../shared/builtin-kinds.ts';

const SEEDS = 40;
const STEPS = 400;
const UIDS = 30;
const FRAME_BYTES = 2048;

/** mulberry32: a small seeded generator, so a failing seed replays exactly. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function object(kind: KindKey, n: number, rv: number): SlimObject {
  return { apiVersion: 'v1', kind: kindNameOf(kind), metadata: { uid: `${kind}-${n}`, name: `${kind.toLowerCase()}-${n}`, namespace: 'ns', resourceVersion: String(rv) }, spec: { n, pad: 'x'.repeat(n * 10) } };
}

const versions = (objects: Iterable<SlimObject>) => new Map([...objects].map((o) => [o.metadata.uid, o.metadata.resourceVersion]));

async function run(seed: number): Promise<{ resyncs: number; drops: number; checks: number }> {
  const rand = random(seed);
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const cache = new ObjectCache();
  const clock = new ManualClock(0);
  const wire: ClusterFrame[] = [];
  let backlog = 0;
  const stream = createFrameStream({
    cache,
    clock,
    epoch: 'e1',
    context: null,
    maxFrameBytes: FRAME_BYTES,
    sliceBytes: 6000,
    flushIntervalMs: 20,
    maxFlushIntervalMs: 200,
    backlog: () => backlog,
    backlogPauseBytes: 1000,
    emit: (frame) => wire.push(frame),
  });
  const held = new Map<string, SlimObject>();
  /** Resync requests in flight, answered when the "engine" gets to them, like a real round trip. */
  const answers: ((answer: ResyncAnswer) => void)[] = [];
  const client = createFrameClient({
    onSnapshot(objects) {
      held.clear();
      for (const o of objects) held.set(o.metadata.uid, o);
    },
    onDeltas(upserts, _kinds, deletes) {
      for (const o of upserts) held.set(o.metadata.uid, o);
      for (const ref of deletes) held.delete(ref.uid);
    },
    requestResync: () => new Promise<ResyncAnswer>((resolve) => answers.push(resolve)),
  });
  let rv = 1;
  let drops = 0;
  let resyncs = 0;
  let checks = 0;
  let lastSeq = 0;

  function deliver(dropRate: number): void {
    for (const frame of wire.splice(0)) {
      expect(ClusterFrameSchema.safeParse(frame).success).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(frame))).toBeLessThanOrEqual(FRAME_BYTES);
      if (frame.type === 'delta' || frame.type === 'snapshot-begin') {
        expect(frame.seq, `seq after ${lastSeq}`).toBe(lastSeq + 1);
        lastSeq = frame.seq;
      }
      if (rand() < dropRate) drops += 1;
      else client.receive(frame);
    }
  }

  function serveResync(): void {
    if (answers.length === 0) return;
    resyncs += 1;
    const answer = stream.resync('client asked');
    for (const resolve of answers.splice(0)) resolve(answer);
  }

  /** Whenever the client is live at the stream's seq and nothing is in flight, it equals the cache. */
  function checkInSync(): void {
    const state = client.state();
    const stats = stream.stats();
    if (state.phase !== 'live' || state.seq !== stats.seq || stats.pending > 0 || stats.snapshotInProgress || wire.length > 0) return;
    checks += 1;
    expect(versions(held.values())).toEqual(versions(cache.list()));
  }

  client.resync('start');
  for (let step = 0; step < STEPS; step += 1) {
    const r = rand();
    const kind = pick<KindKey>(['pods', 'pods', 'services']);
    if (r < 0.3) cache.upsert(kind, object(kind, Math.floor(rand() * UIDS), rv++));
    else if (r < 0.42) cache.delete(kind, `${kind}-${Math.floor(rand() * UIDS)}`);
    else if (r < 0.46) {
      const fresh: SlimObject[] = [];
      for (let n = 0; n < UIDS; n += 1) {
        if (rand() < 0.5) continue;
        const current = cache.get(kind, `${kind}-${n}`);
        fresh.push(current && rand() < 0.5 ? current : object(kind, n, rv++));
      }
      cache.replaceKind(kind, fresh);
    } else if (r < 0.49) stream.resync('another page');
    else if (r < 0.55) backlog = rand() < 0.5 ? 0 : 5000;
    else if (r < 0.75) clock.advance(Math.floor(rand() * 60));
    else if (r < 0.93) deliver(0.08);
    else serveResync();
    checkInSync();
    // Lets answers to resync requests arrive between steps.
    await Promise.resolve();
  }

  // The cluster keeps changing a little; the next frame after a drop reveals the gap.
  backlog = 0;
  for (let round = 0; round < 20; round += 1) {
    cache.upsert('pods', object('pods', 0, rv++));
    clock.advance(1000);
    deliver(0);
    serveResync();
    await Promise.resolve();
    clock.advance(1000);
    deliver(0);
    const state = client.state();
    if (state.phase === 'live' && state.seq === stream.stats().seq) break;
  }
  expect(client.state()).toMatchObject({ phase: 'live', seq: stream.stats().seq });
  expect(versions(held.values())).toEqual(versions(cache.list()));
  stream.dispose();
  return { resyncs, drops, checks };
}

describe('frame stream and frame client together', () => {
  it('keep the renderer equal to the cache through random writes, resyncs, waits and dropped frames', async () => {
    let drops = 0;
    let resyncs = 0;
    let checks = 0;
    for (let seed = 1; seed <= SEEDS; seed += 1) {
      let result: Awaited<ReturnType<typeof run>>;
      try {
        result = await run(seed);
      } catch (error) {
        throw new Error(`seed ${seed}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      drops += result.drops;
      resyncs += result.resyncs;
      checks += result.checks;
    }
    // The run exercised what it claims to: drops happened, the client recovered, and it was checked in sync often.
    expect(drops).toBeGreaterThan(SEEDS);
    expect(resyncs).toBeGreaterThan(SEEDS);
    expect(checks).toBeGreaterThan(SEEDS * 5);
  });
});
