/**
 * The two pure rules of state at / compare with history sources (sources/past.ts): whether an
 * observer's coverage includes a moment, and the changes between two moments each observed by
 * someone else.
 */
import { describe, expect, it } from 'vitest';
import { coversAt, joinMoments } from '../../../../electron/engine/history/sources/past.ts';
import type { Sample, WorkloadChange } from '../../../../shared/contracts/history.ts';

const sample = (at: number, ready: number): Sample => ({
  at,
  desired: 3,
  current: 3,
  ready,
  available: ready,
  updated: 3,
  unavailable: 3 - ready,
  generation: 2,
  observedGeneration: 2,
  availableCondition: ready === 3 ? 'True' : 'False',
  progressingCondition: 'True',
  progressingReason: 'NewReplicaSetAvailable',
});
const ref = (name: string) => ({ kind: 'deployments.apps', namespace: 'shop', name, uid: `uid-${name}` });
/** A workload present at a moment, as a compare from before anything existed gives it. */
const present = (name: string, at: number, ready: number): WorkloadChange => ({ workload: ref(name), before: null, after: sample(at, ready), changed: ['created'] });

describe('an observer\'s coverage of a moment', () => {
  const gaps = [{ start: 1_000, end: 2_000, reason: 'app-closed' as const }];
  it('includes a moment recorded by then and in no gap, its edges included', () => {
    expect(coversAt({ since: 500, gaps }, 700)).toBe(true);
    expect(coversAt({ since: 500, gaps }, 1_000)).toBe(true);
    expect(coversAt({ since: 500, gaps }, 2_000)).toBe(true);
    expect(coversAt({ since: 500, gaps }, 1_500)).toBe(false);
  });
  it('excludes a moment before its history, with nothing recorded, or when it does not say (an older engine)', () => {
    expect(coversAt({ since: 500, gaps }, 400)).toBe(false);
    expect(coversAt({ since: null, gaps: [] }, 400)).toBe(false);
    expect(coversAt({ since: 500 }, 700)).toBe(false);
  });
});

describe('the changes between two moments observed apart', () => {
  it('compares each workload as seen at each moment, with created and deleted, sorted as the store lists them', () => {
    const atT1 = [present('web', 100, 1), present('old', 100, 3), present('same', 100, 3)];
    const atT2 = [present('web', 900, 3), present('api', 900, 3), present('same', 900, 3)];
    const changes = joinMoments(atT1, atT2);
    expect(changes.map((change) => [change.workload.name, change.changed])).toEqual([
      ['api', ['created']],
      ['old', ['deleted']],
      ['web', ['ready', 'available', 'unavailable', 'availableCondition']],
    ]);
    expect(changes.find((change) => change.workload.name === 'web')).toMatchObject({ before: { at: 100, ready: 1 }, after: { at: 900, ready: 3 } });
  });
});
