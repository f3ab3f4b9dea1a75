import { describe, expect, it } from 'vitest';
import { driftOf, rolloutComplete } from '../../../../electron/engine/history/drift.ts';
import { allocateColumns, appendSample, blockBytes, decodeInto, EMPTY_VALUES, newBlock, resumeBlock, sampleAt, type SampleValues } from '../../../../electron/engine/history/sample-codec.ts';
import { imagesOf, sampleOf } from '../../../../electron/engine/history/sample.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { deployment } from './fixtures.ts';
import { builtinKeyOf } from '../../../../shared/builtin-kinds.ts';

const values = (patch: Partial<SampleValues>): SampleValues => ({ ...EMPTY_VALUES, ...patch });

describe('sample codec', () => {
  it('round-trips samples, nulls, negative numbers, conditions and reasons', () => {
    const samples: Array<{ at: number; values: SampleValues }> = [
      { at: 1_000, values: values({ desired: 3, ready: 0, generation: 7, observedGeneration: 6, availableCondition: 'False', progressingCondition: 'True', progressingReason: 'ReplicaSetUpdated' }) },
      { at: 1_000, values: values({ desired: 3, ready: 2, generation: 7, observedGeneration: 7, availableCondition: 'True', progressingCondition: 'True', progressingReason: 'ReplicaSetUpdated' }) },
      { at: 61_000, values: values({ desired: 3, ready: 2, generation: 7, observedGeneration: 7, availableCondition: 'True', progressingCondition: 'True', progressingReason: 'ReplicaSetUpdated' }) },
      { at: 5_000_000_000, values: values({ desired: -5, current: 2 ** 40, progressingCondition: 'Unknown', progressingReason: 'Ünïcode ✓' }) },
      { at: 5_000_000_001, values: EMPTY_VALUES },
    ];
    const block = newBlock(1_000);
    for (const s of samples) appendSample(block, s.at, s.values);
    const columns = allocateColumns(samples.length);
    expect(decodeInto(1_000, blockBytes(block).slice(), columns)).toBe(5);
    const resumed = resumeBlock(1_000, blockBytes(block).slice(), 5);
    expect(resumed).toMatchObject({ count: 5, last: 5_000_000_001, previous: EMPTY_VALUES });
    samples.forEach((s, i) => expect(sampleAt(columns, i)).toEqual({ at: s.at, ...s.values }));
  });

  it('costs a few bytes for a heartbeat that changes nothing', () => {
    const block = newBlock(0);
    const v = values({ desired: 3, ready: 3, available: 3, updated: 3, generation: 4, observedGeneration: 4, availableCondition: 'True', progressingCondition: 'True', progressingReason: 'NewReplicaSetAvailable' });
    appendSample(block, 0, v);
    const first = block.length;
    for (let i = 1; i <= 100; i++) appendSample(block, i * 1_000, v);
    expect((block.length - first) / 100).toBeLessThanOrEqual(3);
  });

  it('continues a decoded block exactly where it stopped', () => {
    const block = newBlock(0);
    appendSample(block, 0, values({ desired: 1 }));
    appendSample(block, 10, values({ desired: 2 }));
    const resumed = resumeBlock(0, blockBytes(block).slice(), 2);
    appendSample(resumed, 20, values({ desired: 2, ready: 1 }));
    const columns = allocateColumns(3);
    decodeInto(0, blockBytes(resumed), columns);
    expect(Array.from(columns.at)).toEqual([0, 10, 20]);
    expect(Array.from(columns.counts.desired)).toEqual([1, 2, 2]);
    expect(Array.from(columns.counts.ready)).toEqual([NaN, NaN, 1]);
  });
});

describe('samples of each kind', () => {
  it('reads a Deployment, treating omitted counts as 0', () => {
    const d = deployment('web', 'u1', { replicas: 3, ready: 2, generation: 5, observedGeneration: 4 });
    delete (d['status'] as Record<string, unknown>)['unavailableReplicas'];
    expect(sampleOf(d, builtinKeyOf(d))).toEqual({
      desired: 3,
      current: 3,
      ready: 2,
      available: 2,
      updated: 3,
      unavailable: 0,
      generation: 5,
      observedGeneration: 4,
      availableCondition: 'False',
      progressingCondition: 'True',
      progressingReason: 'NewReplicaSetAvailable',
    });
    expect(imagesOf(d)).toBe('web:v1');
  });

  it('reads a DaemonSet, a Job and an HPA by their own fields', () => {
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { uid: 'd', name: 'ne', resourceVersion: '1', generation: 2 }, spec: {}, status: { desiredNumberScheduled: 4, currentNumberScheduled: 4, numberReady: 3, updatedNumberScheduled: 4, numberAvailable: 3, numberUnavailable: 1, observedGeneration: 2 } } as SlimObject;
    expect(sampleOf(ds, builtinKeyOf(ds))).toMatchObject({ desired: 4, current: 4, ready: 3, available: 3, updated: 4, unavailable: 1, generation: 2, observedGeneration: 2 });
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { uid: 'j', name: 'r', resourceVersion: '1', generation: 1 }, spec: { completions: 3 }, status: { active: 1, succeeded: 2, failed: 1, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] } } as SlimObject;
    expect(sampleOf(job, builtinKeyOf(job))).toMatchObject({ desired: 3, current: 1, available: 2, unavailable: 1, progressingCondition: 'False', progressingReason: 'BackoffLimitExceeded', observedGeneration: null });
    const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { uid: 'h', name: 'f', resourceVersion: '1', generation: 1 }, spec: {}, status: { currentReplicas: 3, desiredReplicas: 5, conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' }] } } as SlimObject;
    expect(sampleOf(hpa, builtinKeyOf(hpa))).toMatchObject({ desired: 5, current: 3, ready: null, updated: null, progressingCondition: 'True', progressingReason: 'ReadyForNewScale' });
    expect(sampleOf({ apiVersion: 'v1', kind: 'Pod', metadata: { uid: 'p', name: 'p', resourceVersion: '1' } } as SlimObject, 'pods')).toBeNull();
  });
});

describe('drift', () => {
  const healthy = values({ desired: 2, current: 2, ready: 2, available: 2, updated: 2, generation: 3, observedGeneration: 3, progressingCondition: 'True', progressingReason: 'NewReplicaSetAvailable' });

  it('a settled Deployment does not drift; each cause is named', () => {
    expect(driftOf('deployments.apps', healthy)).toEqual({ reasons: [], gap: 0 });
    expect(driftOf('deployments.apps', { ...healthy, observedGeneration: 2 }).reasons).toEqual(['generation']);
    expect(driftOf('deployments.apps', { ...healthy, ready: 0 })).toEqual({ reasons: ['ready'], gap: 2 });
    expect(driftOf('deployments.apps', { ...healthy, progressingCondition: 'False', progressingReason: 'ProgressDeadlineExceeded' }).reasons).toEqual(['stalled']);
  });

  it('a scale-up or a first rollout is rolling out, not stalled', () => {
    const scalingUp = { ...healthy, desired: 4, current: 4, ready: 2, available: 2, updated: 2, generation: 4, observedGeneration: 4, progressingReason: 'ReplicaSetUpdated' };
    expect(driftOf('deployments.apps', scalingUp).reasons).toEqual(['ready', 'progressing']);
    const first = values({ desired: 3, current: 0, ready: 0, available: 0, updated: 0, generation: 1, observedGeneration: 1, progressingCondition: 'True', progressingReason: 'NewReplicaSetCreated' });
    expect(driftOf('deployments.apps', first).reasons).toEqual(['ready', 'progressing']);
    expect(driftOf('statefulsets.apps', { ...scalingUp, progressingCondition: null, progressingReason: null }).reasons).toEqual(['ready', 'progressing']);
  });

  it('a rollout past its progress deadline is stalled, not rolling out', () => {
    const stuck = { ...healthy, current: 3, updated: 1, progressingCondition: 'False' as const, progressingReason: 'ProgressDeadlineExceeded' };
    expect(driftOf('deployments.apps', stuck).reasons).toEqual(['stalled']);
  });

  it('a rollout stuck on a bad image drifts although the old pods stay ready', () => {
    const stuck = { ...healthy, current: 3, updated: 1, progressingReason: 'ReplicaSetUpdated' };
    expect(driftOf('deployments.apps', stuck).reasons).toEqual(['progressing']);
  });

  it('a running Job is not drift; a failing one is', () => {
    expect(driftOf('jobs.batch', values({ desired: 3, current: 1, available: 1, unavailable: 0 })).reasons).toEqual([]);
    expect(driftOf('jobs.batch', values({ desired: 3, current: 1, available: 1, unavailable: 2 }))).toEqual({ reasons: ['progressing'], gap: 2 });
    expect(driftOf('jobs.batch', values({ desired: 3, available: 1, unavailable: 7, progressingCondition: 'False', progressingReason: 'BackoffLimitExceeded' }))).toEqual({ reasons: ['stalled'], gap: 2 });
    expect(driftOf('jobs.batch', values({ desired: 1, available: 1, unavailable: 2, progressingCondition: 'True' })).reasons).toEqual([]);
  });

  it('an HPA drifts while its current replicas differ from the desired ones', () => {
    expect(driftOf('horizontalpodautoscalers.autoscaling', values({ desired: 5, current: 3 }))).toEqual({ reasons: ['ready'], gap: 2 });
    expect(driftOf('horizontalpodautoscalers.autoscaling', values({ desired: 5, current: 5 })).reasons).toEqual([]);
    expect(driftOf('horizontalpodautoscalers.autoscaling', values({ desired: 5, current: 5, availableCondition: 'False' })).reasons).toEqual(['stalled']);
  });

  it('a Deployment rollout completes only when counts and the condition agree', () => {
    expect(rolloutComplete('deployments.apps', healthy, 3)).toBe(true);
    expect(rolloutComplete('deployments.apps', healthy, 4)).toBe(false);
    expect(rolloutComplete('deployments.apps', { ...healthy, updated: 1 }, 3)).toBe(false);
    expect(rolloutComplete('deployments.apps', { ...healthy, progressingReason: 'ReplicaSetUpdated' }, 3)).toBe(false);
    expect(rolloutComplete('statefulsets.apps', { ...healthy, ready: 1 }, 3)).toBe(false);
    expect(rolloutComplete('replicasets.apps', { ...healthy, ready: 1 }, 3)).toBe(true);
  });
});
