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

/** Whether `text` holds every one of `words`. */
function hasAll(text: string, words: readonly string[]): boolean {
  for (const word of words) if (!text.includes(word)) return false;
  return true;
}

/**
 * Filters rows already in display order (filtering keeps it). One pass that does no allocation
 * per row: counts go to Maps by kind key, and the `all` and group counts are summed from the
 * kinds' counts afterwards (a per-row `group:<group>` string and dictionary-keyed object were
 * most of the pass at 6,000 rows).
 */
export function filterWorkloads<Row extends OverviewRow>(sorted: readonly Row[], filter: WorkloadFilter): FilteredWorkloads<Row> {
  const words = searchWords(filter.search);
  const onlyGroup = filterGroup(filter.kind);
  const anyKind = filter.kind === ALL_KINDS || onlyGroup !== undefined;
  /** Rows per kind key, Deployment-run ReplicaSets included. */
  const byKind = new Map<string, number>();
  /** Rows per kind key that "all" and the groups count: Deployment-run ReplicaSets left out. */
  const listedByKind = new Map<string, number>();
  const rows: Row[] = [];
  let drifting = 0;
  for (const row of sorted) {
    if (filter.namespace && row.namespace !== filter.namespace) continue;
    if (words.length > 0 && !hasAll(row.search, words)) continue;
    const inKind = anyKind ? !row.managed && (onlyGroup === undefined || groupOfKey(row.kind) === onlyGroup) : row.kind === filter.kind;
    if (inKind && row.drift) drifting += 1;
    if (filter.driftOnly && !row.drift) continue;
    byKind.set(row.kind, (byKind.get(row.kind) ?? 0) + 1);
    if (!row.managed) listedByKind.set(row.kind, (listedByKind.get(row.kind) ?? 0) + 1);
    if (inKind) rows.push(row);
  }
  const counts: Record<KindFilter, number> = Object.fromEntries([[ALL_KINDS, 0], ...WORKLOAD_KINDS.map((kind) => [kind, 0])]);
  for (const [kind, count] of byKind) counts[kind] = count;
  for (const [kind, count] of listedByKind) {
    counts[ALL_KINDS] = (counts[ALL_KINDS] ?? 0) + count;
    const id = groupFilter(groupOfKey(kind));
    counts[id] = (counts[id] ?? 0) + count;
  }
  return { rows, counts, drifting };
}
