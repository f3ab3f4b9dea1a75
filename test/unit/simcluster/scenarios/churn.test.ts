import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { startChurn } from '../../../../electron/engine/simcluster/scenarios/churn.ts';
import { fromLabelSelectorObject, matchesLabels } from '../../../../electron/engine/simcluster/selectors.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';

const T = (id: string) => typeById(id) as ResourceType;

function setup(eventsPerSecond: number, sizes = { namespaces: 2, deploymentsPerNamespace: 3, podsPerDeployment: 5 }) {
  const clock = new ManualClock();
  const store = new ObjectStore({ now: () => clock.now() });
  const churn = startChurn({ store, clock, eventsPerSecond, ...sizes });
  return { clock, store, churn };
}

describe('startChurn', () => {
  it('seeds namespaces, deployments, replica sets and Running, Ready pods', () => {
    const { store, churn } = setup(0, { namespaces: 3, deploymentsPerNamespace: 4, podsPerDeployment: 50 });
    expect(churn.counters).toMatchObject({ namespaces: 3, deployments: 12, replicaSets: 12, pods: 600, nodes: 6, modifications: 0 });
    expect(store.all(T('pods'))).toHaveLength(600);
    expect(store.all(T('namespaces')).map((n) => n.metadata.name)).toEqual(['churn-000', 'churn-001', 'churn-002']);
    const [deployment] = store.all(T('deployments.apps'), 'churn-001');
    const rs = store.all(T('replicasets.apps'), 'churn-001').find((r) => r.metadata.ownerReferences?.[0]?.uid === deployment?.metadata.uid);
    expect(rs).toBeDefined();
    const selector = fromLabelSelectorObject((rs?.['spec'] as { selector: Parameters<typeof fromLabelSelectorObject>[0] }).selector);
    const pods = store.all(T('pods'), 'churn-001').filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs?.metadata.uid);
    expect(pods).toHaveLength(50);
    for (const pod of pods) {
      expect(matchesLabels(selector, pod.metadata.labels)).toBe(true);
      expect(pod['status']).toMatchObject({ phase: 'Running', conditions: expect.arrayContaining([expect.objectContaining({ type: 'Ready', status: 'True' })]) });
      expect((pod['spec'] as { nodeName: string }).nodeName).toMatch(/^churn-node-\d{4}$/);
    }
    expect(new Set(store.all(T('pods')).map((p) => (p['status'] as { podIP: string }).podIP)).size).toBe(600);
  });

  it('writes pods of a real pod size', () => {
    const { store } = setup(0);
    for (const pod of store.all(T('pods'))) {
      const size = JSON.stringify(pod).length;
      expect(size).toBeGreaterThan(3_500);
      expect(size).toBeLessThan(6_000);
    }
  });

  it('makes exactly eventsPerSecond modifications per second, steadily', () => {
    const { clock, churn } = setup(200);
    const perSecond: number[] = [];
    let before = 0;
    for (let s = 0; s < 10; s += 1) {
      clock.advance(1_000);
      perSecond.push(churn.counters.modifications - before);
      before = churn.counters.modifications;
    }
    expect(perSecond).toEqual(new Array(10).fill(200));
  });

  it('keeps a low rate exact over time', () => {
    const { clock, churn } = setup(3);
    clock.advance(10_000);
    expect(churn.counters.modifications).toBe(30);
  });

  it('mixes readiness flips, label changes and restarts, and each shows in the store', () => {
    const { clock, store, churn } = setup(1_000);
    const rvBefore = store.currentRv();
    clock.advance(5_000);
    const { modifications, statusFlips, labelChanges, restarts } = churn.counters;
    expect(modifications).toBe(5_000);
    expect(statusFlips + labelChanges + restarts).toBe(modifications);
    expect(statusFlips / modifications).toBeGreaterThan(0.55);
    expect(labelChanges / modifications).toBeGreaterThan(0.2);
    expect(restarts / modifications).toBeGreaterThan(0.1);
    expect(store.currentRv() - rvBefore).toBe(modifications);
    const pods = store.all(T('pods'));
    const restarted = pods.filter((p) => Number((p['status'] as { containerStatuses: Array<{ restartCount: number }> }).containerStatuses[0]?.restartCount) > 0);
    expect(restarted.length).toBeGreaterThan(0);
    expect(restarted[0]?.['status']).toMatchObject({ containerStatuses: [expect.objectContaining({ lastState: { terminated: expect.objectContaining({ exitCode: 137, reason: 'OOMKilled' }) } })] });
    expect(pods.some((p) => p.metadata.labels?.['churn.kubedrift.dev/revision'] !== undefined)).toBe(true);
    expect(pods.some((p) => (p['status'] as { conditions: Array<{ type: string; status: string }> }).conditions.some((c) => c.type === 'Ready' && c.status === 'False'))).toBe(true);
  });

  it('stops modifying when stopped', () => {
    const { clock, churn } = setup(100);
    clock.advance(2_000);
    churn.stop();
    clock.advance(5_000);
    expect(churn.counters.modifications).toBe(200);
  });
});
