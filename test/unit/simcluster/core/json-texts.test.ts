import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonTexts } from '../../../../electron/engine/simcluster/json-texts.ts';

const IDLE_MS = 100;
const PER_TURN = 2;

function objects(count: number): Array<{ name: string }> {
  return Array.from({ length: count }, (_, i) => ({ name: `o-${i}` }));
}

let texts: JsonTexts<{ name: string }>;
beforeEach(() => {
  vi.useFakeTimers();
  texts = new JsonTexts({ idleMs: IDLE_MS, perTurn: PER_TURN, clock: () => Date.now() });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('JsonTexts', () => {
  it('serialises nothing as objects are written, and the object asked for last once for every asker', () => {
    const [a, b] = objects(2) as [{ name: string }, { name: string }];
    const stringify = vi.spyOn(JSON, 'stringify');
    texts.written(a, undefined);
    texts.written(b, undefined);
    expect(stringify).not.toHaveBeenCalled();
    expect([texts.get(a), texts.get(a), texts.get(a)]).toEqual(new Array(3).fill('{"name":"o-0"}'));
    expect(stringify).toHaveBeenCalledTimes(1);
    expect([texts.get(b), texts.get(a)]).toEqual(['{"name":"o-1"}', '{"name":"o-0"}']);
    expect(stringify).toHaveBeenCalledTimes(3);
  });

  it('serialises the current objects once the store has been idle, a few per turn', async () => {
    const all = objects(5);
    for (const object of all) texts.written(object, undefined);
    await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
    expect(texts.made()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(texts.made()).toBe(PER_TURN);
    await vi.runAllTimersAsync();
    expect(texts.made()).toBe(5);
    const expected = all.map((object) => JSON.stringify(object));
    const stringify = vi.spyOn(JSON, 'stringify');
    expect(all.map((object) => texts.get(object))).toEqual(expected);
    expect(stringify).not.toHaveBeenCalled();
  });

  it('keeps a text asked for while idle, so the idle serialising does not make it again', async () => {
    const all = objects(5);
    for (const object of all) texts.written(object, undefined);
    const stringify = vi.spyOn(JSON, 'stringify');
    await vi.advanceTimersByTimeAsync(IDLE_MS);
    expect(texts.made()).toBe(PER_TURN);
    expect(texts.get(all[4] as { name: string })).toBe('{"name":"o-4"}');
    await vi.runAllTimersAsync();
    expect(texts.made()).toBe(5);
    expect(stringify).toHaveBeenCalledTimes(5);
  });

  it('waits while writes keep coming, and stops serialising at a write until idle again', async () => {
    const all = objects(6);
    for (const object of all.slice(0, 5)) {
      texts.written(object, undefined);
      await vi.advanceTimersByTimeAsync(IDLE_MS / 2);
    }
    expect(texts.made()).toBe(0);
    await vi.advanceTimersByTimeAsync(IDLE_MS / 2);
    expect(texts.made()).toBe(PER_TURN);
    texts.written(all[5] as { name: string }, undefined);
    await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
    expect(texts.made()).toBe(PER_TURN);
    await vi.runAllTimersAsync();
    expect(texts.made()).toBe(6);
  });

  it('keeps no text for a replaced or deleted object, and serialises it each time it is asked for', async () => {
    const [v1, v2, gone] = objects(3) as [{ name: string }, { name: string }, { name: string }];
    texts.written(v1, undefined);
    texts.written(gone, undefined);
    await vi.runAllTimersAsync();
    texts.written(v2, v1);
    texts.written(undefined, gone);
    await vi.runAllTimersAsync();
    expect(texts.made()).toBe(1);
    const stringify = vi.spyOn(JSON, 'stringify');
    expect([texts.get(v1), texts.get(gone), texts.get(v1)]).toEqual(['{"name":"o-0"}', '{"name":"o-2"}', '{"name":"o-0"}']);
    expect(stringify).toHaveBeenCalledTimes(3);
    expect(texts.made()).toBe(1);
  });

  it('keeps an idle object’s text as UTF-8 bytes, handed out as kept and decoded for a text', async () => {
    const [plain, accented] = [{ name: 'o-0' }, { name: 'zürich-名前' }];
    texts.written(plain, undefined);
    texts.written(accented, undefined);
    await vi.runAllTimersAsync();
    const stringify = vi.spyOn(JSON, 'stringify');
    const bytes = texts.bytes(accented);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(accented));
    stringify.mockClear();
    // The same buffer every time, and the same text as the bytes hold.
    expect(texts.bytes(accented)).toBe(bytes);
    expect(texts.get(accented)).toBe('{"name":"zürich-名前"}');
    expect(texts.bytes(plain).toString('utf8')).toBe('{"name":"o-0"}');
    expect(stringify).not.toHaveBeenCalled();
  });

  it('encodes the bytes of an object written since, without keeping them', async () => {
    const [v1, v2] = [{ name: 'v1' }, { name: 'v2' }];
    texts.written(v1, undefined);
    await vi.runAllTimersAsync();
    texts.written(v2, v1);
    expect(texts.bytes(v2).toString('utf8')).toBe('{"name":"v2"}');
    expect(texts.bytes(v2)).not.toBe(texts.bytes(v2));
    expect(texts.made()).toBe(0);
    await vi.runAllTimersAsync();
    expect(texts.made()).toBe(1);
    expect(texts.bytes(v2)).toBe(texts.bytes(v2));
  });

  it('stops serialising and keeps nothing once closed, mid-way through its idle turns', async () => {
    const all = objects(6);
    for (const object of all) texts.written(object, undefined);
    await vi.advanceTimersByTimeAsync(IDLE_MS);
    expect(texts.made()).toBe(PER_TURN);
    const stringify = vi.spyOn(JSON, 'stringify');
    texts.close();
    expect(vi.getTimerCount()).toBe(0);
    expect([texts.made(), texts.backlog()]).toEqual([0, 0]);
    // A write after closing schedules nothing; asked for, a text is still made (and not kept).
    texts.written({ name: 'late' }, all[0]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.runAllTimersAsync();
    expect(stringify).not.toHaveBeenCalled();
    expect([texts.get(all[5] as { name: string }), texts.get(all[5] as { name: string })]).toEqual(['{"name":"o-5"}', '{"name":"o-5"}']);
    // Made each time: not even the last one asked for is kept.
    expect(stringify).toHaveBeenCalledTimes(2);
    expect(texts.bytes(all[0] as { name: string }).toString('utf8')).toBe('{"name":"o-0"}');
    expect(texts.made()).toBe(0);
  });
});
