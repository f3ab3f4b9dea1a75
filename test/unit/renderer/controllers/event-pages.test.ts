import { describe, expect, it } from 'vitest';
import type { EventList, EventListQuery } from '../../../../shared/contracts/events.ts';
import { ok, err, type Result } from '../../../../shared/result.ts';
import { createEventPages } from '../../../../renderer/components/events/event-pages.ts';
import { eventRow, listOf } from './fixtures.ts';

const many = (n: number, prefix = 'e') => Array.from({ length: n }, (_, i) => eventRow(`${prefix}${i}`));

function engine(initial = many(250)) {
  let all = initial;
  const asked: EventListQuery[] = [];
  const pending: Array<() => void> = [];
  let hold = false;
  const send = (query: EventListQuery): Promise<Result<EventList>> => {
    asked.push(query);
    const answer = () => ok(listOf(all, query));
    if (!hold) return Promise.resolve(answer());
    return new Promise((resolve) => pending.push(() => resolve(answer())));
  };
  return {
    send,
    asked,
    set: (next: ReturnType<typeof many>) => (all = next),
    holdAnswers: () => (hold = true),
    release: () => {
      hold = false;
      for (const fn of pending.splice(0)) fn();
    },
  };
}

const ids = (rows: unknown[]) => rows.map((r) => (typeof r === 'number' ? r : (r as { id: string }).id));

describe('event pages', () => {
  it('has a slot per match and loads only the pages the table shows', async () => {
    const e = engine();
    const pages = createEventPages(e.send, 100);
    await pages.reset({ controller: 'kubelet' });
    expect(pages.total.value).toBe(250);
    expect(pages.rows.value).toHaveLength(250);
    expect(ids(pages.rows.value.slice(98, 102))).toEqual(['e98', 'e99', 100, 101]);
    await pages.ensure(180, 215);
    expect(e.asked.map((q) => q.offset)).toEqual([0, 100, 200]);
    expect(ids(pages.rows.value.slice(199, 201))).toEqual(['e199', 'e200']);
    // Already loaded: not asked again.
    await pages.ensure(150, 160);
    expect(e.asked).toHaveLength(3);
  });

  it('refreshes the pages in view as new Events push the others down, and drops the rest', async () => {
    const e = engine();
    const pages = createEventPages(e.send, 100);
    await pages.reset({ controller: 'kubelet' });
    await pages.ensure(100, 130);
    e.set([...many(3, 'new'), ...many(250)]);
    await pages.refresh();
    expect(pages.total.value).toBe(253);
    expect(ids(pages.rows.value.slice(100, 104))).toEqual(['e97', 'e98', 'e99', 'e100']);
    // The first page was out of view: dropped, asked again when scrolled back to.
    expect(pages.rows.value[0]).toBe(0);
    await pages.ensure(0, 10);
    expect(ids(pages.rows.value.slice(0, 4))).toEqual(['new0', 'new1', 'new2', 'e0']);
  });

  it('drops the answer to a filter no longer asked for', async () => {
    const e = engine();
    const pages = createEventPages(e.send, 100);
    e.holdAnswers();
    const first = pages.reset({ controller: 'kubelet', reason: 'Nope' });
    const second = pages.reset({ controller: 'kubelet' });
    e.release();
    await Promise.all([first, second]);
    expect(pages.total.value).toBe(250);
  });

  it('reports a failed page without losing what it shows', async () => {
    let fail = false;
    const pages = createEventPages((query) => Promise.resolve(fail ? err('unavailable', 'engine restarting') : ok(listOf(many(10), query))), 100);
    await pages.reset({ controller: 'kubelet' });
    fail = true;
    await pages.refresh();
    expect(pages.error.value).toEqual({ code: 'unavailable', message: 'engine restarting' });
    expect(pages.rows.value).toHaveLength(10);
  });
});
