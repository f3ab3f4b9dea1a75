/**
 * The demo shows why workloads drift early: within its first 5 minutes the cause finder, fed
 * only what the simulated cluster holds, names at least four different causes (six, on the
 * workloads the timeline breaks).
 */
import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { createCauseView, findCauses, type CauseCode } from '../../../../electron/engine/causes/index.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';

const T = (id: string): ResourceType => typeById(id) as ResourceType;
const READ = ['nodes', 'pods', 'events', 'persistentvolumeclaims', 'resourcequotas', 'deployments.apps', 'replicasets.apps', 'statefulsets.apps', 'daemonsets.apps', 'jobs.batch', 'horizontalpodautoscalers.autoscaling'].map(T);
const FIVE_MINUTES_MS = 5 * 60_000;
/** Long enough for the uploads story (7m15s) too. */
const RUN_MS = 8 * 60_000;
const LOOK_EVERY_MS = 5_000;

describe('the demo scenario', () => {
  it('shows at least four distinct drift causes within its first 5 minutes, each on the workload its timeline breaks, and a pending claim later', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const store = new ObjectStore({ now: () => clock.now() });
    const problems: string[] = [];
    const run = runScenario({
      scenario: loadScenario('demo'),
      store,
      clock,
      applyDefaults,
      validate: (type, object, old) => validate(type, object, old),
      onActionError: (entry, error) => problems.push(`line ${entry.line}: ${String(error)}`),
      onControllerError: (name, error) => problems.push(`${name}: ${String(error)}`),
    });
    /** Each cause code seen, with the workloads it was seen on and when (seconds into the demo). */
    const seen = new Map<CauseCode, Map<string, number>>();
    const start = clock.now();
    for (let at = 0; at < RUN_MS; at += 1_000) {
      clock.advance(1_000);
      run.manager?.drain();
      if ((at + 1_000) % LOOK_EVERY_MS !== 0) continue;
      const view = createCauseView(READ.flatMap((type) => store.all(type)) as unknown as SlimObject[]);
      for (const report of findCauses(view, { now: clock.now() })) {
        // The headline causes and the leaves under them (what the "Why it drifts" chain shows).
        for (const cause of report.causes.flatMap((head) => [head, ...(head.underneath ?? [])])) {
          const workloads = seen.get(cause.code) ?? new Map<string, number>();
          if (!workloads.has(report.target.name)) workloads.set(report.target.name, (clock.now() - start) / 1000);
          seen.set(cause.code, workloads);
        }
      }
    }
    run.stop();
    expect(problems).toEqual([]);
    /** The workloads a cause was seen on within the first 5 minutes. */
    const on = (code: CauseCode): string[] => [...(seen.get(code) ?? new Map<string, number>())].filter(([, second]) => second <= FIVE_MINUTES_MS / 1000).map(([name]) => name);
    expect(on('readiness-probe')).toContain('notifications');
    expect(on('progress-deadline')).toContain('notifications');
    expect(on('rollout-paused')).toContain('fraud-check');
    expect(on('hpa-metrics')).toContain('frontend');
    expect(on('node-not-ready').length).toBeGreaterThan(0);
    expect(on('image-pull')).toContain('payments-api');
    const distinct = (['readiness-probe', 'progress-deadline', 'rollout-paused', 'hpa-metrics', 'node-not-ready', 'image-pull'] as const).filter((code) => on(code).length > 0);
    expect(distinct.length).toBeGreaterThanOrEqual(4);
    // Later in the cycle: a claim of a storage class the cluster does not have.
    expect(seen.get('pvc-pending')?.get('uploads')).toBeGreaterThan(7 * 60);
  });
});
