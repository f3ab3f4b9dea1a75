import { describe, expect, it } from 'vitest';
import { AppliedStates } from '../../bench/latest-state.ts';
import { deriveRatios } from '../../bench/ratios.ts';
import { seedLayout } from '../../../electron/engine/simcluster/scenarios/seed-layout.ts';

describe('latest-state latency', () => {
  it('counts a write whose state was coalesced away as done when a newer state of the same object is applied', () => {
    const applied = new AppliedStates();
    // Two pods, a and b; writes (rv, time): a@10 t=0, b@11 t=1, a@12 t=2 (a@10 never applied: coalesced into 12).
    applied.note('b', 11, 5);
    applied.note('a', 12, 9);
    const { latencies, missing, lastAppliedAt } = applied.latencies([10, 0, 11, 1, 12, 2], ['a', 'b']);
    expect(latencies).toEqual([9, 4, 7]);
    expect(missing).toBe(0);
    expect(lastAppliedAt).toBe(9);
  });

  it('counts a write no applied state caught up with as missing', () => {
    const applied = new AppliedStates();
    applied.note('a', 10, 3);
    const { latencies, missing } = applied.latencies([10, 0, 12, 1], ['a']);
    expect(latencies).toEqual([3]);
    expect(missing).toBe(1);
  });
});

describe('ratio goals', () => {
  it('divides each headline time by the yardstick measured in the same run, only when both were measured', () => {
    expect(deriveRatios({ initial_sync_50k_pods_ms: 3_000, json_parse_50k_pods_ms: 2_000 }, { pods: 50_000, scalePods: 150_000 })).toEqual({ initial_sync_vs_json_parse: 1.5 });
    expect(deriveRatios({ initial_sync_50k_pods_ms: 3_000 }, { pods: 50_000, scalePods: 150_000 })).toEqual({});
  });

  it('compares the scale sync per pod with the 50,000-pod engine sync per pod', () => {
    const ratios = deriveRatios(
      { initial_sync_150k_pods_ms: 9_600, json_parse_150k_pods_ms: 8_000, initial_sync_50k_pods_300_crds_ms: { with_crds: 3_300, without_crds: 3_000, runs: 3 } },
      { pods: 50_000, scalePods: 150_000 },
    );
    expect(ratios).toEqual({ initial_sync_150k_vs_json_parse: 1.2, initial_sync_150k_linearity: 1.07 });
  });
});

describe('seed layout', () => {
  it('lays out Kubernetes\' ceiling as 50 namespaces x 60 Deployments x 50 pods, 30 pods on each of 5,000 nodes', () => {
    expect(seedLayout({ pods: 150_000, nodes: 5_000, namespaces: 50 })).toEqual({ namespaces: 50, deploymentsPerNamespace: 60, podsPerDeployment: 50, podsPerNode: 30 });
  });

  it('says which flag is wrong', () => {
    expect(() => seedLayout({ pods: 200_000, nodes: 5_000, namespaces: 50 })).toThrow('--pods must be a whole number from 1 to 150,000, got 200000');
    expect(() => seedLayout({ pods: 1_001, nodes: 10, namespaces: 10 })).toThrow('--pods (1001) must be a multiple of --namespaces (10)');
    expect(() => seedLayout({ pods: 50_000, nodes: 100, namespaces: 50 })).toThrow('500 pods per node, above kubelet\'s 110: give at least 455 nodes');
  });
});
