/**
 * What discovery found in the selected context (every kind the cluster serves and how Kubedrift
 * watches it), kept live from `cluster:discovery` for the Cluster screen.
 */
import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { ClusterDiscovery, KindEntry } from '../../shared/discovery.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { follow } from './live.ts';

/** Kinds in the order the Cluster screen lists them: by API group (core first), then plural. */
function byGroupThenPlural(a: KindEntry, b: KindEntry): number {
  return a.ref.group.localeCompare(b.ref.group) || a.ref.plural.localeCompare(b.ref.plural);
}

export const useDiscoveryStore = defineStore('discovery', () => {
  const discovery = shallowRef<ClusterDiscovery | null>(null);
  const error = shallowRef<KdError | null>(null);

  follow<ClusterDiscovery>({
    load: () => api().request('cluster:discovery', {}),
    subscribe: (listener) => api().subscribe('cluster:discovery', listener),
    apply: (value) => {
      discovery.value = value;
    },
    setError: (next) => {
      error.value = next;
    },
  });

  const kinds = computed(() => [...(discovery.value?.state?.kinds ?? [])].sort(byGroupThenPlural));

  return { discovery, error, kinds };
});
