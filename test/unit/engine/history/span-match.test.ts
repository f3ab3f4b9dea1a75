/**
 * The ground-truth test's span matching (span-match.ts): what it forgives at the resolution
 * threshold, and that it forgives nothing else.
 */
import { describe, expect, it } from 'vitest';
import { matchSpans, type Span } from './span-match.ts';

const T0 = 1_700_000_000_000;
const OPTIONS = { resolutionMs: 500, toleranceMs: 1_000, window: { from: T0, to: T0 + 60_000 }, endsComparedUntil: T0 + 60_000 };
const at = (startS: number, endMs: number | null): Span => ({ start: T0 + startS * 1_000, end: endMs === null ? null : T0 + startS * 1_000 + endMs });

describe('matchSpans at the resolution threshold', () => {
  it('forgives a 517 ms recorded span the simulator had under the resolution (dropped)', () => {
    // The simulator saw 480 ms (under 500 ms: dropped); its end was read 37 ms late by the recorder.
    const match = matchSpans([at(5, 3_000), at(20, 480)], [at(5.1, 3_050), at(20.02, 517)], OPTIONS);
    expect(match.problems).toEqual([]);
    expect(match.matched).toBe(1);
    expect(match.forgiven).toEqual([{ side: 'actual', span: at(20.02, 517), why: 'near the resolution' }]);
  });

  it('forgives a simulator span of 520 ms that the recorder saw as 490 ms (dropped)', () => {
    const match = matchSpans([at(20, 520)], [at(20.03, 490)], OPTIONS);
    expect(match.problems).toEqual([]);
    expect(match.forgiven).toEqual([{ side: 'expected', span: at(20, 520), why: 'near the resolution' }]);
  });

  it('fails a 3 s recorded span the simulator does not have', () => {
    const match = matchSpans([at(5, 3_000)], [at(5.1, 3_050), at(20, 3_000)], OPTIONS);
    expect(match.problems).toEqual([`recorded but not in the simulator: ${T0 + 20_000}..${T0 + 23_000} (3000 ms)`]);
  });

  it('fails a 3 s simulator span missing from the recording', () => {
    const match = matchSpans([at(5, 3_000), at(20, 3_000)], [at(5.1, 3_050)], OPTIONS);
    expect(match.problems).toEqual([`missing from the recording: ${T0 + 20_000}..${T0 + 23_000} (3000 ms)`]);
  });

  it('fails a span just over resolution + tolerance present on one side only', () => {
    expect(matchSpans([at(20, 1_500)], [], OPTIONS).problems).toHaveLength(1);
    expect(matchSpans([at(20, 1_499)], [], OPTIONS).problems).toEqual([]);
  });

  it('fails an open simulator span missing from the recording however short it is so far', () => {
    expect(matchSpans([at(20, null)], [], OPTIONS).problems).toHaveLength(1);
  });

  it('fails edges off by more than the tolerance, and passes them within it', () => {
    expect(matchSpans([at(20, 5_000)], [at(23, 2_000)], OPTIONS).problems).toHaveLength(2);
    expect(matchSpans([at(20, 5_000)], [at(20, 8_000)], OPTIONS).problems).toEqual([`end off by 3000 ms: ${T0 + 20_000}..${T0 + 28_000} (8000 ms) vs ${T0 + 20_000}..${T0 + 25_000} (5000 ms)`]);
    expect(matchSpans([at(20, 5_000)], [at(20.9, 5_050)], OPTIONS).problems).toEqual([]);
  });

  it('fails an episode still open in the recording that the simulator ended', () => {
    expect(matchSpans([at(20, 5_000)], [at(20.1, null)], OPTIONS).problems).toEqual([expect.stringContaining('still open in the recording')]);
  });

  it('joins across a gap under resolution + tolerance that one side did not see, not across a longer one', () => {
    // The simulator saw 600 ms of no drift; the recorder (keeping only the latest state under load) never did.
    expect(matchSpans([at(20, 3_000), at(23.6, 3_000)], [at(20.1, 6_600)], OPTIONS).problems).toEqual([]);
    // The recorder closed its episode for a 450 ms watch restart the simulator knows nothing of.
    expect(matchSpans([at(20, 6_000)], [at(20.1, 3_000), at(23.55, 2_500)], OPTIONS).problems).toEqual([]);
    // 3 s of no drift missed by the recorder is a real difference.
    expect(matchSpans([at(20, 3_000), at(26, 3_000)], [at(20.1, 9_000)], OPTIONS).problems).not.toEqual([]);
  });

  it('does not forgive a long span near the resolution for being forgiven elsewhere: a wrong workload fails', () => {
    // Another workload's episodes: nothing lines up.
    expect(matchSpans([at(10, 4_000), at(30, 8_000)], [at(40, 6_000)], OPTIONS).problems).toHaveLength(3);
  });

  it('forgives a span on one side only that starts within the tolerance of the window edges', () => {
    expect(matchSpans([at(59.5, null)], [], OPTIONS).forgiven).toEqual([{ side: 'expected', span: at(59.5, null), why: 'near the window edge' }]);
    expect(matchSpans([at(0.5, 5_000)], [], OPTIONS).problems).toEqual([]);
    expect(matchSpans([at(1.5, 5_000)], [], OPTIONS).problems).toHaveLength(1);
  });

  it('drops spans under the resolution on both sides and leaves ends after the stop uncompared', () => {
    expect(matchSpans([at(20, 100)], [at(30, 499)], OPTIONS).forgiven).toEqual([]);
    expect(matchSpans([at(58, 10_000)], [at(58.2, null)], OPTIONS).problems).toEqual([]);
  });
});
