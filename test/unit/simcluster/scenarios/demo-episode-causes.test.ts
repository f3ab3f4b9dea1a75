/**
 * On the demo, the episodes the timeline draws keep what caused them: the history recorder, fed
 * the simulated cluster's workloads and the cause finder's headlines as the causes feature
 * pushes them, closes the notifications and payments-api stalls with their causes kept, long
 * after the pods that showed them were rolled back.
 */
import { describe, expect, it } from 'vitest';
import type { KindKey, SlimObject } from '../../../../shared/cluster.ts';
import { createCauseView, findCauses } from '../../../../electron/engine/causes/index.ts';
import { headlinesOf } from '../../../../electron/engine/history/episode-causes.ts';
import { createRecorder } from '../../../../electron/engine/history/recorder.ts';
import type { EpisodeRecord } from '../../../../electron/engine/history/records.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';

const T = (id: string): ResourceType => typeById(id) as ResourceType;
const WORKLOADS = ['deployments.apps', 'replicasets.apps', 'statefulsets.apps', 'daemonsets.apps', 'jobs.batch', 'horizontalpodautoscalers.autoscaling'];
const READ = [...WORKLOADS, 'nodes', 'pods', 'events', 'persistentvolumeclaims', 'resourcequotas'].map(T);
/** Past payments-api's rollback (8m30s): both stalls have ended. */
const RUN_MS = 9 * 60_000;
/** How often the causes feature pushes while the cluster changes. */
const PUSH_EVERY_MS = 1_000;

describe('the demo scenario in history', () => {
  it('keeps the causes of the notifications and payments-api stalls with their episodes after they ended', () => {
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
    const recorder = createRecorder({ now: () => clock.now(), history: { previous: () => undefined, openEpisodes: new Map(), openRollouts: new Map(), nextEpisodeId: 1 } });
    const episodes = new Map<number, EpisodeRecord>();
    const names = new Map<string, string>();
    for (let at = 0; at < RUN_MS; at += PUSH_EVERY_MS) {
      clock.advance(PUSH_EVERY_MS);
      run.manager?.drain();
      for (const id of WORKLOADS) {
        for (const object of store.all(T(id)) as unknown as SlimObject[]) {
          names.set(object.metadata.uid, `${object.metadata.namespace}/${object.metadata.name}`);
          recorder.onChange({ type: 'upsert', kind: id as KindKey, object, previous: undefined });
        }
      }
      const reports = findCauses(createCauseView(READ.flatMap((type) => store.all(type)) as unknown as SlimObject[]), { now: clock.now() });
      recorder.noteCauses(headlinesOf({ context: 'demo', revision: at, at: clock.now(), reports }), clock.now());
      for (const [id, episode] of recorder.take().episodes) episodes.set(id, episode);
    }
    run.stop();
    expect(problems).toEqual([]);

    const of = (name: string) => [...episodes.values()].filter((episode) => names.get(episode.uid) === name && episode.end !== null);
    const withCode = (name: string, code: string) => of(name).filter((episode) => episode.causes?.some((cause) => cause.code === code));
    // The rollout stalls past its deadline: the verdict, and underneath it the pod failing its probe.
    const [notifications] = withCode('platform/notifications', 'progress-deadline');
    // (Later, worker-2 goes NotReady under one of its pods: noted after these.)
    expect(notifications?.causes?.slice(0, 2).map((cause) => [cause.code, cause.under ?? false])).toEqual([
      ['progress-deadline', false],
      ['readiness-probe', true],
    ]);
    expect(notifications?.causes?.[1]?.evidence?.kind).toBe('Pod');
    const [payments] = withCode('payments/payments-api', 'image-pull');
    expect(payments?.causes?.find((cause) => cause.code === 'image-pull')?.sentence).toMatch(/can't pull ghcr\.io\/acme-shop\/payments-api:broken/);
    // The "not ready" fallback gave way to the causes the finder named.
    expect(payments?.causes?.map((cause) => cause.code)).not.toContain('not-ready');
    for (const episode of [notifications, payments]) {
      expect(episode?.causes?.length).toBeLessThanOrEqual(4);
      for (const cause of episode?.causes ?? []) expect(cause.at).toBeGreaterThanOrEqual(episode?.start ?? Infinity);
    }
  });
});
