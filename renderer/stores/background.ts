/**
 * Background recording: which contexts record all the time (the `backgroundContexts` setting)
 * and how each recorder is doing (`history:background`, request then stream).
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { BackgroundStatus } from '../../shared/contracts/background.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { follow } from './live.ts';
import { useSettingsStore } from './settings.ts';

export const useBackgroundStore = defineStore('background', () => {
  const status = shallowRef<BackgroundStatus>({ contexts: [] });
  const loadError = shallowRef<KdError | null>(null);
  const settings = useSettingsStore();

  follow<BackgroundStatus>({
    load: () => api().request('history:background', {}),
    subscribe: (listener) => api().subscribe('history:background', listener),
    apply: (value) => {
      status.value = value;
    },
    setError: (error) => {
      loadError.value = error;
    },
  });

  /** The contexts chosen for background recording. */
  function chosen(): readonly string[] {
    return settings.settings?.backgroundContexts ?? [];
  }

  /** Adds or removes a context; resolves to the engine's refusal, or null once saved. */
  async function setRecorded(context: string, on: boolean): Promise<KdError | null> {
    const current = chosen();
    const next = on ? [...new Set([...current, context])] : current.filter((name) => name !== context);
    const result = await api().request('settings:update', { backgroundContexts: next });
    if (!result.ok) return result.error;
    // The store follows `settings:changed`; the answer is the same settings, applied at once.
    settings.settings = result.value;
    return null;
  }

  return { status, loadError, chosen, setRecorded };
});
