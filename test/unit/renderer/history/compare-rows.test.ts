import { describe, expect, it } from 'vitest';
import type { Sample, WorkloadChange } from '../../../../shared/contracts/history.ts';
import { changeRow, pair } from '../../../../renderer/views/timeline/compare-rows.ts';
import { T0, workloadRef } from './fixtures.ts';

function sample(values: Partial<Sample>): Sample {
  return { at: T0, desired: 3, current: 3, ready: 3, available: 3, updated: 3, unavailable: 0, generation: 4, observedGeneration: 4, availableCondition: 'True', progressingCondition: 'True', progressingReason: 'NewReplicaSetAvailable', ...values };
}

function change(before: Sample | null, after: Sample | null, changed: string[]): WorkloadChange {
  return { workload: workloadRef('payments-api'), before, after, changed };
}

describe('compare rows', () => {
  it('writes each count as before → after only where it changed', () => {
    expect(pair(sample({}), sample({ desired: 5 }), 'desired')).toBe('3 → 5');
    expect(pair(sample({}), sample({}), 'ready')).toBe('3');
    expect(pair(null, sample({ ready: 2 }), 'ready')).toBe('2');
    expect(pair(sample({ updated: null }), sample({ updated: 1 }), 'updated')).toBe('— → 1');
  });

  it('says a workload lost readiness during a stalled rollout, worst first', () => {
    const row = changeRow(change(sample({}), sample({ ready: 2, generation: 5, progressingCondition: 'False', progressingReason: 'ProgressDeadlineExceeded' }), ['ready', 'generation']));
    expect(row.summary).toBe('Spec changed (generation 4 → 5); rollout stalled (ProgressDeadlineExceeded); 2 of 3 ready (was 3)');
    expect(row.tone).toBe('danger');
    expect(row.ready).toBe('3 → 2');
    expect(row.generation).toBe('4 → 5');
  });

  it('says a workload scaled, recovered, was created or deleted', () => {
    expect(changeRow(change(sample({}), sample({ desired: 5, ready: 3 }), ['desired'])).summary).toBe('Scaled 3 → 5; 3 of 5 ready');
    const recovered = changeRow(change(sample({ ready: 1 }), sample({}), ['ready']));
    expect([recovered.summary, recovered.tone]).toEqual(['All 3 ready again', 'ok']);
    expect(changeRow(change(null, sample({ desired: 2, ready: 0 }), ['created']))).toMatchObject({ summary: 'Created with 2 desired', tone: 'warning' });
    expect(changeRow(change(sample({}), null, ['deleted']))).toMatchObject({ summary: 'Deleted', tone: 'neutral', desired: '3' });
  });

  it('words the other fields plainly, and says nothing of readiness for a ReplicaSet scaled to zero', () => {
    expect(changeRow(change(sample({ progressingReason: 'ReplicaSetUpdated', current: 3 }), sample({ current: 2 }), ['current', 'progressingReason'])).summary).toBe('Pods 3 → 2; progress ReplicaSetUpdated → NewReplicaSetAvailable');
    expect(changeRow(change(sample({ desired: 1, ready: 1 }), sample({ desired: 0, ready: 0 }), ['desired', 'ready'])).summary).toBe('Scaled 1 → 0');
  });
});
