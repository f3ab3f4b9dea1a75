/**
 * The demo's operators in the drift history: the simulated control plane runs the demo scenario
 * while its store's changes are slimmed into the history's cache, as the informers would. The
 * database operator's stall (orders-db bumped to an unsupported Postgres at 2m, fixed at 5m, Ready again once its third replica runs)
 * must come out as one episode of the Database with the operator's reason, and the simulator's
 * own record of the Database says when it began and ended.
 */
import { describe, expect, it } from 'vitest';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

let h: StoreHarness;
harnessPerTest((next) => (h = next));

const DATABASES = 'databases.db.kubedrift.dev';

interface Condition {
  type: string;
  status: string;
}

describe('the demo operators in the drift history', () => {
  it('records the orders-db stall as an episode with the operator\'s reason, from the bump to the recovery', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    h.clock.set(clock.now());
    const store = new ObjectStore({ now: () => clock.now() });
    /** When orders-db stopped and started being Ready, as the simulator wrote it. */
    const readyChanges: Array<[number, string]> = [];
    const stop = store.onChange((change) => {
      const { object } = change;
      if (change.type === 'DELETED') h.cache.delete(change.resource, object.metadata.uid);
      else h.cache.upsert(change.resource, slimObject(object, { kind: change.resource, objectKind: object.kind, apiVersion: object.apiVersion }));
      if (change.resource !== DATABASES || change.type === 'DELETED') return;
      const ready = ((object['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready')?.status ?? 'none';
      if (readyChanges.at(-1)?.[1] !== ready) readyChanges.push([clock.now(), ready]);
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
    try {
      for (let s = 0; s < 10 * 60; s += 1) {
        clock.advance(1_000);
        h.clock.set(clock.now());
        run.manager?.drain();
      }
    } finally {
      run.stop();
      stop();
    }
    expect(problems).toEqual([]);
    await h.store.flush();

    const now = h.clock.now();
    const { episodes } = h.store.episodes.episodes({ from: 0, to: now, kind: DATABASES });
    const stall = episodes.find((episode) => episode.status?.state === 'failed');
    expect(stall).toMatchObject({
      workload: { kind: DATABASES, kindName: 'Database', namespace: 'shop', name: 'orders-db' },
      status: { state: 'failed', reason: 'UnsupportedVersion' },
      trigger: { generation: 2 },
    });
    expect(stall?.reasons).toContain('stalled');
    expect(stall?.status?.message).toContain('17.0 is not supported');
    // It ends when the simulator's orders-db was Ready again after the stall, not before.
    const recovered = readyChanges.find(([at, ready]) => ready === 'True' && at > (stall?.start ?? 0));
    expect(recovered).toBeDefined();
    expect(stall?.end).toBe(recovered?.[0]);
    // Its replica counts were sampled on the way: 16.4 rolled out to 3 replicas after the stall.
    const series = h.store.series({ uid: stall?.workload.uid ?? '', from: 0, to: now });
    expect(series?.series.find((s) => s.name === 'desired')?.points.map((p) => p[1])).toContain(3);
    expect(series?.series.find((s) => s.name === 'ready')?.points.some((p) => p[1] === 0 || p[1] === 1 || p[1] === 2)).toBe(true);
    // The built-in workloads are recorded beside it, as before.
    expect(h.store.episodes.episodes({ from: 0, to: now }).episodes.some((episode) => episode.workload.kind === 'deployments.apps')).toBe(true);
  });
});
