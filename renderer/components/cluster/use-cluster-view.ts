/** The state a cluster table screen is in (see view-state.ts), live from the stores. */
import { storeToRefs } from 'pinia';
import { computed, type ComputedRef } from 'vue';
import { useClusterStore } from '../../stores/cluster.ts';
import { useConnectionStore } from '../../stores/connection.ts';
import { clusterViewState, type ClusterViewState } from './view-state.ts';

export function useClusterViewState(): ComputedRef<ClusterViewState> {
  const { synced, objectCount, resyncError } = storeToRefs(useClusterStore());
  const { state } = storeToRefs(useConnectionStore());
  return computed(() => clusterViewState({ synced: synced.value, objectCount: objectCount.value, connection: state.value, resyncError: resyncError.value }));
}
