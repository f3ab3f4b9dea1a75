/** History payloads as the engine answers them (shared/contracts/history.ts), for renderer tests. */
import type { Episode, EpisodeList, HistoryEvent, HistoryStatus, Point, SeriesName, SeriesResult, WorkloadRef } from '../../../../shared/contracts/history.ts';

export const T0 = Date.UTC(2025, 4, 3, 12, 0, 0);
export const MINUTE = 60_000;

export function workloadRef(name: string, options: { kind?: WorkloadRef['kind']; namespace?: string } = {}): WorkloadRef {
  return { kind: options.kind ?? 'deployments.apps', namespace: options.namespace ?? 'payments', name, uid: `uid-${name}` };
}

export function episode(id: number, workload: WorkloadRef, start: number, end: number | null, extra: Partial<Episode> = {}): Episode {
  return { id, workload, start, end, durationMs: (end ?? start) - start, peakGap: 1, reasons: ['ready'], trigger: null, ...extra };
}

export function warning(at: number, reason: string, message: string, extra: Partial<HistoryEvent> = {}): HistoryEvent {
  return { uid: `ev-${at}-${reason}`, at, type: 'Warning', reason, message, count: 1, source: 'kubelet', object: { kind: 'Pod', namespace: 'payments', name: 'payments-api-7d9f-x2' }, ...extra };
}

export const STATUS: HistoryStatus = { context: 'kind-dev', state: 'recording', since: T0 - 3 * 24 * 60 * MINUTE, bytes: 12 * 1024 * 1024, samples: 48_000, episodes: 37 };

/** A rollout stuck for 5 minutes: desired 3, ready drops to 2, generation 4 -> 5 observed at once. */
export function stuckRollout(): SeriesResult {
  const ref = workloadRef('payments-api');
  const at = (minutes: number): number => T0 + minutes * MINUTE;
  const series: Record<SeriesName, Point[]> = {
    desired: [[at(0), 3], [at(10), 3], [at(20), 3]],
    current: [[at(0), 3], [at(10), 4], [at(15), 3], [at(20), 3]],
    ready: [[at(0), 3], [at(10), 2], [at(15), 3], [at(20), 3]],
    available: [[at(0), 3], [at(10), 2], [at(15), 3], [at(20), 3]],
    updated: [[at(0), 3], [at(10), 1], [at(15), 3], [at(20), 3]],
    unavailable: [[at(0), 0], [at(10), 1], [at(15), 0], [at(20), 0]],
    generation: [[at(0), 4], [at(10), 5], [at(20), 5]],
    observedGeneration: [[at(0), 4], [at(10), 5], [at(20), 5]],
  };
  return {
    workload: ref,
    from: at(0),
    to: at(20),
    series: Object.entries(series).map(([name, points]) => ({ name: name as SeriesName, points })),
    rawSamples: 14,
    rollouts: [{ generation: 5, start: at(10), end: at(15), image: 'ghcr.io/acme-shop/payments-api:broken' }],
    warnings: [warning(at(11), 'Failed', 'Failed to pull image "ghcr.io/acme-shop/payments-api:broken": not found <b>'), warning(at(12), 'BackOff', 'Back-off pulling image', { count: 7 })],
    episodes: [episode(7, ref, at(10), at(15), { peakGap: 1, reasons: ['ready', 'progressing'], trigger: { generation: 5, image: 'ghcr.io/acme-shop/payments-api:broken' } })],
    since: STATUS.since,
  };
}

export function episodeList(episodes: Episode[], range: { from: number; to: number }, driftCount: Point[] = []): EpisodeList {
  return { ...range, episodes, truncated: false, driftCount, since: STATUS.since };
}
