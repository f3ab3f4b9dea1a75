/**
 * The sorted rows of one or more kinds, kept current from the cluster store's change log (see
 * live-rows.ts): each call patches in what changed since the previous call. `prepare` builds them
 * ahead in idle time (with an `idle` scheduler); the first call after it patches in what changed
 * since it began.
 */
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { SortState } from '../table/columns.ts';
import { createLiveRows, type LiveRowsOptions } from '../table/live-rows.ts';
import type { useClusterStore } from '../../stores/cluster.ts';

type ClusterStore = ReturnType<typeof useClusterStore>;

/** The rows in `sort`'s order; `prepare` builds them in idle time (see the file comment). */
export interface KindRows<Row> {
  (sort: SortState): readonly Row[];
  prepare(): void;
}

export function createKindRows<Row>(
  cluster: Pick<ClusterStore, 'objects' | 'revision' | 'changedSince'>,
  kinds: readonly KindKey[],
  options: LiveRowsOptions<Row>,
): KindRows<Row> {
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

  const rows = (sort: SortState): readonly Row[] => {
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

  function prepare(): void {
    // What changes from here on is patched in by the next call, prepared or not.
    const from = kinds.map((kind) => [kind, cluster.revision(kind)] as const);
    live.prepare(all, () => {
      for (const [kind, revision] of from) seen.set(kind, revision);
    });
  }

  return Object.assign(rows, { prepare });
}
