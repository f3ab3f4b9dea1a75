/**
 * The drift timeline's state: range and filters (sent to the engine), the lanes built from the
 * answer, the window the user zoomed to, the time-travel cursor and the moment pinned for a
 * comparison. Reloads when the range or a filter changes, and as the recorder writes while the
 * range ends now.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import { computed, ref, shallowRef, watch } from 'vue';
import { earliestFact } from '../../components/charts/coverage-marks.ts';
import { useLiveRefresh } from '../../components/charts/live-refresh.ts';
import { fitToHistory, resolveRange, selectionFromParams, type RangeSelection, type TimeRange } from '../../components/charts/time-range.ts';
import { useHistoryStore, type EpisodesRequest } from '../../stores/history.ts';
import { useNavigationStore } from '../../stores/navigation.ts';
import { useClusterStore } from '../../stores/cluster.ts';
import { useDiscoveryStore } from '../../stores/discovery.ts';
import { customKindGroups } from './kind-label.ts';
import { buildLanes, filterLanes, hideManagedReplicaSets, workloadLanes, type ManagedOptions } from './swimlane.ts';

/** The most episodes one answer carries (the contract's cap); beyond it the list says it is cut. */
export const EPISODE_LIMIT = 20_000;

/** 'all', or a kind key: a built-in workload kind or a custom resource's (`databases.db.kubedrift.dev`). */
export type KindChoice = 'all' | (string & {});

export const MIN_DURATIONS = [
  { ms: 0, label: 'any' },
  { ms: 10_000, label: '10 s+' },
  { ms: 60_000, label: '1 m+' },
  { ms: 5 * 60_000, label: '5 m+' },
  { ms: 15 * 60_000, label: '15 m+' },
  { ms: 60 * 60_000, label: '1 h+' },
] as const;

export interface TimelineFilters {
  namespace: string;
  kind: KindChoice;
  ongoingOnly: boolean;
  minDurationMs: number;
}

/** The `history:episodes` request for a range and filters (unset filters are left out). */
export function episodesRequest(range: TimeRange, filters: TimelineFilters): EpisodesRequest {
  return {
    from: range.from,
    to: range.to,
    limit: EPISODE_LIMIT,
    ...(filters.namespace ? { namespace: filters.namespace } : {}),
    ...(filters.kind !== 'all' ? { kind: filters.kind } : {}),
    ...(filters.ongoingOnly ? { ongoingOnly: true } : {}),
    ...(filters.minDurationMs > 0 ? { minDurationMs: filters.minDurationMs } : {}),
  };
}

/** The earlier of two moments (null: unknown). */
const earliestOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));

export function useTimeline() {
  const history = useHistoryStore();
  const navigation = useNavigationStore();

  // A link's parameters win; otherwise the timeline shows what it showed when the user left it.
  const last = history.recall<{ selection: RangeSelection; filters: TimelineFilters }>('timeline');
  const linked = ['from', 'to', 'at', 'range'].some((key) => navigation.params[key] !== undefined);
  const selection = ref<RangeSelection>(linked || !last ? selectionFromParams(navigation.params, Date.now()) : last.selection);
  const filters = ref<TimelineFilters>(last?.filters ?? { namespace: '', kind: 'all', ongoingOnly: false, minDurationMs: 0 });
  if (navigation.params['namespace'] !== undefined) filters.value = { ...filters.value, namespace: navigation.params['namespace'] };
  const search = ref('');
  const range = shallowRef<TimeRange>(resolveRange(selection.value, Date.now()));
  /** The part of the range the user zoomed to, if they did. */
  const userZoom = shallowRef<TimeRange | null>(null);
  const cursor = ref<number | null>(null);
  const pinned = ref<number | null>(null);

  function reload(): void {
    range.value = resolveRange(selection.value, Date.now());
    void history.episodes.run(episodesRequest(range.value, filters.value));
  }
  watch([selection, filters], () => {
    userZoom.value = null;
    history.remember('timeline', { selection: selection.value, filters: filters.value });
    reload();
  }, { deep: true, immediate: true });
  useLiveRefresh(() => selection.value, reload);

  const data = computed(() => history.episodes.data);
  /** What the chart and the swimlane show: the zoomed part, else the recorded part of the range. */
  // Facts inferred from the cluster on connect may be older than the recording: show them too.
  const view = computed<TimeRange>(() => userZoom.value ?? fitToHistory(range.value, earliestOf(data.value?.since ?? history.status?.since ?? null, earliestFact(data.value?.inferred))));
  const zoomed = computed(() => userZoom.value !== null);
  const now = computed(() => data.value?.to ?? range.value.to);
  const cluster = useClusterStore();
  /** Which ReplicaSets a Deployment runs, as far as the live cluster knows. */
  const ownership = computed<ManagedOptions>(() => {
    const deployments = new Set([...cluster.objects(BUILTIN_KEYS.Deployment).values()].map((object) => `${object.metadata.namespace}/${object.metadata.name}`));
    const replicaSets = cluster.objects(BUILTIN_KEYS.ReplicaSet);
    return {
      ownedByDeployment: (uid) => {
        const object = replicaSets.get(uid);
        return object ? (object.metadata.ownerReferences ?? []).some((owner) => owner.kind === 'Deployment') : undefined;
      },
      deploymentExists: (namespace, name) => deployments.has(`${namespace}/${name}`),
    };
  });
  /**
   * Lanes of the answer; under "All", without the ReplicaSets Deployments run (their drift is the
   * Deployment's), by the engine's recorded ownership — the rule its drift count uses too.
   */
  const grouped = computed(() => {
    const all = data.value ? buildLanes(data.value.episodes, now.value) : [];
    return filters.value.kind === 'all' ? workloadLanes(all) : { kept: all, hidden: 0 };
  });
  const lanes = computed(() => grouped.value.kept);
  const hiddenReplicaSets = computed(() => grouped.value.hidden);
  /** Episodes of the lanes shown (the folded ReplicaSets' episodes are not counted). */
  const episodeCount = computed(() => lanes.value.reduce((sum, lane) => sum + lane.episodes.length, 0));
  /** What changed between the compared moments, without the ReplicaSets of Deployments under "All". */
  const changes = computed(() => {
    const all = history.comparison.data?.changes ?? null;
    if (!all || filters.value.kind !== 'all') return all && { kept: all, hidden: 0 };
    return hideManagedReplicaSets(all, (change) => change.workload, ownership.value);
  });
  const shown = computed(() => filterLanes(lanes.value, search.value));
  const discovery = useDiscoveryStore();
  /** The custom kinds the kind filter offers, by API group. */
  const customKinds = computed(() => customKindGroups(discovery.kinds, (data.value?.episodes ?? []).map((episode) => episode.workload), filters.value.kind));
  const ongoing = computed(() => lanes.value.filter((lane) => lane.ongoing).length);

  /** Shows part of the range (null: all of it that is recorded). */
  function zoomTo(window: TimeRange | null): void {
    userZoom.value = window ? { from: Math.max(window.from, range.value.from), to: Math.min(window.to, range.value.to) } : null;
  }

  return { selection, filters, search, range, view, zoomed, cursor, pinned, data, now, lanes, hiddenReplicaSets, episodeCount, shown, ongoing, changes, customKinds, reload, zoomTo };
}
