/**
 * Reconcile lag against the simulator's ground truth: the simulated control plane (manual clock,
 * real deployment and replicaset controllers) rolls Deployments out while its store's changes
 * are slimmed into the engine's cache, as the informers would. The simulator's own timing (when
 * its store took each generation bump, and when its controller wrote observedGeneration) must be
 * exactly what the feature infers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WATCHED_KINDS } from '../../../../shared/cluster.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { createEventsFeature } from '../../../../electron/engine/events/index.ts';
import type { Result } from '../../../../shared/result.ts';
import { cluster, deployment, DEPLOYMENTS, type Cluster } from '../../simcluster/controllers/cluster.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { BUILTIN_KEYS, LEGACY_KIND_KEYS } from '../../../../shared/builtin-kinds.ts';

interface Truth {
  uid: string;
  kind: string;
  generation: number;
  start: number;
  end: number | null;
}

function value<T>(result: Result<T> | Promise<Result<T>>): T {
  if (result instanceof Promise || !result.ok) throw new Error('expected a synchronous ok');
  return result.value;
}

const observedOf = (object: Record<string, unknown>): number => Number((object['status'] as { observedGeneration?: number } | undefined)?.observedGeneration ?? 0);

let disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers) dispose();
  disposers = [];
});

/** The simulator, the engine cache fed from its store, the feature, and the simulator's own record of reconciles. */
function harness(): { c: Cluster; feature: ReturnType<typeof createEventsFeature>; truth: Truth[] } {
  const c = cluster();
  const fake = fakeEngineContext({ now: () => c.clock.now() });
  const feature = createEventsFeature(fake.context);
  const truth: Truth[] = [];
  const stop = c.store.onChange((change) => {
    const { object } = change;
    const kind = LEGACY_KIND_KEYS[object.kind];
    if (kind !== undefined && WATCHED_KINDS.includes(kind)) {
      if (change.type === 'DELETED') fake.cache.delete(kind, object.metadata.uid);
      else upsertBuiltin(fake.cache, slimObject(object, { kind, objectKind: object.kind, apiVersion: object.apiVersion }));
    }
    if (kind !== BUILTIN_KEYS.Deployment && kind !== BUILTIN_KEYS.ReplicaSet) return;
    const generation = object.metadata.generation ?? 0;
    const now = c.clock.now();
    if (change.type !== 'DELETED' && generation !== (change.old?.metadata.generation ?? 0) && generation > observedOf(object)) {
      truth.push({ uid: object.metadata.uid, kind: object.kind, generation, start: now, end: null });
    }
    for (const t of truth) if (t.uid === object.metadata.uid && t.end === null && t.generation <= observedOf(object)) t.end = now;
  });
  disposers.push(stop, () => feature.dispose(), () => c.manager.stop());
  return { c, feature, truth };
}

function setImageNoSettle(c: Cluster, name: string, image: string): void {
  c.store.mutate(DEPLOYMENTS, 'default', name, (copy) => {
    const spec = copy['spec'] as { template: { spec: { containers: Array<{ image: string }> } } };
    const first = spec.template.spec.containers[0];
    if (first) first.image = image;
  });
}

function nearestRank(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(q * sorted.length) - 1] as number;
}

describe('reconcile lag against the simulator', () => {
  it('infers every Deployment and ReplicaSet reconcile of a rollout with the simulator\'s own timing', () => {
    const { c, feature, truth } = harness();
    c.create('deployments.apps', deployment('web', { replicas: 3 }));
    c.create('deployments.apps', deployment('api', { replicas: 2 }));
    c.advance(10_000, 250);
    // New images while the controllers are busy elsewhere: each reconcile waits for the next
    // settled step of the control plane, 250 ms or 400 ms later.
    setImageNoSettle(c, 'web', 'nginx:1.28');
    c.advance(20_000, 250);
    setImageNoSettle(c, 'api', 'nginx:1.28');
    c.advance(20_000, 400);

    const rows = value(feature.handlers['events:reconciles']({ limit: 1_000 })).reconciles;
    const inferred = rows.map((r) => ({ uid: r.workload.uid, kind: r.workload.kind, generation: r.generation, start: r.start, end: r.end })).sort((a, b) => a.start - b.start || a.uid.localeCompare(b.uid) || a.generation - b.generation);
    const expected = [...truth].sort((a, b) => a.start - b.start || a.uid.localeCompare(b.uid) || a.generation - b.generation);
    expect(expected.length).toBeGreaterThan(8);
    expect(expected.some((t) => t.end !== null && t.end - t.start >= 250)).toBe(true);
    expect(inferred).toEqual(expected);

    // Per-controller statistics are those of the simulator's lags.
    const now = c.clock.now();
    const summary = value(feature.handlers['events:controllers']({ from: now - 3_600_000, to: now }));
    for (const [kind, controller] of [['Deployment', 'deployment-controller'], ['ReplicaSet', 'replicaset-controller']] as const) {
      const lags = truth.filter((t) => t.kind === kind && t.end !== null).map((t) => (t.end as number) - t.start);
      const stats = summary.controllers.find((s) => s.name === controller)?.lag;
      expect(stats).toEqual({ samples: lags.length, p50: nearestRank(lags, 0.5), p95: nearestRank(lags, 0.95), max: Math.max(...lags) });
      expect(summary.controllers.find((s) => s.name === controller)).toMatchObject({ stuck: 0, pending: 0 });
    }
    // The simulator's Events are grouped under the controllers that reported them.
    expect(summary.controllers.map((s) => s.name)).toEqual(expect.arrayContaining(['deployment-controller', 'replicaset-controller', 'default-scheduler', 'kubelet']));
  });

  it('shows a reconcile stuck while the controller manager is down, then its whole lag when it catches up', () => {
    const { c, feature, truth } = harness();
    c.create('deployments.apps', deployment('web', { replicas: 2 }));
    c.advance(10_000, 500);
    c.manager.stop();
    setImageNoSettle(c, 'web', 'nginx:1.28');
    c.clock.advance(6 * 60_000);
    const during = value(feature.handlers['events:controllers']({}));
    expect(during.controllers.find((s) => s.name === 'deployment-controller')).toMatchObject({ stuck: 1, pending: 0 });
    const stuck = value(feature.handlers['events:reconciles']({ controller: 'deployment-controller' })).reconciles[0];
    expect(stuck).toMatchObject({ generation: 2, end: null, stuck: true, lagMs: 6 * 60_000 });

    c.clock.advance(60_000);
    c.manager.start();
    c.settle();
    const web = truth.find((t) => t.kind === 'Deployment' && t.generation === 2);
    expect(web?.end !== null && web ? web.end - web.start : null).toBe(7 * 60_000);
    const after = value(feature.handlers['events:reconciles']({ uid: web?.uid ?? '' })).reconciles;
    expect(after.find((r) => r.generation === 2)).toMatchObject({ lagMs: 7 * 60_000, stuck: false, end: c.clock.now() });
    expect(value(feature.handlers['events:controllers']({})).controllers.find((s) => s.name === 'deployment-controller')).toMatchObject({ stuck: 0, lag: expect.objectContaining({ max: 7 * 60_000 }) });
  });
});
