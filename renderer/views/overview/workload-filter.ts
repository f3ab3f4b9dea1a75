/** The Overview's filters in one pass over the sorted rows, counting as it goes. */
import { WORKLOAD_KINDS, type WorkloadKind, type WorkloadRow } from '../../stores/rows/workloads.ts';

export type KindFilter = 'all' | WorkloadKind;

export interface WorkloadFilter {
  kind: KindFilter;
  /** "" for every namespace. */
  namespace: string;
  search: string;
  driftOnly: boolean;
}

export interface FilteredWorkloads {
  rows: WorkloadRow[];
  /** Rows per kind filter under the other filters ("all" leaves out Deployment-run ReplicaSets). */
  counts: Record<KindFilter, number>;
  /** Drifting rows under the kind, namespace and search filters, whether or not "drifting only" is on. */
  drifting: number;
}

/** Lower-cased words of a search box; a row matches when its search text has all of them. */
export function searchWords(search: string): string[] {
  return search.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Filters rows already in display order (filtering keeps it). */
export function filterWorkloads(sorted: readonly WorkloadRow[], filter: WorkloadFilter): FilteredWorkloads {
  const words = searchWords(filter.search);
  const counts = Object.fromEntries([['all', 0], ...WORKLOAD_KINDS.map((kind) => [kind, 0])]) as Record<KindFilter, number>;
  const rows: WorkloadRow[] = [];
  let drifting = 0;
  for (const row of sorted) {
    if (filter.namespace && row.namespace !== filter.namespace) continue;
    if (words.length > 0 && !words.every((word) => row.search.includes(word))) continue;
    const inKind = filter.kind === 'all' ? !row.managed : row.kind === filter.kind;
    if (inKind && row.drift) drifting += 1;
    if (filter.driftOnly && !row.drift) continue;
    counts[row.kind] += 1;
    if (!row.managed) counts.all += 1;
    if (inKind) rows.push(row);
  }
  return { rows, counts, drifting };
}
