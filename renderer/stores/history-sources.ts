/**
 * History sources: the headless recorders whose history the engine merges into the timeline
 * (`history:sources`, request then stream), and adding or removing one. The token goes to the
 * engine with the add request and never comes back.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { HistorySourceAdd, HistorySourceList } from '../../shared/contracts/history-sources.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { follow } from './live.ts';

export const useHistorySourcesStore = defineStore('history-sources', () => {
  const list = shallowRef<HistorySourceList>({ sources: [] });
  const loadError = shallowRef<KdError | null>(null);

  follow<HistorySourceList>({
    load: () => api().request('history:sources', {}),
    subscribe: (listener) => api().subscribe('history:sources', listener),
    apply: (value) => {
      list.value = value;
    },
    setError: (error) => {
      loadError.value = error;
    },
  });

  /** Adds a source (the engine checks it at once); resolves to the engine's refusal, or null. */
  async function add(request: HistorySourceAdd): Promise<KdError | null> {
    const result = await api().request('history:source-add', request);
    if (!result.ok) return result.error;
    list.value = result.value;
    return null;
  }

  async function remove(id: string): Promise<KdError | null> {
    const result = await api().request('history:source-remove', { id });
    if (!result.ok) return result.error;
    list.value = result.value;
    return null;
  }

  return { list, loadError, add, remove };
});
