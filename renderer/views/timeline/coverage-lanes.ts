/**
 * The swimlane's share of coverage and backfill: the gaps as percent spans of the lane (the same
 * for every lane: nobody observed any workload then), and the inferred rollouts and Events as marks on
 * their workload's lane, placed like the episode bars (percentages, nothing measured per row).
 */
import type { CoverageGap, InferredFact } from '../../../shared/contracts/history.ts';
import { gapLabel } from '../../components/charts/coverage-marks.ts';
import { formatMoment } from '../../components/charts/time-format.ts';
import type { TimeRange } from '../../components/charts/time-range.ts';

export interface GapSpan {
  left: number;
  width: number;
  label: string;
}

export interface InferredMark {
  id: string;
  /** What was inferred (a rollout, an Event), for the mark's look. */
  fact: InferredFact['fact'];
  left: number;
  title: string;
}

/** The gaps within the view as percent spans, labelled. */
export function gapSpans(gaps: readonly CoverageGap[] | undefined, view: TimeRange, now: number): GapSpan[] {
  const span = view.to - view.from;
  if (span <= 0) return [];
  return (gaps ?? []).flatMap((gap) => {
    const from = Math.max(gap.start, view.from);
    const to = Math.min(gap.end, view.to);
    return to > from ? [{ left: ((from - view.from) / span) * 100, width: ((to - from) / span) * 100, label: gapLabel(gap, now) }] : [];
  });
}

/** The inferred facts on view, by the workload whose lane shows them. */
export function inferredMarks(facts: readonly InferredFact[] | undefined, view: TimeRange, now: number): Map<string, InferredMark[]> {
  const marks = new Map<string, InferredMark[]>();
  const span = view.to - view.from;
  if (span <= 0) return marks;
  for (const fact of facts ?? []) {
    // A repeated Event that began before the view and goes on into it is marked at the view's start.
    if (fact.at === null || (fact.end ?? fact.at) < view.from || fact.at > view.to) continue;
    const list = marks.get(fact.workloadUid) ?? [];
    // A repeated Event is a span: its tooltip says from when to when.
    const when = `${formatMoment(fact.at, now)}${fact.end !== null ? ` → ${formatMoment(fact.end, now)}` : ''}`;
    list.push({ id: fact.id, fact: fact.fact, left: ((Math.max(fact.at, view.from) - view.from) / span) * 100, title: `${fact.detail}, ${when}: ${fact.fact === 'event' ? 'from an Event the cluster still held when the app connected, not seen live' : 'inferred from the cluster, not observed'}` });
    marks.set(fact.workloadUid, list);
  }
  return marks;
}
