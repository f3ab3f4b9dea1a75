/** Words and numbers of the Snapshots screen, kept out of the components so they are testable. */
import type { OpenedSnapshot, SnapshotScope, WorkloadState } from '../../../shared/contracts/snapshot.ts';

/** 2024-05-01 12:00:05 UTC: snapshots are shared across time zones, so times read in UTC. */
export function formatUtc(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

export function scopeText(scope: SnapshotScope): string {
  if (scope.type === 'cluster') return 'Whole cluster';
  if (scope.type === 'namespace') return `Namespace ${scope.namespace}`;
  return `${scope.uids.length} selected ${scope.uids.length === 1 ? 'object' : 'objects'}`;
}

export function countsText(snapshot: OpenedSnapshot): string {
  const { objects, workloads, drifting, episodes } = snapshot.counts;
  const parts = [`${objects.toLocaleString('en-US')} objects`, `${workloads} workloads`, `${drifting} drifting`];
  if (snapshot.window) parts.push(`${episodes} episodes`);
  return parts.join(' · ');
}

/** "2 → 3" for a number that changed, "2" when it did not, "—" when absent. */
export function transition(before: WorkloadState | null, after: WorkloadState | null, field: keyof WorkloadState): string {
  const show = (state: WorkloadState | null) => {
    if (!state) return '—';
    const value = state[field];
    if (typeof value === 'boolean') return value ? 'yes' : 'no';
    return value === null ? '—' : String(value);
  };
  const a = show(before);
  const b = show(after);
  return a === b ? a : `${a} → ${b}`;
}

/** History windows the export offers, before T. */
export const WINDOWS = [
  { id: '15m', label: '15 min', ms: 15 * 60_000 },
  { id: '1h', label: '1 hour', ms: 60 * 60_000 },
  { id: '6h', label: '6 hours', ms: 6 * 60 * 60_000 },
  { id: '24h', label: '24 hours', ms: 24 * 60 * 60_000 },
] as const;
