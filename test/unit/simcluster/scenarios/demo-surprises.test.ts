/**
 * The demo shows the reconcile surprises early: within its first 5 minutes a pod deleted by hand
 * is recreated by replicaset-controller, an engineer's `kubectl scale` fights the frontend HPA
 * over spec.replicas (managedFields name both), and a rollout stalls. The detector is fed the
 * store's changes as the engine's cache would see them.
 */
import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { Surprise } from '../../../../shared/contracts/surprises.ts';
import { SurpriseDetector } from '../../../../electron/engine/surprises/detect.ts';
import { writerOf } from '../../../../electron/engine/surprises/writers.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';

const KINDS = ['pods', 'replicasets.apps', 'deployments.apps'];
const FIVE_MINUTES_MS = 5 * 60_000;

describe('the demo scenario', () => {
  it('shows a recreated pod, a fight with the frontend HPA and a stalled rollout within its first 5 minutes', () => {
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
    const seen = new Map<string, Map<string, SlimObject>>(KINDS.map((kind) => [kind, new Map()]));
    const detector = new SurpriseDetector((ref) => {
      for (const [kind, objects] of seen) {
        const object = objects.get(ref.uid);
        if (object) return { kind, object };
      }
      return undefined;
    });
    const found: Surprise[] = [];
    const start = clock.now();
    for (let at = 0; at < FIVE_MINUTES_MS; at += 1_000) {
      clock.advance(1_000);
      run.manager?.drain();
      for (const kind of KINDS) {
        const before = seen.get(kind) as Map<string, SlimObject>;
        const now = new Map((store.all(typeById(kind) as ResourceType) as unknown as SlimObject[]).map((o) => [o.metadata.uid, o]));
        // In resourceVersion order, as a watch delivers them (a deletion before its replacement).
        const changed = [...now.values()].filter((o) => before.get(o.metadata.uid)?.metadata.resourceVersion !== o.metadata.resourceVersion);
        changed.sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
        for (const object of changed) {
          const uid = object.metadata.uid;
          const previous = before.get(uid);
          before.set(uid, object);
          found.push(...detector.observe({ type: 'upsert', kind, object, previous }, clock.now()));
          const replicas = (o: SlimObject | undefined) => (o?.['spec'] as { replicas?: number } | undefined)?.replicas;
          if (kind === 'deployments.apps' && previous && replicas(previous) !== replicas(object)) {
            const write = writerOf(object, ['spec', 'replicas'], String(replicas(object)), clock.now());
            const fight = write && detector.recordWrite(kind, object, 'spec.replicas', write);
            if (fight) found.push(fight);
          }
        }
        for (const [uid, object] of before) {
          if (now.has(uid)) continue;
          before.delete(uid);
          found.push(...detector.observe({ type: 'delete', kind, ref: { kind, uid }, object }, clock.now()));
        }
      }
    }
    run.stop();
    expect(problems).toEqual([]);
    const first = (type: Surprise['type']) => found.find((s) => s.type === type);
    expect(first('recreated')).toMatchObject({ actor: 'replicaset-controller', workload: { name: 'cart', namespace: 'shop' } });
    const fight = first('fight');
    expect(fight).toMatchObject({ field: 'spec.replicas', workload: { name: 'frontend' } });
    expect(new Set(fight?.writes?.map((w) => `${w.manager}/${w.subresource ?? ''}`))).toEqual(new Set(['kubectl/scale', 'kube-controller-manager/scale']));
    expect(first('stalled')?.message).toContain('ProgressDeadlineExceeded');
    for (const type of ['recreated', 'fight', 'stalled'] as const) expect((first(type)?.at ?? Infinity) - start).toBeLessThan(FIVE_MINUTES_MS);
  });
});
