/**
 * The Controllers screen's state: the range, every reporting controller's summary over it, the
 * selected controller's Events (paged into a virtual table, filtered) and its inferred
 * reconciles. The engine pushes `events:changed` when anything it knows changed; while the
 * screen is open the store asks again, at most once per `REFRESH_MIN_MS`. Nothing polls.
 */
import { defineStore } from 'pinia';
import { onScopeDispose, ref } from 'vue';
import type { RequestOf } from '../../shared/contract.ts';
import type { EventType } from '../../shared/contracts/events.ts';
import { api } from '../api/index.ts';
import { createEventPages, type EventFilter } from '../components/events/event-pages.ts';
import { DEFAULT_SELECTION, resolveRange, type RangeSelection } from '../components/charts/time-range.ts';
import { createLatestQuery } from './history/latest-query.ts';
import { onLinkRestored } from './live.ts';

/** The least time between two refreshes the engine's pushes cause. */
export const REFRESH_MIN_MS = 2_000;
export const SPARKLINE_BUCKETS = 30;

export interface EventFilters {
  reason: string;
  type: '' | EventType;
  namespace: string;
  object: string;
}

export const NO_FILTERS: EventFilters = { reason: '', type: '', namespace: '', object: '' };

export const useControllersStore = defineStore('controllers', () => {
  const selection = ref<RangeSelection>(DEFAULT_SELECTION);
  const selected = ref<string | null>(null);
  const filters = ref<EventFilters>({ ...NO_FILTERS });
  const summaries = createLatestQuery((request: RequestOf<'events:controllers'>) => api().request('events:controllers', request));
  const reconciles = createLatestQuery((request: RequestOf<'events:reconciles'>) => api().request('events:reconciles', request));
  const events = createEventPages((query) => api().request('events:list', query));
  /** The engine's revision of what it knows, from `events:changed`. */
  const revision = ref(0);
  const context = ref<string | null>(null);

  let active = 0;
  /** Whether a push has told which context the engine shows (the first one only says so). */
  let heard = false;
  let lastRefresh = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function range(now = Date.now()): { from: number; to: number } {
    return resolveRange(selection.value, now);
  }

  function listFilter(): EventFilter | null {
    if (selected.value === null) return null;
    const { from, to } = range();
    const f = filters.value;
    const filter: EventFilter = { controller: selected.value, from };
    if (selection.value.choice === 'custom') filter.to = to;
    if (f.reason) filter.reason = f.reason;
    if (f.type) filter.type = f.type;
    if (f.namespace) filter.namespace = f.namespace;
    if (f.object.trim()) filter.object = f.object.trim();
    return filter;
  }

  async function loadSummaries(): Promise<void> {
    const { from, to } = range();
    await summaries.run({ from, to, buckets: SPARKLINE_BUCKETS });
    const names = summaries.data.value?.controllers.map((c) => c.name) ?? [];
    // Keep the choice while it still reports; else show the busiest controller.
    if (selected.value === null || !names.includes(selected.value)) {
      const next = names[0] ?? null;
      if (next !== selected.value) select(next);
    }
  }

  function loadReconciles(): Promise<void> {
    if (selected.value === null) {
      reconciles.reset();
      return Promise.resolve();
    }
    const { from, to } = range();
    return reconciles.run({ controller: selected.value, from, to, limit: 300 });
  }

  /** Everything, from scratch (opened, range changed). */
  async function load(): Promise<void> {
    lastRefresh = Date.now();
    await loadSummaries();
    await Promise.all([events.reset(listFilter()), loadReconciles()]);
  }

  /** What is on screen, again (the engine said something changed). */
  async function refresh(): Promise<void> {
    timer = null;
    lastRefresh = Date.now();
    await Promise.all([loadSummaries(), events.refresh(), loadReconciles()]);
  }

  function scheduleRefresh(): void {
    if (active === 0 || timer !== null) return;
    timer = setTimeout(() => void refresh(), Math.max(0, lastRefresh + REFRESH_MIN_MS - Date.now()));
  }

  function select(name: string | null): void {
    if (name === selected.value) return;
    selected.value = name;
    filters.value = { ...NO_FILTERS };
    void events.reset(listFilter());
    void loadReconciles();
  }

  function setFilters(patch: Partial<EventFilters>): void {
    filters.value = { ...filters.value, ...patch };
    void events.reset(listFilter());
  }

  function setSelection(next: RangeSelection): void {
    selection.value = next;
    if (active > 0) void load();
  }

  /** The screen is showing: load, and follow the engine's changes until the returned stop. */
  function activate(): () => void {
    active += 1;
    void load();
    return () => {
      active = Math.max(0, active - 1);
      if (active === 0 && timer !== null) {
        clearTimeout(timer);
        timer = null;
      }
    };
  }

  const unsubscribe = api().subscribe('events:changed', (payload) => {
    revision.value = payload.revision;
    const first = !heard;
    heard = true;
    if (first) context.value = payload.context;
    else if (payload.context !== context.value) {
      // Another cluster: its controllers are others.
      context.value = payload.context;
      selected.value = null;
      filters.value = { ...NO_FILTERS };
      if (active > 0) void load();
      return;
    }
    scheduleRefresh();
  });
  const stopLink = onLinkRestored(() => {
    if (active > 0) void load();
  });
  onScopeDispose(() => {
    unsubscribe();
    stopLink();
    if (timer !== null) clearTimeout(timer);
  });

  return { selection, selected, filters, summaries, reconciles, events, revision, context, range, load, refresh, select, setFilters, setSelection, activate };
});
