/** The selected context's API server connection, from `connection:status` + `connection:changed`. */
import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { ConnectionStatus } from '../../shared/model.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { follow } from './live.ts';

/** One line a person can read: "Connected · v1.32.0 · https://…", "Connecting…", or the error. */
export function describeConnection(status: ConnectionStatus | null): string {
  if (!status) return 'Waiting for the engine…';
  switch (status.state) {
    case 'idle':
      return 'No context selected';
    case 'connecting':
      return status.server ? `Connecting… · ${status.server}` : 'Connecting…';
    case 'connected':
      return ['Connected', status.serverVersion, status.server].filter(Boolean).join(' · ');
    case 'error':
      return status.message ?? 'The connection failed for an unknown reason';
  }
}

/** The selected context's connection status, live from `connection:changed`. */
export const useConnectionStore = defineStore('connection', () => {
  const status = shallowRef<ConnectionStatus | null>(null);
  const loadError = shallowRef<KdError | null>(null);

  const state = computed(() => status.value?.state ?? 'idle');
  const summary = computed(() => describeConnection(status.value));

  follow<ConnectionStatus>({
    load: () => api().request('connection:status', {}),
    subscribe: (listener) => api().subscribe('connection:changed', listener),
    apply: (value) => {
      status.value = value;
    },
    setError: (error) => {
      loadError.value = error;
    },
  });

  return { status, loadError, state, summary };
});
