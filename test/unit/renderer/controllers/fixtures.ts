/** Engine answers of the events channels, as the Controllers screen receives them. */
import type { ControllerSummary, ControllersResult, EventList, EventListQuery, EventRow, Reconcile, ReconcileList } from '../../../../shared/contracts/events.ts';

export const NOW = Date.parse('2025-05-02T10:00:00Z');
const HOUR = 3_600_000;

export function summary(name: string, patch: Partial<ControllerSummary> = {}): ControllerSummary {
  const rate = new Array<number>(30).fill(0);
  rate[29] = 3;
  return {
    name,
    events: 3,
    occurrences: 3,
    warnings: 0,
    warningRatio: 0,
    rate,
    warningRate: new Array<number>(30).fill(0),
    reasons: [{ reason: 'Scheduled', type: 'Normal', count: 3 }],
    lag: { samples: 0, p50: null, p95: null, max: null },
    stuck: 0,
    pending: 0,
    lastEventAt: NOW - 1_000,
    ...patch,
  };
}

export function controllers(list: ControllerSummary[]): ControllersResult {
  return { from: NOW - HOUR, to: NOW, bucketMs: HOUR / 30, controllers: list, totalEvents: 100, since: NOW - HOUR, stuckAfterMs: 300_000 };
}

export function eventRow(id: string, patch: Partial<EventRow> = {}): EventRow {
  return {
    id,
    type: 'Normal',
    reason: 'Started',
    message: `Started container ${id}`,
    controller: 'kubelet',
    instance: 'worker-1',
    object: { kind: 'Pod', namespace: 'shop', name: `web-${id}`, uid: `pod-${id}` },
    first: NOW - 5_000,
    last: NOW - 5_000,
    count: 1,
    expired: false,
    ...patch,
  };
}

/** An `events:list` answer over `all`, paged and filtered like the engine (reason, type, object). */
export function listOf(all: EventRow[], query: EventListQuery): EventList {
  const matches = all.filter(
    (e) =>
      (!query.controller || e.controller === query.controller) &&
      (!query.reason || e.reason === query.reason) &&
      (!query.type || e.type === query.type) &&
      (!query.object || `${e.object.kind}/${e.object.name}`.toLowerCase().includes(query.object.toLowerCase())),
  );
  const reasons = new Map<string, number>();
  for (const e of all) if (!query.controller || e.controller === query.controller) reasons.set(e.reason, (reasons.get(e.reason) ?? 0) + 1);
  return {
    total: matches.length,
    offset: query.offset,
    events: matches.slice(query.offset, query.offset + query.limit),
    facets: {
      reasons: [...reasons].map(([value, count]) => ({ value, count })),
      namespaces: [{ value: 'shop', count: matches.length }],
      types: [
        { value: 'Normal', count: all.filter((e) => e.type === 'Normal').length },
        { value: 'Warning', count: all.filter((e) => e.type === 'Warning').length },
      ],
    },
  };
}

export function reconcile(name: string, patch: Partial<Reconcile> = {}): Reconcile {
  return {
    workload: { kind: 'Deployment', namespace: 'shop', name, uid: `d-${name}` },
    controller: 'deployment-controller',
    generation: 2,
    start: NOW - 60_000,
    startKnown: true,
    end: NOW - 58_800,
    lagMs: 1_200,
    stuck: false,
    ...patch,
  };
}

export function reconcileList(list: Reconcile[]): ReconcileList {
  const lags = list.filter((r) => r.end !== null).map((r) => r.lagMs);
  return { reconciles: list, total: list.length, lag: { samples: lags.length, p50: lags[0] ?? null, p95: lags[0] ?? null, max: lags.length ? Math.max(...lags) : null } };
}
