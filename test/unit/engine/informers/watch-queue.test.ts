import { describe, expect, it } from 'vitest';
import { WatchQueue } from '../../../../electron/engine/cluster/informers/watch-queue.ts';

const change = (type: string, uid: string, rv: number): string => `{"type":"${type}","object":{"kind":"Pod","metadata":{"uid":"${uid}","resourceVersion":"${rv}"},"spec":{}}}`;
const bookmark = (rv: number): string => `{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"${rv}"}}}`;
const error = '{"type":"ERROR","object":{"kind":"Status","code":410}}';

describe('the watch reader queue', () => {
  it('keeps one line per object, the newest, in the place of its first', () => {
    const queue = new WatchQueue(() => 0);
    queue.push(change('ADDED', 'a', 1));
    queue.push(change('MODIFIED', 'b', 2));
    queue.push(change('MODIFIED', 'a', 3));
    queue.push(change('DELETED', 'b', 4));
    expect(queue.size).toBe(2);
    expect(queue.counts).toEqual({ lines: 4, coalesced: 2 });
    expect(queue.take(10).lines).toEqual([change('MODIFIED', 'a', 3), change('DELETED', 'b', 4)]);
    expect(queue.size).toBe(0);
    expect(queue.waitingChars).toBe(0);
  });

  it('keeps every change, in order, while the engine keeps up (no coalescing asked): each state reaches it', () => {
    const queue = new WatchQueue(() => 0);
    // A spec change and the controller's status write, read in one chunk.
    queue.push(change('MODIFIED', 'a', 1), false);
    queue.push(change('MODIFIED', 'a', 2), false);
    queue.push(change('MODIFIED', 'b', 3), false);
    expect(queue.counts).toEqual({ lines: 3, coalesced: 0 });
    // The engine falls behind: a later change replaces a's newest waiting line, not its first.
    queue.push(change('MODIFIED', 'a', 4));
    expect(queue.take(10).lines).toEqual([change('MODIFIED', 'a', 1), change('MODIFIED', 'a', 4), change('MODIFIED', 'b', 3)]);
  });

  it('resumes from before the first line still waiting: a coalesced line carries a later version into an earlier place', () => {
    const queue = new WatchQueue(() => 0);
    queue.push(change('MODIFIED', 'a', 100));
    queue.push(change('MODIFIED', 'b', 200));
    queue.push(change('MODIFIED', 'a', 300));
    const first = queue.take(1);
    expect(first.lines).toEqual([change('MODIFIED', 'a', 300)]);
    // b (200) still waits: a watch resumed now must send it again, so not from 300.
    expect(first.resumeFrom).toBe('100');
    const rest = queue.take(1);
    expect(rest.lines).toEqual([change('MODIFIED', 'b', 200)]);
    expect(rest.resumeFrom).toBe('300');
  });

  it('never moves a change before an ERROR or an unreadable line', () => {
    const queue = new WatchQueue(() => 0);
    queue.push(change('MODIFIED', 'a', 1));
    queue.push(error);
    queue.push(change('MODIFIED', 'a', 2));
    queue.push('not json');
    queue.push(change('MODIFIED', 'a', 3));
    queue.push(change('MODIFIED', 'a', 4));
    expect(queue.take(10).lines).toEqual([change('MODIFIED', 'a', 1), error, change('MODIFIED', 'a', 2), 'not json', change('MODIFIED', 'a', 4)]);
  });

  it('hands a bookmark on when nothing waits, else keeps only its version', () => {
    const queue = new WatchQueue(() => 0);
    queue.push(bookmark(5));
    expect(queue.take(10)).toEqual({ lines: [bookmark(5)], resumeFrom: '5', oldestReadAt: 0 });
    queue.push(change('MODIFIED', 'a', 6));
    queue.push(bookmark(9));
    queue.push(change('MODIFIED', 'a', 10));
    const batch = queue.take(10);
    expect(batch.lines).toEqual([change('MODIFIED', 'a', 10)]);
    expect(batch.resumeFrom).toBe('10');
    queue.push(change('MODIFIED', 'b', 11));
    queue.push(bookmark(12));
    expect(queue.take(10).resumeFrom).toBe('12');
  });

  it('takes batches by lines and characters, oldest first, dated by their first read', () => {
    let now = 0;
    const queue = new WatchQueue(() => now);
    for (let i = 0; i < 5; i += 1) {
      now = i * 10;
      queue.push(change('MODIFIED', `p${i}`, i + 1));
    }
    const line = change('MODIFIED', 'p0', 1).length;
    expect(queue.take(2)).toMatchObject({ lines: [change('MODIFIED', 'p0', 1), change('MODIFIED', 'p1', 2)], oldestReadAt: 0, resumeFrom: '2' });
    // At least one line, then whole lines until about maxChars.
    expect(queue.take(10, 1).lines).toHaveLength(1);
    expect(queue.take(10, line + 1)).toMatchObject({ lines: [change('MODIFIED', 'p3', 4), change('MODIFIED', 'p4', 5)], oldestReadAt: 30 });
    queue.push(change('MODIFIED', 'p9', 9));
    queue.clear();
    expect(queue.size).toBe(0);
    expect(queue.take(10).lines).toEqual([]);
  });
});
