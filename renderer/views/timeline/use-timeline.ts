/**
 * The drift timeline's state: range and filters (sent to the engine), the lanes built from the
 * answer, the window the user zoomed to, the time-travel cursor and the moment pinned for a
 * comparison. Reloads when the range or a filter changes, and as the recorder writes while the
 * range ends now.
 */
import { computed, ref, shallowRef, watch } from 'vue';
import type { HistoryKind } from '../../../shared/contracts/history.ts';
import { useLiveRefresh } from '../../components/charts/live-refresh.ts';
import { resolveRange, selectionFromParams, type RangeSelection, type TimeRange } from '../../components/charts/time-range.ts';
import { useHistoryStore, type EpisodesRequest } from '../../stores/history.ts';
import { useNavigationStore } from '../../stores/navigation.ts';
import { buildLanes, filterLanes } from './swimlane.ts';

/** The most episodes one answer carries (the contract's cap); beyond it the list says it is cut. */
export const EPISODE_LIMIT = 20_000;

export type KindChoice = 'all' | HistoryKind;

export const MIN_DURATIONS = [
  { ms: 0, label: 'any' },
  { ms: 10_000, label: '10 s+' },
  { ms: 60_000, label: '1 m+' },
  { ms: 5 * 60_000, label: '5 m+' },
  { ms: 15 * 60_000, label: '15 m+' },
  { ms: 60 * 60_000, label: '1 h+' },
] as const;

export interface TimelineFilters {
  namespace: string;
  kind: KindChoice;
  ongoingOnly: boolean;
  minDurationMs: number;
}

/** The `history:episodes` request for a range and filters (unset filters are left out). */
export function episodesRequest(range: TimeRange, filters: TimelineFilters): EpisodesRequest {
  return {
    from: range.from,
    to: range.to,
    limit: EPISODE_LIMIT,
    ...(filters.namespace ? { namespace: filters.namespace } : {}),
    ...(filters.kind !== 'all' ? { kind: filters.kind } : {}),
    ...(filters.ongoingOnly ? { ongoingOnly: true } : {}),
    ...(filters.minDurationMs > 0 ? { minDurationMs: filters.minDurationMs } : {}),
  };
}

export function useTimeline() {
  const history = useHistoryStore();
  const navigation = useNavigationStore();

  const selection = ref<RangeSelection>(selectionFromParams(navigation.params, Date.now()));
  const filters = ref<TimelineFilters>({ namespace: navigation.params['namespace'] ?? '', kind: 'all', ongoingOnly: false, minDurationMs: 0 });
  const search = ref('');
  const range = shallowRef<TimeRange>(resolveRange(selection.value, Date.now()));
  /** What the chart and the swimlane show: the range, or the part of it the user zoomed to. */
  const view = shallowRef<TimeRange>(range.value);
  const cursor = ref<number | null>(null);
  const pinned = ref<number | null>(null);

  function reload(): void {
    const next = resolveRange(selection.value, Date.now());
    const followsNow = view.value.to >= range.value.to - 1_000 && view.value.from <= range.value.from + 1_000;
    range.value = next;
    if (followsNow) view.value = next;
    void history.episodes.run(episodesRequest(next, filters.value));
  }
  watch([selection, filters], () => {
    view.value = resolveRange(selection.value, Date.now());
    reload();
  }, { deep: true, immediate: true });
  useLiveRefresh(() => selection.value, reload);

  const data = computed(() => history.episodes.data);
  const now = computed(() => data.value?.to ?? range.value.to);
  const lanes = computed(() => (data.value ? buildLanes(data.value.episodes, now.value) : []));
  const shown = computed(() => filterLanes(lanes.value, search.value));
  const ongoing = computed(() => lanes.value.filter((lane) => lane.ongoing).length);

  function zoomTo(window: TimeRange): void {
    view.value = { from: Math.max(window.from, range.value.from), to: Math.min(window.to, range.value.to) };
  }

  return { selection, filters, search, range, view, cursor, pinned, data, now, lanes, shown, ongoing, reload, zoomTo };
}
