import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';
import type { ClusterFrame, SlimObject } from '../../../../shared/cluster.ts';
import type { CacheChange } from '../../../../electron/engine/stream/cache.ts';
import { frameText, packDelta } from '../../../../electron/engine/stream/frames.ts';
import { PendingChanges } from '../../../../electron/engine/stream/pending.ts';
import { viewObject } from '../../../../electron/engine/stream/view.ts';
import { bulkyObject, slimPod } from './fixtures.ts';

type Delta = Extract<ClusterFrame, { type: 'delta' }>;
const BUDGET_BYTES = 1_000_000;

/** An upsert as a list page writes it: with the object's JSON and, for a pod, its view's JSON. */
function listed(kind: string, object: SlimObject): CacheChange {
  const viewJson = kind === BUILTIN_KEYS.Pod ? JSON.stringify(viewObject(object, kind)) : undefined;
  return { type: 'upsert', kind, object, previous: undefined, json: JSON.stringify(object), ...(viewJson ? { viewJson } : {}) };
}

/** An upsert as a watch event writes it: the object alone. */
const watched = (kind: string, object: SlimObject): CacheChange => ({ type: 'upsert', kind, object, previous: undefined });

function pack(changes: CacheChange[]): { frame: Delta; bytes: number } {
  const pending = new PendingChanges();
  for (const change of changes) pending.record(change);
  return packDelta(pending, { epoch: 'e1', seq: 7 }, BUDGET_BYTES);
}

describe('delta frames of listed pods', () => {
  const pods = [slimPod(1), slimPod(2), slimPod(3)];
  const replicaSet = bulkyObject(4);
  const changes = [listed(BUILTIN_KEYS.Pod, pods[0] as SlimObject), watched(BUILTIN_KEYS.Pod, pods[1] as SlimObject), listed(BUILTIN_KEYS.ReplicaSet, replicaSet), listed(BUILTIN_KEYS.Pod, pods[2] as SlimObject)];
  const expected = [viewObject(pods[0] as SlimObject, BUILTIN_KEYS.Pod), viewObject(pods[1] as SlimObject, BUILTIN_KEYS.Pod), replicaSet, viewObject(pods[2] as SlimObject, BUILTIN_KEYS.Pod)];

  it('have the same text, size and key order as frames whose views were made while packing', () => {
    const { frame, bytes } = pack(changes);
    const text = frameText(frame);
    expect(JSON.parse(text)).toEqual({ type: 'delta', epoch: 'e1', seq: 7, upserts: expected, kinds: ['pods', 'pods', 'replicasets.apps', 'pods'], deletes: [] });
    expect(Object.keys(frame)).toEqual(['type', 'epoch', 'seq', 'upserts', 'kinds', 'deletes']);
    expect(JSON.stringify(frame)).toBe(text);
    expect(Buffer.byteLength(text)).toBe(bytes);
  });

  it('give objects equal to the views when read, the same ones on every read, and keep an unlisted kind as cached', () => {
    const { frame } = pack(changes);
    expect(frame.upserts).toEqual(expected);
    expect(frame.upserts).toBe(frame.upserts);
    expect(frame.upserts[2]).toBe(replicaSet);
  });

  it('are cloned with their objects, as the desktop IPC clones them', () => {
    const { frame } = pack(changes);
    const whole = { type: 'delta', epoch: 'e1', seq: 7, upserts: expected, kinds: ['pods', 'pods', 'replicasets.apps', 'pods'], deletes: [] };
    expect(structuredClone(frame)).toEqual(whole);
    // V8's serializer, which Electron's IPC uses.
    expect(deserialize(serialize(pack(changes).frame))).toEqual(whole);
  });

  it('make no pod view while nobody reads their objects, and make them for a watched pod at once', () => {
    const { frame } = pack(changes);
    expect(Object.getOwnPropertyDescriptor(frame, 'upserts')?.get).toBeTypeOf('function');
    frameText(frame);
    expect(Object.getOwnPropertyDescriptor(frame, 'upserts')?.get).toBeTypeOf('function');
    const unlisted = pack([watched(BUILTIN_KEYS.Pod, pods[1] as SlimObject)]).frame;
    expect(Object.getOwnPropertyDescriptor(unlisted, 'upserts')?.value).toEqual([expected[1]]);
  });

  it('take a value written to their objects', () => {
    const { frame } = pack(changes);
    frame.upserts = [];
    expect(frame.upserts).toEqual([]);
    expect(JSON.parse(JSON.stringify(frame)).upserts).toEqual([]);
  });
});
