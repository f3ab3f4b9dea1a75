/**
 * The Pods table's rows and column orders (kind-rows.ts, live-rows.ts), one set per cluster store
 * for the page's life instead of one per visit of the screen: coming back to Pods costs a merge
 * of what changed meanwhile, where each visit used to derive every pod's row and sort them again
 * (~0.6 s at 150,000 pods on the bench VM, before the first paint).
 *
 * And they are prepared before the first visit: `warm` (usePodRowsWarmUp, once the pods are
 * listed) builds the rows and their tie order in idle slices of a few milliseconds, then every
 * sortable column's order (order-build.ts). Opening Pods then finds its rows, and a first click on
 * any header that column's order, ready; without it, a click on a column not ordered yet sorted
 * all 150,000 rows on the spot (100–190 ms on the bench VM). The cost is idle time after a sync
 * and the rows' memory while the page lives (~0.4 KB a pod).
 */
import { watchEffect } from 'vue';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { KindHealth, SlimObject } from '../../../shared/cluster.ts';
import { createKindRows } from '../../components/cluster/kind-rows.ts';
import type { SortState } from '../../components/table/columns.ts';
import { whenIdle } from '../../components/table/idle.ts';
import type { IdleScheduler } from '../../components/table/live-rows.ts';
import { useClusterStore } from '../../stores/cluster.ts';
import { podRow, type PodRow } from '../../stores/rows/pods.ts';
import { cachedRow } from '../../stores/rows/row-cache.ts';
import { POD_COLUMNS } from './pod-columns.ts';

type ClusterStore = Pick<ReturnType<typeof useClusterStore>, 'objects' | 'revision' | 'changedSince'>;

export const POD_KINDS = [BUILTIN_KEYS.Pod] as const;

/** The order the Pods screen opens in. */
export const DEFAULT_POD_SORT: SortState = { column: 'namespace', direction: 'asc' };

export interface PodRows {
  /** The pods sorted by `sort`, patched with what changed since the last call. */
  rows(sort: SortState): readonly PodRow[];
  /** Prepares the rows and the column orders in idle time (a warm-up under way starts over). */
  warm(): void;
}

export interface PodRowsOptions {
  idle?: IdleScheduler;
  /** The clock that bounds a slice, in ms (performance.now; tests pass their own). */
  now?: () => number;
  /** Derives one pod's row (podRow; tests count the calls). */
  derive?: (object: SlimObject) => PodRow;
}

const kept = new WeakMap<ClusterStore, PodRows>();

/** The Pods rows of `cluster`, made on first use and kept while the store lives. */
export function podRows(cluster: ClusterStore, options: PodRowsOptions = {}): PodRows {
  const known = kept.get(cluster);
  if (known) return known;
  const derive = cachedRow(options.derive ?? podRow);
  const rows = createKindRows(cluster, POD_KINDS, { derive, columns: POD_COLUMNS, tieKey: (row) => row.search, idle: options.idle ?? whenIdle, ...(options.now ? { now: options.now } : {}) });
  const made: PodRows = { rows, warm: () => rows.prepare() };
  kept.set(cluster, made);
  return made;
}

/**
 * Whether this window holds the listed pods: its snapshot applied (`synced`), the engine's Pod
 * kind live (listed, watched) and at least as many pods here as the engine counts.
 */
export function podsListed(synced: boolean, kinds: readonly KindHealth[], held: number): boolean {
  const pods = kinds.find((kind) => kind.kind === BUILTIN_KEYS.Pod);
  return synced && pods?.state === 'live' && held >= pods.count;
}

/**
 * Warms the Pods rows (see the file comment) once per connection, when the pods are listed: the
 * engine has them all (their kind live) and this window holds as many. Called by the shell.
 */
export function usePodRowsWarmUp(): void {
  const cluster = useClusterStore();
  let warmed: string | null | undefined;
  watchEffect(() => {
    // The epoch first: once warmed, this effect follows only it, not every batch of pods.
    if (cluster.epoch === warmed || !podsListed(cluster.synced, cluster.health?.kinds ?? [], cluster.objects(BUILTIN_KEYS.Pod).size)) return;
    warmed = cluster.epoch;
    podRows(cluster).warm();
  });
}
