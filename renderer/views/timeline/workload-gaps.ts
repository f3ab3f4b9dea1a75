/**
 * The swimlane's per-workload gaps: the stretches one workload was out of view while recording
 * went on (its namespace no longer readable: `access-withdrawn`), as percent spans of that
 * workload's lane only, labelled like the coverage gaps drawn across every lane.
 */
import type { EpisodeList } from '../../../shared/contracts/history.ts';
import type { TimeRange } from '../../components/charts/time-range.ts';
import { gapSpans, type GapSpan } from './coverage-lanes.ts';

/** The gaps within the view, by the workload (uid) whose lane shows them. */
export function workloadGapSpans(gaps: EpisodeList['workloadGaps'], view: TimeRange, now: number): Map<string, GapSpan[]> {
  const byWorkload = new Map<string, GapSpan[]>();
  for (const gap of gaps ?? []) {
    const spans = gapSpans([gap], view, now);
    if (spans.length) byWorkload.set(gap.uid, [...(byWorkload.get(gap.uid) ?? []), ...spans]);
  }
  return byWorkload;
}
