/** The Overview's filters in one pass over the sorted rows, counting as it goes. */
import type { OverviewRow } from '../../stores/rows/custom.ts';
import { WORKLOAD_KINDS } from '../../stores/rows/workloads.ts';
import { ALL_KINDS, filterGroup, groupFilter, groupOfKey, type KindFilter } from './kind-filter.ts';

export type { KindFilter } from './kind-filter.ts';

export interface WorkloadFilter {
  /** `all`, `group:<group>` or a kind key (kind-filter.ts). */
  kind: KindFilter;
  /** "" for every namespace. */
  namespace: string;
  search: string;
  driftOnly: boolean;
}

export interface FilteredWorkloads<Row extends OverviewRow = OverviewRow> {
  rows: Row[];
  /**
   * Rows per kind filter under the other filters: `all`, each `group:<group>` (those two leave
   * out Deployment-run ReplicaSets) and each kind key (every workload kind, 0 when none).
   */
  counts: Record<KindFilter, number>;
  /** Drifting rows under the kind, namespace and search filters, whether or not "drifting only" is on. */
  drifting: number;
}

/** Lower-cased words of a search box; a row matches when its search text has all of them. */
export function searchWords(search: string): string[] {
  return search.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Filters rows already in display order (filtering keeps it). */
export function filterWorkloads<Row extends OverviewRow>(sorted: readonly Row[], filter: WorkloadFilter): FilteredWorkloads<Row> {
  const words = searchWords(filter.search);
  const counts: Record<KindFilter, number> = Object.fromEntries([[ALL_KINDS, 0], ...WORKLOAD_KINDS.map((kind) => [kind, 0])]);
  const onlyGroup = filterGroup(filter.kind);
  const rows: Row[] = [];
  let drifting = 0;
  for (const row of sorted) {
    if (filter.namespace && row.namespace !== filter.namespace) continue;
    if (words.length > 0 && !words.every((word) => row.search.includes(word))) continue;
    const group = groupOfKey(row.kind);
    const inKind = filter.kind === ALL_KINDS || onlyGroup !== undefined ? !row.managed && (onlyGroup === undefined || group === onlyGroup) : row.kind === filter.kind;
    if (inKind && row.drift) drifting += 1;
    if (filter.driftOnly && !row.drift) continue;
    counts[row.kind] = (counts[row.kind] ?? 0) + 1;
    if (!row.managed) {
      counts[ALL_KINDS] = (counts[ALL_KINDS] ?? 0) + 1;
      const id = groupFilter(group);
      counts[id] = (counts[id] ?? 0) + 1;
    }
    if (inKind) rows.push(row);
  }
  return { rows, counts, drifting };
}
