/**
 * The initial events of a WatchList, line by line: batches go to the list decoder and reach the
 * cache in order; the socket is paused while batches wait and while the end is applied, and the
 * silence timer does not count a pause the reader chose; events after the end bookmark wait for
 * the state before them; the first event that is not ADDED (a server ignoring sendInitialEvents)
 * or a refusing Status says WatchList is unsupported.
 */
import { describe, expect, it } from 'vitest';
import { InitialEvents } from '../../../../electron/engine/cluster/informers/initial-events.ts';
import { createInlineDecoder, type ListDecoder } from '../../../../electron/engine/cluster/informers/list-decoder.ts';
import { WatchListUnsupported, type StreamEvent } from '../../../../electron/engine/cluster/informers/watch-list.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { FakeClock } from './helpers.ts';

const pod = (i: number, rv = String(i + 10)) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, namespace: 'shop', uid: `u${i}`, resourceVersion: rv }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running' } });
const added = (i: number): string => JSON.stringify({ type: 'ADDED', object: pod(i) });
const END = JSON.stringify({ type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '99', annotations: { 'k8s.io/initial-events-end': 'true' } } } });

/** A decoder whose pages come back only when the test says. */
function heldDecoder(): { decoder: ListDecoder; release(): void; waiting(): number } {
  const inline = createInlineDecoder();
  const waiting: Array<() => void> = [];
  return {
    decoder: { decode: (body, source) => new Promise((resolve) => waiting.push(() => resolve(inline.decode(body, source)))), usesWorker: () => false, close: () => undefined },
    release: () => waiting.splice(0).forEach((go) => go()),
    waiting: () => waiting.length,
  };
}

function setUp(decoder: ListDecoder, cache = new ObjectCache()) {
  const clock = new FakeClock();
  const flow: string[] = [];
  const live: string[] = [];
  const received: StreamEvent[] = [];
  const errors: unknown[] = [];
  const initial = new InitialEvents({
    kind: 'pods',
    cache,
    source: { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' },
    health: { set: () => undefined },
    decoder,
    batchSize: 2,
    stream: { pause: () => flow.push('pause'), resume: () => flow.push('resume') },
    clock,
    silenceMs: 1_000,
    signal: new AbortController().signal,
    onLive: (rv, count) => live.push(`${rv}:${count}`),
    receive: (event) => received.push(event),
    onError: (error) => errors.push(error),
  });
  return { initial, cache, clock, flow, live, received, errors };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('initial events', () => {
  it('decodes batches in order, pauses while four wait and while the end is applied, and hands on later events after the replace', async () => {
    const held = heldDecoder();
    const cache = new ObjectCache();
    cache.upsert('pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'gone', namespace: 'shop', uid: 'gone', resourceVersion: '1' } });
    const t = setUp(held.decoder, cache);
    for (let i = 0; i < 8; i += 1) expect(t.initial.line(added(i))).toBe(true);
    expect(held.waiting()).toBe(4);
    expect(t.flow).toEqual(['pause']);
    // A pause the reader chose is not the server's silence.
    expect(t.clock.pending()).toEqual([]);
    t.initial.line(added(8));
    t.initial.line(END);
    const later = JSON.stringify({ type: 'MODIFIED', object: pod(0, '100') });
    expect(t.initial.line(later)).toBe(true);
    expect(t.received).toEqual([]);
    held.release();
    await settle();
    held.release();
    await settle();
    expect(t.errors).toEqual([]);
    expect(t.live).toEqual(['99:9']);
    expect(t.cache.list('pods').map((p) => p.metadata.uid).sort()).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8']);
    expect(t.received.map((e) => e.type)).toEqual(['MODIFIED']);
    expect(t.flow.at(-1)).toBe('resume');
    // Live: the caller reads the stream from now on.
    expect(t.initial.line(later)).toBe(false);
  });

  it('takes silence before the end bookmark for a server that ignored sendInitialEvents', () => {
    const t = setUp(createInlineDecoder());
    t.initial.line(added(0));
    const [timer] = t.clock.pending();
    if (!timer) throw new Error('no silence timer');
    t.clock.fire(timer);
    expect(t.errors).toHaveLength(1);
    expect(t.errors[0]).toBeInstanceOf(WatchListUnsupported);
    expect((t.errors[0] as Error).message).toBe('no initial-events-end bookmark after 1000 ms of silence');
  });

  it('says WatchList is unsupported at a MODIFIED event, a plain bookmark or a 422 Status before the end', () => {
    const modified = JSON.stringify({ type: 'MODIFIED', object: pod(1) });
    const bookmark = JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '5' } } });
    const invalid = JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 422, reason: 'Invalid', message: 'sendInitialEvents: Forbidden' } });
    for (const line of [modified, bookmark, invalid]) expect(() => setUp(createInlineDecoder()).initial.line(line)).toThrow(WatchListUnsupported);
    const gone = JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' } });
    expect(() => setUp(createInlineDecoder()).initial.line(gone)).toThrow('too old resource version');
    expect(() => setUp(createInlineDecoder()).initial.line(gone)).not.toThrow(WatchListUnsupported);
  });
});
