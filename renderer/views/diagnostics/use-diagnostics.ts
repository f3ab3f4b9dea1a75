/**
 * The Diagnostics screen's data, asked of the engine when the screen opens and again whenever
 * the kubeconfig files change (`contexts:changed`) or the engine link comes back: no polling.
 * Lives in the screen's own scope because nothing else needs it.
 */
import { onScopeDispose, ref, shallowRef } from 'vue';
import type { Diagnostics } from '../../../shared/diagnostics.ts';
import type { KdError } from '../../../shared/result.ts';
import { api } from '../../api/index.ts';
import { onLinkRestored } from '../../stores/live.ts';

/** Diagnostics from the engine; `refresh()` re-asks (after installing a plugin, say). */
export function useDiagnostics() {
  const diagnostics = shallowRef<Diagnostics | null>(null);
  const error = shallowRef<KdError | null>(null);
  const loading = ref(false);
  // Answers can overtake each other; only the latest request's answer is shown.
  let latest = 0;

  async function refresh(): Promise<void> {
    const request = ++latest;
    loading.value = true;
    const result = await api().request('diagnostics:get', {});
    if (request !== latest) return;
    loading.value = false;
    if (result.ok) {
      diagnostics.value = result.value;
      error.value = null;
    } else {
      error.value = result.error;
    }
  }

  const unsubscribe = api().subscribe('contexts:changed', () => void refresh());
  // A dropped link fails the answer in flight; ask again once it is back.
  const stopWatch = onLinkRestored(() => void refresh());
  onScopeDispose(() => {
    unsubscribe();
    stopWatch();
  });
  void refresh();

  return { diagnostics, error, loading, refresh };
}

/**
 * PATH entries in order. The value is joined with the engine platform's delimiter: `;` when it
 * starts with a Windows drive (`C:\`), `:` otherwise.
 */
export function pathEntries(value: string): string[] {
  const delimiter = /^[A-Za-z]:[\\/]/.test(value) ? ';' : ':';
  return value.split(delimiter).filter((entry) => entry !== '');
}
