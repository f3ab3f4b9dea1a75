/**
 * The sorted rows of one or more kinds, kept current from the cluster store's change log (see
 * live-rows.ts): each call patches in what changed since the previous call.
 */
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { SortState } from '../table/columns.ts';
import { createLiveRows, type LiveRowsOptions } from '../table/live-rows.ts';
import type { useClusterStore } from '../../stores/cluster.ts';

type ClusterStore = ReturnType<typeof useClusterStore>;

export function createKindRows<Row>(
  cluster: Pick<ClusterStore, 'objects' | 'revision' | 'changedSince'>,
  kinds: readonly KindKey[],
  options: LiveRowsOptions<Row>,
): (sort: SortState) => readonly Row[] {
  const live = createLiveRows(options);
  const seen = new Map<KindKey, number>();

  function* all(): Iterable<SlimObject> {
    for (const kind of kinds) yield* cluster.objects(kind).values();
  }

  function lookup(uid: string): SlimObject | undefined {
    for (const kind of kinds) {
      const object = cluster.objects(kind).get(uid);
      if (object) return object;
    }
    return undefined;
  }

  return (sort) => {
    let changed: Set<string> | null = new Set();
    for (const kind of kinds) {
      const since = seen.get(kind);
      const delta = since === undefined ? null : cluster.changedSince(kind, since);
      seen.set(kind, cluster.revision(kind));
      if (delta === null) changed = null;
      else if (changed) for (const uid of delta) changed.add(uid);
    }
    return live({ sort, all, changed, lookup });
  };
}
