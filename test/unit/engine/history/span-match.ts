/**
 * Compares drift spans seen by two clocks of the same events (the simulator's store writes and
 * the recorder's watch deliveries) at a resolution threshold, tolerating only what the threshold
 * and the timing tolerance make ambiguous.
 *
 * Why not "drop spans under the threshold on both sides, then demand equal lists": each edge is
 * read up to a tolerance late on one side, so a span just under the threshold on one clock is
 * just over it on the other (480 ms simulated, 517 ms recorded), and one side keeps what the
 * other dropped. The same goes for a gap just under or over the threshold (joined on one side,
 * not on the other). Those, and only those, are forgiven here.
 */

/** A drift span in epoch ms; `end` null while it was still open when the recording stopped. */
export interface Span {
  start: number;
  end: number | null;
}

/** What the comparison forgives. */
export interface SpanMatchOptions {
  /** Spans shorter than this are dropped on both sides, and gaps shorter than this are joined. */
  resolutionMs: number;
  /** How far an edge may be from the same edge on the other side. */
  toleranceMs: number;
  /** Only spans starting inside this window are compared (epoch ms, exclusive). */
  window: { from: number; to: number };
  /** Ends after this (the recording stopped there) are not compared: the recorder may have missed them. */
  endsComparedUntil: number;
}

/** A span present on one side only, forgiven because it was within the tolerance of the threshold or of the window's edges. */
export interface ForgivenSpan {
  side: 'expected' | 'actual';
  span: Span;
  why: 'near the resolution' | 'near the window edge';
}

/** The outcome: `problems` empty when the two sides agree; `forgiven` says what was let go. */
export interface SpanMatch {
  problems: string[];
  forgiven: ForgivenSpan[];
  matched: number;
}

const length = (span: Span) => (span.end === null ? Infinity : span.end - span.start);

/** Drops spans shorter than the resolution (joining is left to the matching: see `matchSpans`). */
function longEnough(spans: readonly Span[], resolutionMs: number): Span[] {
  return spans.filter((span) => length(span) >= resolutionMs).map((span) => ({ ...span })).sort((a, b) => a.start - b.start);
}

/**
 * Matches `expected` (the simulator's truth) against `actual` (the recorder's episodes) in
 * order. Starts must agree within the tolerance, and so must ends that ended before
 * `endsComparedUntil` less the tolerance. Forgiven, and only these:
 * - a span on one side only that lasted less than resolution + tolerance (the other side may
 *   have seen it under the resolution and dropped it), or that starts within the tolerance of
 *   the window's edges (the other side may have seen it start just outside);
 * - a gap on one side only that lasted less than resolution + tolerance (the other side may have
 *   seen it under the resolution and joined across it): when two matched spans' ends disagree,
 *   the side that ended early takes in its next span across such a gap.
 * A long span on one side only, a long gap on one side only, or an edge off by more than the
 * tolerance is a problem.
 */
export function matchSpans(expectedIn: readonly Span[], actualIn: readonly Span[], options: SpanMatchOptions): SpanMatch {
  const { resolutionMs, toleranceMs, window, endsComparedUntil } = options;
  const ambiguousMs = resolutionMs + toleranceMs;
  // Spans near the window's edges are read on both sides so that a start seen just inside on
  // one side and just outside on the other still pairs up.
  const near = (span: Span) => span.start > window.from - toleranceMs && span.start < window.to + toleranceMs;
  const inside = (span: Span) => span.start > window.from + toleranceMs && span.start < window.to - toleranceMs;
  const sides = { expected: longEnough(expectedIn, resolutionMs).filter(near), actual: longEnough(actualIn, resolutionMs).filter(near) };
  const result: SpanMatch = { problems: [], forgiven: [], matched: 0 };
  const show = (span: Span) => `${span.start}..${span.end ?? 'open'} (${length(span)} ms)`;
  let i = 0;
  let j = 0;

  /** One side's span at `at` takes in the next across a gap the other side may have joined. */
  const absorb = (side: 'expected' | 'actual', at: number): boolean => {
    const spans = sides[side];
    const span = spans[at] as Span;
    const next = spans[at + 1];
    if (span.end === null || !next || next.start - span.end >= ambiguousMs) return false;
    span.end = next.end;
    spans.splice(at + 1, 1);
    return true;
  };

  const skip = (side: 'expected' | 'actual', span: Span): void => {
    if (length(span) < ambiguousMs) result.forgiven.push({ side, span, why: 'near the resolution' });
    else if (!inside(span)) result.forgiven.push({ side, span, why: 'near the window edge' });
    else result.problems.push(`${side === 'expected' ? 'missing from the recording' : 'recorded but not in the simulator'}: ${show(span)}`);
  };

  while (i < sides.expected.length || j < sides.actual.length) {
    const e = sides.expected[i];
    const a = sides.actual[j];
    if (e && a && Math.abs(e.start - a.start) <= toleranceMs) {
      const compared = () => e.end !== null && e.end <= endsComparedUntil - toleranceMs;
      while (compared() && (a.end === null || Math.abs(a.end - (e.end as number)) > toleranceMs)) {
        const earlier = a.end === null || (e.end as number) < a.end ? 'expected' : 'actual';
        if (!absorb(earlier, earlier === 'expected' ? i : j)) break;
      }
      if (compared()) {
        if (a.end === null) result.problems.push(`still open in the recording: ${show(a)} vs ${show(e)}`);
        else if (Math.abs(a.end - (e.end as number)) > toleranceMs) result.problems.push(`end off by ${a.end - (e.end as number)} ms: ${show(a)} vs ${show(e)}`);
      }
      result.matched++;
      i++;
      j++;
    } else if (e && (!a || e.start < a.start)) {
      skip('expected', e);
      i++;
    } else if (a) {
      skip('actual', a);
      j++;
    }
  }
  return result;
}
