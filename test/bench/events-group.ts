/**
 * The events feature at 100,000 Events (a busy hour of a large cluster: rollouts, scheduling,
 * image pulls, crash loops, HPAs and an operator), in-process:
 * - `events_group_100k_ms`: the `events:controllers` answer (merge, group per controller,
 *   sparkline buckets with series spread, reasons, Warning ratio), p50 of runs. Goal < 300.
 * - `events_ingest_100k_ms`: normalising and merging 100,000 cached Events into the store once.
 * - `events_list_100k_ms`: one filtered page of `events:list` (object substring filter, newest first), p50.
 */
import type { SlimObject } from '../../shared/cluster.ts';
import { createEventStore } from '../../electron/engine/events/event-store.ts';
import { listEvents } from '../../electron/engine/events/list.ts';
import { normalizeEvent } from '../../electron/engine/events/normalize.ts';
import { createReconcileTracker } from '../../electron/engine/events/reconciles.ts';
import { controllerSummaries } from '../../electron/engine/events/summaries.ts';
import { percentile, round } from './stats.ts';
import type { BenchScenario } from './types.ts';

const EVENTS = 100_000;
const QUICK_EVENTS = 10_000;
const HOUR_MS = 3_600_000;

/** Who reports what, and how often (weights), as on a real cluster. */
const MIX: ReadonlyArray<{ controller: string; kind: string; reason: string; type: 'Normal' | 'Warning'; weight: number; repeats?: number }> = [
  { controller: 'kubelet', kind: 'Pod', reason: 'Pulled', type: 'Normal', weight: 14 },
  { controller: 'kubelet', kind: 'Pod', reason: 'Created', type: 'Normal', weight: 14 },
  { controller: 'kubelet', kind: 'Pod', reason: 'Started', type: 'Normal', weight: 14 },
  { controller: 'kubelet', kind: 'Pod', reason: 'Killing', type: 'Normal', weight: 8 },
  { controller: 'kubelet', kind: 'Pod', reason: 'BackOff', type: 'Warning', weight: 4, repeats: 40 },
  { controller: 'kubelet', kind: 'Pod', reason: 'Unhealthy', type: 'Warning', weight: 3, repeats: 12 },
  { controller: 'default-scheduler', kind: 'Pod', reason: 'Scheduled', type: 'Normal', weight: 14 },
  { controller: 'default-scheduler', kind: 'Pod', reason: 'FailedScheduling', type: 'Warning', weight: 2, repeats: 6 },
  { controller: 'replicaset-controller', kind: 'ReplicaSet', reason: 'SuccessfulCreate', type: 'Normal', weight: 12 },
  { controller: 'replicaset-controller', kind: 'ReplicaSet', reason: 'SuccessfulDelete', type: 'Normal', weight: 6 },
  { controller: 'deployment-controller', kind: 'Deployment', reason: 'ScalingReplicaSet', type: 'Normal', weight: 5 },
  { controller: 'horizontal-pod-autoscaler', kind: 'HorizontalPodAutoscaler', reason: 'SuccessfulRescale', type: 'Normal', weight: 2 },
  { controller: 'job-controller', kind: 'Job', reason: 'Completed', type: 'Normal', weight: 1 },
  { controller: 'cert-manager-certificates-issuing', kind: 'Certificate', reason: 'Issuing', type: 'Normal', weight: 1 },
];

/** A deterministic pseudo-random sequence (so every run groups the same events). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** `count` slim core/v1 Events over the hour before `now`. */
export function syntheticEvents(count: number, now: number): SlimObject[] {
  const next = random(42);
  const total = MIX.reduce((sum, m) => sum + m.weight, 0);
  const out: SlimObject[] = [];
  for (let i = 0; i < count; i += 1) {
    let pick = next() * total;
    const mix = MIX.find((m) => (pick -= m.weight) < 0) ?? (MIX[0] as (typeof MIX)[number]);
    const first = now - HOUR_MS + Math.floor(next() * HOUR_MS);
    const repeats = mix.repeats ? 1 + Math.floor(next() * mix.repeats) : 1;
    const last = repeats > 1 ? Math.min(now, first + repeats * 10_000) : first;
    const namespace = `team-${i % 40}`;
    const name = `${mix.kind.toLowerCase()}-${i % 5_000}`;
    out.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.${i.toString(16)}`, namespace, uid: `event-${i}`, resourceVersion: String(i + 1) },
      involvedObject: { kind: mix.kind, namespace, name, uid: `${mix.kind}-${i % 5_000}` },
      reason: mix.reason,
      message: `${mix.reason} ${name} (${i})`,
      source: { component: mix.controller },
      firstTimestamp: new Date(first).toISOString(),
      lastTimestamp: new Date(last).toISOString(),
      count: repeats,
      type: mix.type,
      reportingComponent: mix.controller,
    } as SlimObject);
  }
  return out;
}

function timed(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export const eventsGroup: BenchScenario = {
  name: 'events-group',
  results: ['events_group_100k_ms', 'events_ingest_100k_ms', 'events_list_100k_ms'],
  goals: [{ result: 'events_group_100k_ms', below: 300 }],
  async run(ctx) {
    const now = Date.now();
    const size = ctx.quick ? QUICK_EVENTS : EVENTS;
    const objects = syntheticEvents(size, now);
    const store = createEventStore({ maxEvents: size });
    const ingest = timed(() => {
      for (const object of objects) store.upsert(normalizeEvent(object, now));
    });
    if (store.size() !== size) throw new Error(`the store holds ${store.size()} events, expected ${size}`);
    const tracker = createReconcileTracker();
    const runs = ctx.quick ? 3 : 9;
    const group: number[] = [];
    const list: number[] = [];
    let controllers = 0;
    for (let i = 0; i < runs; i += 1) {
      group.push(timed(() => (controllers = controllerSummaries(store, tracker, { from: now - HOUR_MS, to: now, buckets: 30 }, now, 300_000).controllers.length)));
      list.push(timed(() => listEvents(store.values(), { controller: 'kubelet', object: 'pod-12', offset: 0, limit: 200 })));
    }
    if (controllers !== MIX.reduce((names, m) => names.add(m.controller), new Set<string>()).size) throw new Error(`grouped into ${controllers} controllers`);
    ctx.log(`events: ${size} events, ${controllers} controllers`);
    return {
      events_group_100k_ms: round(percentile(group, 50)),
      events_ingest_100k_ms: round(ingest),
      events_list_100k_ms: round(percentile(list, 50)),
    };
  },
};
