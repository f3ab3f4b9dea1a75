/**
 * Operators in the Controllers feature, against the demo scenario's own operators: the
 * simulated control plane runs the database operator and the cert-manager-like controller
 * while its store's changes are slimmed into the engine's cache, as the informers would. Their
 * Events must group under their own controller names, and the Database's generation bumps
 * must give the database operator exactly the reconcile lags the simulator shows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { createEventsFeature } from '../../../../electron/engine/events/index.ts';
import { DATABASE_OPERATOR } from '../../../../electron/engine/simcluster/controllers/operators/database.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { Result } from '../../../../shared/result.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';

interface Truth {
  generation: number;
  start: number;
  end: number | null;
}

function value<T>(result: Result<T> | Promise<Result<T>>): T {
  if (result instanceof Promise || !result.ok) throw new Error('expected a synchronous ok');
  return result.value;
}

const observedOf = (object: Record<string, unknown>): number | undefined => (object['status'] as { observedGeneration?: number } | undefined)?.observedGeneration;

let disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers) dispose();
  disposers = [];
});

/** Twelve minutes of the demo: orders-db created, stalled on 17.0 (generation 2), fixed, scaled back. */
function runDemo() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const store = new ObjectStore({ now: () => clock.now() });
  const fake = fakeEngineContext({ now: () => clock.now() });
  const feature = createEventsFeature(fake.context);
  const truth: Truth[] = [];
  const stop = store.onChange((change) => {
    const { object } = change;
    if (change.type === 'DELETED') fake.cache.delete(change.resource, object.metadata.uid);
    else fake.cache.upsert(change.resource, slimObject(object, { kind: change.resource, objectKind: object.kind, apiVersion: object.apiVersion }));
    if (change.resource !== 'databases.db.kubedrift.dev' || change.type === 'DELETED') return;
    const generation = object.metadata.generation ?? 0;
    const observed = observedOf(object) ?? 0;
    const now = clock.now();
    if (generation !== (change.old?.metadata.generation ?? 0) && generation > observed) truth.push({ generation, start: now, end: null });
    for (const t of truth) if (t.end === null && t.generation <= observed) t.end = now;
  });
  const problems: string[] = [];
  const run = runScenario({
    scenario: loadScenario('demo'),
    store,
    clock,
    applyDefaults,
    validate,
    onActionError: (entry, error) => problems.push(`line ${entry.line}: ${String(error)}`),
    onControllerError: (name, error) => problems.push(`${name}: ${String(error)}`),
  });
  disposers.push(stop, () => feature.dispose(), () => run.stop());
  for (let s = 0; s < 12 * 60; s += 1) {
    clock.advance(1_000);
    run.manager?.drain();
  }
  expect(problems).toEqual([]);
  return { clock, feature, truth };
}

describe('operators on the Controllers screen (demo scenario)', () => {
  it('groups the operators\' Events under their own controller names and gives the database operator its Database reconciles and lag', () => {
    const { clock, feature, truth } = runDemo();
    const now = clock.now();
    const summary = value(feature.handlers['events:controllers']({ from: now - 3_600_000, to: now }));
    const byName = new Map(summary.controllers.map((c) => [c.name, c]));
    for (const name of [DATABASE_OPERATOR, 'cert-manager-certificates-issuing', 'cert-manager-certificates-trigger']) expect(byName.get(name)?.events, name).toBeGreaterThan(0);
    expect(byName.get(DATABASE_OPERATOR)?.reasons.map((r) => r.reason)).toEqual(expect.arrayContaining(['ReconcileFailed', 'Created', 'Updated', 'Ready']));
    expect(byName.get('cert-manager-certificates-issuing')?.reasons).toContainEqual(expect.objectContaining({ reason: 'Failed', type: 'Warning' }));
    const failed = value(feature.handlers['events:list']({ controller: 'cert-manager-certificates-issuing', type: 'Warning', offset: 0, limit: 10 }));
    expect(failed.events[0]?.object).toMatchObject({ kind: 'Certificate', name: 'storefront-tls', namespace: 'shop' });

    // Every generation of orders-db (created, 17.0, 16.4, scaled back), each caught up as the simulator saw it.
    const reconciles = value(feature.handlers['events:reconciles']({ controller: DATABASE_OPERATOR, limit: 100 }));
    const inferred = reconciles.reconciles.filter((r) => r.workload.kind === 'Database').map((r) => ({ generation: r.generation, start: r.start, end: r.end }));
    expect(truth.map((t) => t.generation)).toEqual([1, 2, 3, 4]);
    expect(truth.every((t) => t.end !== null)).toBe(true);
    expect([...inferred].sort((a, b) => a.generation - b.generation)).toEqual(truth);
    expect(reconciles.reconciles[0]?.workload).toMatchObject({ kind: 'Database', name: 'orders-db', namespace: 'shop' });
    const lags = truth.map((t) => (t.end as number) - t.start).sort((a, b) => a - b);
    expect(byName.get(DATABASE_OPERATOR)?.lag).toMatchObject({ samples: 4, max: lags[3] });
    expect(byName.get(DATABASE_OPERATOR)).toMatchObject({ stuck: 0, pending: 0 });
    // The StatefulSet it owns is the statefulset-controller's reconcile, not the operator's.
    expect(reconciles.reconciles.some((r) => r.workload.kind !== 'Database')).toBe(false);
    expect(value(feature.handlers['events:reconciles']({ controller: 'statefulset-controller', limit: 100 })).reconciles.some((r) => r.workload.name === 'orders-db')).toBe(true);

    // "Who acted" on the Database when it was created reaches its StatefulSet and that one's Pods.
    const first = truth[0] as Truth;
    const uid = reconciles.reconciles[0]?.workload.uid as string;
    const acted = value(feature.handlers['events:actions']({ uid, from: first.start - 1_000, to: first.start + 120_000 }));
    expect(acted.workload).toMatchObject({ kind: 'Database', name: 'orders-db' });
    expect(new Set(acted.actions.map((a) => a.object.kind))).toEqual(new Set(['Database', 'StatefulSet', 'Pod']));
  });
});
