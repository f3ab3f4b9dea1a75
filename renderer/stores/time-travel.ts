/**
 * Time travel: when the user picks a past time T on the timeline, the views that can show the
 * past (Overview, Graph) read the cluster's objects at T from here instead of the live store,
 * and show "viewing <T> — back to live". `at === null` means live.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { SlimObject } from '../../shared/cluster.ts';

export const useTimeTravelStore = defineStore('time-travel', () => {
  /** The past moment on view (ms since the epoch), or null for live. */
  const at = ref<number | null>(null);
  /** The cluster's objects at `at`, once loaded (null while live or loading). */
  const objects = shallowRef<readonly SlimObject[] | null>(null);
  const loading = ref(false);
  const error = ref<string | null>(null);

  /** Back to the live cluster. */
  function live(): void {
    at.value = null;
    objects.value = null;
    loading.value = false;
    error.value = null;
  }

  return { at, objects, loading, error, live };
});
