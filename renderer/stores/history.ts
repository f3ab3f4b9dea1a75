/**
 * Recorded history of the selected context: the recorder's status (live from `history:status`)
 * and the queries the history views make — one workload's series, the episode swimlane, one
 * episode's Events, a comparison of two moments. Each query keeps its last answer while a newer
 * one loads and drops answers to questions no longer asked (see history/latest-query.ts).
 */
import { defineStore } from 'pinia';
import { computed, shallowRef, watch } from 'vue';
import type { RequestOf } from '../../shared/contract.ts';
import type { HistoryStatus } from '../../shared/contracts/history.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { createLatestQuery } from './history/latest-query.ts';
import { describeRecording } from './history/recording.ts';
import { follow } from './live.ts';

export type SeriesRequest = RequestOf<'history:series'>;
export type EpisodesRequest = RequestOf<'history:episodes'>;
export type CompareRequest = RequestOf<'history:compare'>;

export const useHistoryStore = defineStore('history', () => {
  const status = shallowRef<HistoryStatus | null>(null);
  const statusError = shallowRef<KdError | null>(null);

  const follower = follow<HistoryStatus>({
    load: () => api().request('history:status', {}),
    subscribe: (listener) => api().subscribe('history:status', listener),
    apply: (value) => {
      status.value = value;
    },
    setError: (error) => {
      statusError.value = error;
    },
  });

  const recording = computed(() => describeRecording(status.value, statusError.value));

  const series = createLatestQuery((request: SeriesRequest) => api().request('history:series', request));
  const episodes = createLatestQuery((request: EpisodesRequest) => api().request('history:episodes', request));
  const episode = createLatestQuery((request: { id: number }) => api().request('history:episode', request));
  const comparison = createLatestQuery((request: CompareRequest) => api().request('history:compare', request));

  // Another context has another history: what was loaded for the previous one must not show.
  watch(
    () => status.value?.context,
    (next, previous) => {
      if (previous === undefined || next === previous) return;
      for (const query of [series, episodes, episode, comparison]) query.reset();
    },
  );

  /** What each history screen last showed (its range, its filters), so coming back restores it. */
  const remembered = new Map<string, unknown>();
  function remember(screen: string, state: unknown): void {
    remembered.set(screen, state);
  }
  function recall<T>(screen: string): T | undefined {
    return remembered.get(screen) as T | undefined;
  }

  return { status, statusError, recording, refreshStatus: follower.refresh, series, episodes, episode, comparison, remember, recall };
});
