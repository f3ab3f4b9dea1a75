/**
 * Where a screen that can show the past reads its objects: the live cluster store, or — while
 * the user time-travels — the cluster as it was at T (renderer/stores/time-travel.ts). Both read
 * the same way (`objects`, `revision`, `changedSince`), so a screen builds its rows once and
 * this switches what they are built from.
 */
import { computed, type ComputedRef } from 'vue';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import { useClusterStore } from '../../stores/cluster.ts';
import { useTimeTravelStore } from '../../stores/time-travel.ts';
import type { SortState, TableColumn } from '../table/columns.ts';
import { createKindRows } from './kind-rows.ts';

export type ClusterSource = Pick<ReturnType<typeof useClusterStore>, 'objects' | 'revision' | 'changedSince'>;

export interface ClusterSourceView {
  /** True while a past moment is on view (loaded or not). */
  viewingPast: ComputedRef<boolean>;
  /** The past moment on view, or null when live. */
  at: ComputedRef<number | null>;
  /** Revisions of `kinds` in the source on view (reactive: a data dependency). */
  revisions(kinds: readonly KindKey[]): string;
  /** Sorted rows of `kinds` from the source on view, patched as it changes. */
  kindRows<Row>(kinds: readonly KindKey[], options: { derive: (object: SlimObject) => Row; columns: ReadonlyArray<TableColumn<Row>>; tieKey: (row: Row) => string }): (sort: SortState) => readonly Row[];
}

export function useClusterSource(): ClusterSourceView {
  const cluster = useClusterStore();
  const timeTravel = useTimeTravelStore();
  const past: ClusterSource = {
    objects: (kind) => timeTravel.source.objects(kind),
    revision: (kind) => timeTravel.source.revision(kind),
    changedSince: (kind, since) => timeTravel.source.changedSince(kind, since),
  };
  const viewingPast = computed(() => timeTravel.at !== null);
  const current = (): ClusterSource => (viewingPast.value ? past : cluster);

  return {
    viewingPast,
    at: computed(() => timeTravel.at),
    revisions: (kinds) => `${viewingPast.value ? `past@${timeTravel.at}` : 'live'}:${kinds.map((kind) => current().revision(kind)).join(',')}`,
    kindRows(kinds, options) {
      const live = createKindRows(cluster, kinds, options);
      const then = createKindRows(past, kinds, options);
      return (sort) => (viewingPast.value ? then(sort) : live(sort));
    },
  };
}
