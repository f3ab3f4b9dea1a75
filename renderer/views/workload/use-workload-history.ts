/**
 * The workload screen's state: which workload and window the navigation asks for
 * (`uid`, `from`/`to`, `range`, `at`), its recorded series for that window, and the episode
 * picked in the list with its Events. Reloads when the workload or the range changes, and as
 * the recorder writes while the range ends now.
 */
import { BUILTIN_KEYS, BUILTIN_RESOLVER } from '../../../shared/builtin-kinds.ts';
import { computed, ref, shallowRef, watch } from 'vue';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { WorkloadRef } from '../../../shared/contracts/history.ts';
import { useLiveRefresh } from '../../components/charts/live-refresh.ts';
import { resolveRange, selectionFromParams, type RangeSelection, type TimeRange } from '../../components/charts/time-range.ts';
import { useClusterStore } from '../../stores/cluster.ts';
import { useHistoryStore } from '../../stores/history.ts';
import { useNavigationStore } from '../../stores/navigation.ts';

/** Points per series: about one per pixel of a wide chart; the engine downsamples (LTTB) to it. */
export const MAX_POINTS = 2_000;

const LIVE_KINDS: readonly KindKey[] = [BUILTIN_KEYS.Deployment, BUILTIN_KEYS.StatefulSet, BUILTIN_KEYS.DaemonSet, BUILTIN_KEYS.ReplicaSet, BUILTIN_KEYS.Job, BUILTIN_KEYS.HorizontalPodAutoscaler];

export function useWorkloadHistory() {
  const navigation = useNavigationStore();
  const history = useHistoryStore();
  const cluster = useClusterStore();

  const uid = computed(() => navigation.params['uid'] ?? '');
  const marker = computed(() => {
    const at = Number(navigation.params['at']);
    return navigation.params['at'] && Number.isFinite(at) ? at : null;
  });
  const selection = ref<RangeSelection>(selectionFromParams(navigation.params, Date.now()));
  const range = shallowRef<TimeRange>(resolveRange(selection.value, Date.now()));
  const selectedEpisode = ref<number | null>(null);

  // A new navigation (another workload, another moment) starts from its own parameters.
  watch(
    () => JSON.stringify(navigation.params),
    () => {
      selection.value = selectionFromParams(navigation.params, Date.now());
      selectedEpisode.value = null;
    },
  );

  function reload(): void {
    range.value = resolveRange(selection.value, Date.now());
    if (!uid.value) return;
    void history.series.run({ uid: uid.value, from: range.value.from, to: range.value.to, maxPoints: MAX_POINTS });
  }
  watch([uid, selection], reload, { immediate: true });
  useLiveRefresh(() => selection.value, reload);

  /** The answer for this workload (the store may still hold another one's). */
  const result = computed(() => (history.series.request?.uid === uid.value ? history.series.data : null));
  const loading = computed(() => history.series.loading);
  const error = computed(() => history.series.error);

  /** The workload in the live cluster, if it still exists. */
  const live = computed<SlimObject | null>(() => {
    const kinds = result.value ? [result.value.workload.kind] : LIVE_KINDS;
    for (const kind of kinds) {
      const object = cluster.objects(kind).get(uid.value);
      if (object) return object;
    }
    return null;
  });

  const workload = computed<WorkloadRef | null>(() => {
    if (result.value) return result.value.workload;
    const object = live.value;
    if (!object) return null;
    return { kind: BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind) as WorkloadRef['kind'], namespace: object.metadata.namespace ?? '', name: object.metadata.name, uid: object.metadata.uid };
  });

  function selectEpisode(id: number | null): void {
    selectedEpisode.value = id;
    if (id !== null) void history.episode.run({ id });
  }

  /** The picked episode with its Events, once loaded. */
  const episodeDetail = computed(() => (selectedEpisode.value !== null && history.episode.request?.id === selectedEpisode.value ? history.episode.data : null));

  return { uid, marker, selection, range, result, loading, error, live, workload, selectedEpisode, selectEpisode, episodeDetail, reload };
}
