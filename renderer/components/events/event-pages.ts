/**
 * A long list of Events the engine serves a page at a time, shown in a virtualised table as if
 * it were whole: `rows` has one slot per match (`total`), holding the Event once its page is
 * loaded and the slot's index until then (the table renders a placeholder). The table says which
 * rows are in view (`ensure`), and only those pages are asked for; a refresh re-asks the pages
 * held, so rows stay right as new Events push older ones down. Answers to an older question
 * (the filters changed meanwhile) are dropped.
 */
import { ref, shallowRef, type Ref, type ShallowRef } from 'vue';
import type { EventList, EventListQuery, EventRow } from '../../../shared/contracts/events.ts';
import type { KdError, Result } from '../../../shared/result.ts';

/** An Event, or the index of one not loaded yet. */
export type EventSlot = EventRow | number;

export type EventFilter = Omit<EventListQuery, 'offset' | 'limit'>;

export const PAGE_SIZE = 100;
/** Pages kept around the view; farther ones are dropped and asked again if scrolled back to. */
const MAX_PAGES = 6;

export interface EventPages {
  rows: ShallowRef<EventSlot[]>;
  total: Ref<number>;
  facets: ShallowRef<EventList['facets'] | null>;
  /** True until the first page of the current filter has come back. */
  loading: Ref<boolean>;
  error: ShallowRef<KdError | null>;
  /** Starts over with another filter (first page loaded at once). */
  reset(filter: EventFilter | null): Promise<void>;
  /** Makes sure the rows first..last (inclusive) are loaded or on their way. */
  ensure(first: number, last: number): Promise<void>;
  /** Asks again for the pages in view (new Events arrived); the others are dropped. */
  refresh(): Promise<void>;
}

export function createEventPages(send: (query: EventListQuery) => Promise<Result<EventList>>, pageSize = PAGE_SIZE): EventPages {
  const rows = shallowRef<EventSlot[]>([]);
  const total = ref(0);
  const facets = shallowRef<EventList['facets'] | null>(null);
  const loading = ref(false);
  const error = shallowRef<KdError | null>(null);
  let filter: EventFilter | null = null;
  let generation = 0;
  let pages = new Map<number, EventRow[]>();
  const inFlight = new Set<number>();
  /** The rows in view (from the last `ensure`): what a refresh asks again for. */
  let view = { first: 0, last: pageSize - 1 };
  const pagesOf = (first: number, last: number): number[] => {
    const out: number[] = [];
    for (let page = Math.floor(first / pageSize); page <= Math.floor(Math.max(first, last) / pageSize); page += 1) out.push(page);
    return out;
  };

  function rebuild(): void {
    const out: EventSlot[] = new Array<EventSlot>(total.value);
    for (let i = 0; i < total.value; i += 1) out[i] = pages.get(Math.floor(i / pageSize))?.[i % pageSize] ?? i;
    rows.value = out;
  }

  function trim(): void {
    if (pages.size <= MAX_PAGES) return;
    const focus = Math.floor(view.first / pageSize);
    const keep = [...pages.keys()].sort((a, b) => Math.abs(a - focus) - Math.abs(b - focus)).slice(0, MAX_PAGES);
    pages = new Map(keep.map((page) => [page, pages.get(page) as EventRow[]]));
  }

  async function load(page: number, mine: number): Promise<void> {
    if (!filter) return;
    inFlight.add(page);
    let result: Result<EventList>;
    try {
      result = await send({ ...filter, offset: page * pageSize, limit: pageSize });
    } catch (thrown) {
      result = { ok: false, error: { code: 'internal', message: (thrown as Error).message ?? String(thrown) } };
    }
    if (mine !== generation) return;
    inFlight.delete(page);
    loading.value = false;
    if (!result.ok) {
      error.value = result.error;
      return;
    }
    error.value = null;
    facets.value = result.value.facets;
    if (result.value.total !== total.value) {
      // The list grew or shrank: other pages' offsets moved, so only this page is still right.
      pages = new Map();
      total.value = result.value.total;
    }
    pages.set(page, result.value.events);
    trim();
    rebuild();
  }

  return {
    rows,
    total,
    facets,
    loading,
    error,
    async reset(next) {
      generation += 1;
      filter = next;
      pages = new Map();
      inFlight.clear();
      view = { first: 0, last: pageSize - 1 };
      total.value = 0;
      rows.value = [];
      facets.value = null;
      error.value = null;
      loading.value = next !== null;
      if (next) await load(0, generation);
    },
    async ensure(first, last) {
      view = { first: Math.max(0, first), last: Math.max(first, last) };
      const wanted = pagesOf(view.first, view.last).filter((page) => page * pageSize < total.value && !pages.has(page) && !inFlight.has(page));
      await Promise.all(wanted.map((page) => load(page, generation)));
    },
    async refresh() {
      if (!filter) return;
      const mine = generation;
      const visible = pagesOf(view.first, view.last).filter((page) => page === 0 || page * pageSize < total.value);
      await Promise.all(visible.map((page) => load(page, mine)));
      if (mine !== generation) return;
      // Pages out of view may have shifted under the new Events: ask again when scrolled to.
      const keep = new Set(visible);
      for (const page of [...pages.keys()]) if (!keep.has(page)) pages.delete(page);
      rebuild();
    },
  };
}
