/**
 * The reconcile surprises the engine detected in the selected context (`surprises:recent`, then
 * every `surprises:changed` push), newest first: a deleted pod recreated, two managers fighting
 * over a field, an update without a rollout, a stalled rollout. The Controllers screen lists them
 * all; the workload screen and Diff show those of one workload.
 */
import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { RecentSurprises, Surprise, SurpriseType } from '../../shared/contracts/surprises.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { follow } from './live.ts';

/** Each surprise type's heading, as a user reads it. */
export const SURPRISE_TITLES: Readonly<Record<SurpriseType, string>> = {
  recreated: 'Recreated',
  fight: 'Two controllers fight',
  'no-rollout': 'Updated, no rollout',
  stalled: 'Rollout stalled',
};

export const useSurprisesStore = defineStore('surprises', () => {
  const recent = shallowRef<RecentSurprises | null>(null);
  const error = shallowRef<KdError | null>(null);

  follow<RecentSurprises>({
    load: () => api().request('surprises:recent', {}),
    subscribe: (listener) => api().subscribe('surprises:changed', listener),
    apply: (value) => {
      recent.value = value;
    },
    setError: (next) => {
      error.value = next;
    },
  });

  const all = computed<Surprise[]>(() => recent.value?.surprises ?? []);

  /** The surprises shown on one workload (by uid), newest first. */
  function ofWorkload(uid: string): Surprise[] {
    return all.value.filter((s) => s.workload.uid === uid || s.object.uid === uid);
  }

  /** The fights going on over objects in a namespace (Diff shows them beside the diffed object). */
  function fightsOf(namespace: string | undefined, name: string, objectKind: string): Surprise[] {
    return all.value.filter((s) => s.type === 'fight' && s.object.namespace === namespace && s.object.name === name && s.object.objectKind === objectKind);
  }

  return { recent, error, all, ofWorkload, fightsOf };
});
