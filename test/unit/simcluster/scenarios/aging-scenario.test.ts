import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { parseScenario, ScenarioError } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const T = (id: string) => typeById(id) as ResourceType;
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const HOUR_MS = 3_600_000;

const scenario = (history: string) => `apiVersion: simcluster.kubedrift.dev/v1alpha1
kind: Scenario
metadata:
  name: aged
spec:
  nodes:
    - name: node-1
  history:
${history}
`;

function start(text: string) {
  const clock = new ManualClock(NOW);
  const store = new ObjectStore({ now: () => clock.now() });
  const errors: unknown[] = [];
  const run = runScenario({
    scenario: parseScenario(text, 'aged.yaml'),
    store,
    clock,
    applyDefaults,
    validate: (type: ResourceType, object: KubeObject, old?: KubeObject) => validate(type, object, old),
    onControllerError: (_name, error) => errors.push(error),
  });
  const advance = (ms: number, step = 500) => {
    for (let done = 0; done < ms; done += step) {
      clock.advance(step);
      run.manager?.drain();
    }
    if (errors.length > 0) throw errors[0];
  };
  return { store, run, advance };
}

describe('scenario spec.history', () => {
  it('starts the scenario as a cluster 72 h old, and the controllers keep its history', () => {
    const { store, run, advance } = start(scenario('    age: 72h'));
    try {
      advance(30_000);
      const sets = store.all(T('replicasets.apps'), 'history');
      expect(sets.map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']).sort()).toEqual(['1', '2', '3']);
      const deployment = store.get(T('deployments.apps'), 'history', 'web');
      expect(deployment.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
      expect(Date.parse(String(deployment.metadata.creationTimestamp))).toBe(NOW - 72 * HOUR_MS);
      // The pods the node runs are the aged ones, still with their restarts.
      const web = store.all(T('pods'), 'history').filter((p) => p.metadata.labels?.['app'] === 'web');
      expect(web.length).toBe(3);
      expect(web.map((p) => (p['status'] as { containerStatuses: Array<{ restartCount: number }> }).containerStatuses[0]?.restartCount).sort()).toEqual([0, 0, 2]);
      for (const pod of web) expect(Date.parse(String(pod.metadata.creationTimestamp))).toBeLessThan(NOW - 12 * HOUR_MS);
    } finally {
      run.stop();
    }
  });

  it('keeps the aged StatefulSet and DaemonSet on their last ControllerRevision: the controllers make no new one and replace no pod', () => {
    const { store, run, advance } = start(scenario('    age: 72h'));
    try {
      const before = store.all(T('pods'), 'history').filter((p) => ['db', 'agent'].includes(p.metadata.labels?.['app'] ?? '')).map((p) => p.metadata.uid).sort();
      advance(30_000);
      const revisions = store.all(T('controllerrevisions.apps'), 'history');
      const of = (kind: string) => revisions.filter((r) => r.metadata.ownerReferences?.[0]?.kind === kind).map((r) => r['revision']).sort();
      expect(of('StatefulSet')).toEqual([1, 2, 3]);
      expect(of('DaemonSet')).toEqual([1, 2, 3]);
      const db = store.get(T('statefulsets.apps'), 'history', 'db')['status'] as { currentRevision: string; updateRevision: string };
      const latest = revisions.find((r) => r['revision'] === 3 && r.metadata.ownerReferences?.[0]?.kind === 'StatefulSet');
      expect(db).toMatchObject({ currentRevision: latest?.metadata.name, updateRevision: latest?.metadata.name });
      for (const r of revisions) expect(Date.parse(String(r.metadata.creationTimestamp))).toBeLessThan(NOW);
      const after = store.all(T('pods'), 'history').filter((p) => ['db', 'agent'].includes(p.metadata.labels?.['app'] ?? '')).map((p) => p.metadata.uid).sort();
      expect(after).toEqual(before);
      expect(after).toHaveLength(3);
    } finally {
      run.stop();
    }
  });

  it('refuses a history without an age, with its path', () => {
    expect(() => parseScenario(scenario('    revisions: 2'), 'aged.yaml')).toThrow(ScenarioError);
    expect(() => parseScenario(scenario('    age: soon'), 'aged.yaml')).toThrow(/spec\.history\.age/);
  });
});
