import { describe, expect, it } from 'vitest';
import { EpisodeSchema, MAX_EPISODE_CAUSES } from '../../../shared/contracts/history.ts';
import { causedByText } from '../../../shared/episode-cause-text.ts';

describe('how an episode says what caused it', () => {
  it('says "caused by" the first cause, "underneath:" a leaf found under a verdict, "then" a later one', () => {
    expect(
      causedByText([
        { at: 1, code: 'progress-deadline', sentence: 'Deployment notifications exceeded its progress deadline' },
        { at: 1, code: 'readiness-probe', sentence: '1 new pod fails its readiness probe', under: true },
        { at: 9, code: 'node-not-ready', sentence: 'Node worker-2 is NotReady' },
      ]),
    ).toBe('caused by Deployment notifications exceeded its progress deadline · underneath: 1 new pod fails its readiness probe · then Node worker-2 is NotReady');
  });

  it('says nothing for an episode that kept no cause', () => {
    expect(causedByText(undefined)).toBeNull();
    expect(causedByText([])).toBeNull();
  });
});

describe('the episode contract with causes', () => {
  const base = { id: 1, workload: { kind: 'deployments.apps', namespace: 'shop', name: 'api', uid: 'u1' }, start: 0, end: 10, durationMs: 10, peakGap: 1, reasons: ['ready'], trigger: null };
  const cause = (code: string) => ({ at: 1, code, sentence: `${code} sentence` });

  it('accepts an episode without causes (recorded before they were kept) and one with a code this build does not know', () => {
    expect(EpisodeSchema.safeParse(base).success).toBe(true);
    expect(EpisodeSchema.safeParse({ ...base, causes: [{ ...cause('some-future-code'), evidence: { kind: 'Pod', name: 'api-1' }, under: true }] }).success).toBe(true);
  });

  it(`refuses more than ${MAX_EPISODE_CAUSES} causes, and a cause without its sentence`, () => {
    expect(EpisodeSchema.safeParse({ ...base, causes: ['a', 'b', 'c', 'd', 'e'].map(cause) }).success).toBe(false);
    expect(EpisodeSchema.safeParse({ ...base, causes: [{ at: 1, code: 'image-pull' }] }).success).toBe(false);
  });
});
