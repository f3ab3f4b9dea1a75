/**
 * The kubeconfig contexts, which one is selected and how each kubeconfig file loaded. Fed by
 * `contexts:list` once and `contexts:changed` after that; `select` is the only way to change it.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { ContextInfo, ContextList, KubeconfigSource } from '../../shared/model.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { follow } from './live.ts';

/** A failed selection, kept with the context it was for so the UI can show it next to it. */
export interface SelectFailure {
  name: string;
  error: KdError;
}

/** Contexts, selection and kubeconfig sources, live from the engine; `select(name)` switches. */
export const useContextsStore = defineStore('contexts', () => {
  const contexts = shallowRef<ContextInfo[]>([]);
  const selected = ref<string | null>(null);
  const kubeconfigCurrent = ref<string | null>(null);
  const sources = shallowRef<KubeconfigSource[]>([]);
  /** False until the first list arrived; views show a placeholder rather than "no contexts". */
  const loaded = ref(false);
  const loadError = shallowRef<KdError | null>(null);
  /** The context a `select` is waiting on, if any. */
  const selecting = ref<string | null>(null);
  const selectError = shallowRef<SelectFailure | null>(null);

  const selectedContext = computed(() => contexts.value.find((context) => context.name === selected.value) ?? null);

  function apply(list: ContextList): void {
    contexts.value = list.contexts;
    selected.value = list.selected;
    kubeconfigCurrent.value = list.kubeconfigCurrent;
    sources.value = list.sources;
    loaded.value = true;
  }

  const follower = follow<ContextList>({
    load: () => api().request('contexts:list', {}),
    subscribe: (listener) => api().subscribe('contexts:changed', listener),
    apply,
    setError: (error) => {
      loadError.value = error;
    },
  });

  /**
   * Asks the engine to switch to `name`. Resolves true when it did; on failure the error is
   * kept in `selectError` (never thrown) so the picker or table can show it where the user looks.
   */
  async function select(name: string): Promise<boolean> {
    selecting.value = name;
    selectError.value = null;
    const result = await api().request('contexts:select', { name });
    if (selecting.value === name) selecting.value = null;
    if (!result.ok) {
      selectError.value = { name, error: result.error };
      return false;
    }
    apply(result.value);
    return true;
  }

  function clearSelectError(): void {
    selectError.value = null;
  }

  return {
    contexts,
    selected,
    kubeconfigCurrent,
    sources,
    loaded,
    loadError,
    selecting,
    selectError,
    selectedContext,
    select,
    clearSelectError,
    refresh: follower.refresh,
  };
});
