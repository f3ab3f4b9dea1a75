import { describe, expect, it, vi } from 'vitest';
import { ClusterFrameSchema, type ClusterFrame, type SlimObject } from '../../../shared/cluster.ts';
import { createFrameClient } from '../../../shared/frame-client.ts';

const pod = (n: number, rv = '1'): SlimObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { uid: `u${n}`, name: `p${n}`, namespace: 'ns', resourceVersion: rv } });
const begin = (seq: number, total: number, epoch = 'e1'): ClusterFrame => ({ type: 'snapshot-begin', epoch, context: 'ctx', seq, total });
const chunk = (seq: number, objects: SlimObject[], sent: number, total: number, epoch = 'e1'): ClusterFrame => ({ type: 'snapshot-chunk', epoch, seq, objects, kinds: objects.map(() => 'pods'), sent, total });
const end = (seq: number, epoch = 'e1'): ClusterFrame => ({ type: 'snapshot-end', epoch, seq });
const delta = (seq: number, upserts: SlimObject[] = [], deletes: string[] = [], epoch = 'e1'): ClusterFrame => ({
  type: 'delta',
  epoch,
  seq,
  upserts,
  kinds: upserts.map(() => 'pods'),
  deletes: deletes.map((uid) => ({ kind: 'pods', uid })),
});

function setup() {
  const onSnapshot = vi.fn();
  const onDeltas = vi.fn();
  const onProgress = vi.fn();
  const requestResync = vi.fn();
  const client = createFrameClient({ onSnapshot, onDeltas, onProgress, requestResync });
  const feed = (...frames: ClusterFrame[]) => frames.forEach((frame) => client.receive(frame));
  return { client, feed, onSnapshot, onDeltas, onProgress, requestResync };
}

describe('frame client', () => {
  it('assembles a chunked snapshot, reporting progress, and hands it over at its end', () => {
    const s = setup();
    s.feed(begin(4, 3), chunk(4, [pod(1), pod(2)], 2, 3), chunk(4, [pod(3)], 3, 3));
    expect(s.onSnapshot).not.toHaveBeenCalled();
    s.feed(end(4));
    expect(s.onProgress.mock.calls).toEqual([[0, 3], [2, 3], [3, 3]]);
    expect(s.onSnapshot).toHaveBeenCalledWith([pod(1), pod(2), pod(3)], ['pods', 'pods', 'pods'], { epoch: 'e1', context: 'ctx', seq: 4 });
    expect(s.client.state()).toEqual({ phase: 'live', epoch: 'e1', seq: 4, resyncRequested: false });
  });

  it('refuses a chunk that does not name one kind key per object, and asks for a resync', () => {
    const s = setup();
    const bad = { type: 'snapshot-chunk', epoch: 'e1', seq: 4, objects: [pod(1), pod(2)], kinds: ['pods'], sent: 2, total: 2 } as ClusterFrame;
    expect(ClusterFrameSchema.safeParse(bad).error?.issues[0]?.message).toBe('a snapshot-chunk frame needs one kind key per object: 2 objects, 1 kind keys');
    s.feed(begin(4, 2), bad, end(4));
    expect(s.onSnapshot).not.toHaveBeenCalled();
    expect(s.requestResync).toHaveBeenCalledWith(expect.stringMatching(/without one kind key per object/));
  });

  it('applies deltas S+1, S+2 in order and ignores stale repeats', () => {
    const s = setup();
    s.feed(begin(4, 0), end(4), delta(5, [pod(1)]), delta(5, [pod(9)]), delta(4, [pod(9)]), delta(6, [], ['u1']));
    expect(s.onDeltas.mock.calls).toEqual([
      [[pod(1)], ['pods'], [], 5],
      [[], [], [{ kind: 'pods', uid: 'u1' }], 6],
    ]);
    expect(s.requestResync).not.toHaveBeenCalled();
  });

  it('asks for a resync once on a seq gap and ignores deltas until a snapshot begins', () => {
    const s = setup();
    s.feed(begin(0, 0), end(0), delta(1), delta(3), delta(4), delta(5));
    expect(s.requestResync).toHaveBeenCalledTimes(1);
    expect(s.requestResync.mock.calls[0]?.[0]).toMatch(/seq 2 to 2/);
    expect(s.onDeltas).toHaveBeenCalledTimes(1);
    s.feed(begin(5, 1), chunk(5, [pod(1)], 1, 1), end(5), delta(6, [pod(2)]));
    expect(s.onSnapshot).toHaveBeenLastCalledWith([pod(1)], ['pods'], { epoch: 'e1', context: 'ctx', seq: 5 });
    expect(s.onDeltas).toHaveBeenLastCalledWith([pod(2)], ['pods'], [], 6);
    s.feed(delta(8));
    expect(s.requestResync).toHaveBeenCalledTimes(2);
  });

  it('asks for a resync when the epoch changes', () => {
    const s = setup();
    s.feed(begin(0, 0), end(0), delta(1, [], [], 'e2'));
    expect(s.requestResync).toHaveBeenCalledWith(expect.stringMatching(/epoch e2/));
    expect(s.onDeltas).not.toHaveBeenCalled();
    s.feed(begin(0, 0, 'e2'), end(0, 'e2'), delta(1, [pod(1)], [], 'e2'));
    expect(s.onDeltas).toHaveBeenCalledWith([pod(1)], ['pods'], [], 1);
  });

  it('asks for a resync when a snapshot chunk went missing, and drops the rest of that snapshot', () => {
    const s = setup();
    s.feed(begin(0, 3), chunk(0, [pod(1)], 1, 3), chunk(0, [pod(3)], 3, 3), end(0));
    expect(s.requestResync).toHaveBeenCalledTimes(1);
    expect(s.onSnapshot).not.toHaveBeenCalled();
    expect(s.client.state().phase).toBe('waiting');
  });

  it('asks for a resync when a snapshot ends short of its total', () => {
    const s = setup();
    s.feed(begin(0, 2), chunk(0, [pod(1)], 1, 2), end(0));
    expect(s.requestResync).toHaveBeenCalledTimes(1);
    expect(s.onSnapshot).not.toHaveBeenCalled();
  });

  it('asks for a resync when a delta arrives inside a snapshot (its end went missing)', () => {
    const s = setup();
    s.feed(begin(0, 1), chunk(0, [pod(1)], 1, 1), delta(1));
    expect(s.requestResync).toHaveBeenCalledTimes(1);
    expect(s.onSnapshot).not.toHaveBeenCalled();
  });

  it('asks for a snapshot when deltas arrive before any', () => {
    const s = setup();
    s.feed(delta(7), delta(8));
    expect(s.requestResync).toHaveBeenCalledTimes(1);
    expect(s.onDeltas).not.toHaveBeenCalled();
  });

  it('restarts on a new snapshot-begin, dropping the one in progress', () => {
    const s = setup();
    s.feed(begin(0, 2), chunk(0, [pod(1)], 1, 2), begin(3, 1), chunk(3, [pod(2)], 1, 1), end(3));
    expect(s.onSnapshot).toHaveBeenCalledTimes(1);
    expect(s.onSnapshot).toHaveBeenCalledWith([pod(2)], ['pods'], { epoch: 'e1', context: 'ctx', seq: 3 });
    expect(s.requestResync).not.toHaveBeenCalled();
  });

  it('asks again when the stream moves past the promised snapshot without it arriving', async () => {
    const requestResync = vi.fn(async () => ({ epoch: 'e1', seq: 6 }));
    const onSnapshot = vi.fn();
    const client = createFrameClient({ onSnapshot, onDeltas: vi.fn(), requestResync });
    client.resync('start');
    await Promise.resolve();
    client.receive(delta(5));
    client.receive(delta(6));
    expect(requestResync).toHaveBeenCalledTimes(1);
    client.receive(delta(7));
    expect(requestResync).toHaveBeenCalledTimes(2);
    expect(requestResync).toHaveBeenLastCalledWith(expect.stringMatching(/requested snapshot went missing/));
  });

  it('asks again at the next frame after a failed resync request', async () => {
    const requestResync = vi.fn(async () => undefined);
    const client = createFrameClient({ onSnapshot: vi.fn(), onDeltas: vi.fn(), requestResync });
    client.resync('start');
    await Promise.resolve();
    expect(client.state().resyncRequested).toBe(false);
    client.receive(delta(3));
    expect(requestResync).toHaveBeenCalledTimes(2);
  });

  it('asks again when told to resync, even while live', () => {
    const s = setup();
    s.feed(begin(0, 0), end(0));
    s.client.resync('page reload');
    s.client.resync('reconnect');
    expect(s.requestResync.mock.calls).toEqual([['page reload'], ['reconnect']]);
    expect(s.client.state()).toEqual({ phase: 'waiting', epoch: 'e1', seq: null, resyncRequested: true });
  });
});
