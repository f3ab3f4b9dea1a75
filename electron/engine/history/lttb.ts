/**
 * Largest-Triangle-Three-Buckets downsampling (Sveinn Steinarsson, 2013): keeps the first and last
 * point and, from each of `threshold - 2` equal buckets in between, the point that forms the
 * largest triangle with the point kept from the previous bucket and the average of the next
 * bucket. Spikes and steps survive, flat stretches collapse — what a chart of replica counts
 * needs when a day of 1-second samples must fit in ~2,000 points.
 *
 * Series carry gaps (NaN: the field was unset, or nothing was recorded); LTTB runs on each
 * unbroken run separately and every gap stays one `null` point, so a chart never draws a line
 * across a time nothing was known.
 */
import type { Point } from '../../../shared/contracts/history.ts';

/**
 * Indices (ascending) of the points LTTB keeps from `[start, end)` of `xs`/`ys`. Every index is
 * kept when the range holds no more than `threshold` points.
 */
export function lttbIndices(xs: ArrayLike<number>, ys: ArrayLike<number>, start: number, end: number, threshold: number): number[] {
  const length = end - start;
  if (threshold >= length || length <= 2) return Array.from({ length }, (_, i) => start + i);
  if (threshold <= 1) return [start];
  if (threshold === 2) return [start, end - 1];
  const kept = [start];
  // Buckets between the first and the last point.
  const every = (length - 2) / (threshold - 2);
  let a = start;
  for (let bucket = 0; bucket < threshold - 2; bucket += 1) {
    const from = start + 1 + Math.floor(bucket * every);
    const to = start + 1 + Math.floor((bucket + 1) * every);
    // The next bucket's average (the last point for the last bucket).
    const nextFrom = to;
    const nextTo = Math.min(start + 1 + Math.floor((bucket + 2) * every), end);
    let avgX = 0;
    let avgY = 0;
    const span = nextTo - nextFrom;
    if (span > 0) {
      for (let i = nextFrom; i < nextTo; i += 1) {
        avgX += xs[i] as number;
        avgY += ys[i] as number;
      }
      avgX /= span;
      avgY /= span;
    } else {
      avgX = xs[end - 1] as number;
      avgY = ys[end - 1] as number;
    }
    const ax = xs[a] as number;
    const ay = ys[a] as number;
    let best = from;
    let bestArea = -1;
    for (let i = from; i < to; i += 1) {
      const area = Math.abs((ax - avgX) * ((ys[i] as number) - ay) - (ax - (xs[i] as number)) * (avgY - ay));
      if (area > bestArea) {
        bestArea = area;
        best = i;
      }
    }
    kept.push(best);
    a = best;
  }
  kept.push(end - 1);
  return kept;
}

/** Runs of non-NaN values: [start, end) pairs, and how many gaps lie between them. */
function runsOf(ys: ArrayLike<number>, start: number, end: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let runStart = -1;
  for (let i = start; i < end; i += 1) {
    const gap = Number.isNaN(ys[i] as number);
    if (!gap && runStart < 0) runStart = i;
    if (gap && runStart >= 0) {
      runs.push([runStart, i]);
      runStart = -1;
    }
  }
  if (runStart >= 0) runs.push([runStart, end]);
  return runs;
}

/**
 * The points `[start, end)` of one series, at most `maxPoints` of them: every point when they
 * fit, LTTB on each unbroken run otherwise. A gap (one or more NaN values) becomes one
 * `[time, null]` point at the time of its first NaN.
 */
export function downsample(xs: ArrayLike<number>, ys: ArrayLike<number>, maxPoints: number, start = 0, end = xs.length): Point[] {
  const runs = runsOf(ys, start, end);
  const out: Point[] = [];
  const gapAfter = (runEnd: number): void => {
    if (runEnd < end) out.push([xs[runEnd] as number, null]);
  };
  if (runs.length === 0) {
    if (end > start) out.push([xs[start] as number, null]);
    return out;
  }
  if (runs[0] && runs[0][0] > start) out.push([xs[start] as number, null]);
  const total = runs.reduce((sum, [from, to]) => sum + (to - from), 0);
  const gaps = runs.length - 1 + (runs[0] && runs[0][0] > start ? 1 : 0) + ((runs.at(-1)?.[1] ?? end) < end ? 1 : 0);
  const budget = Math.max(2 * runs.length, maxPoints - gaps);
  for (const [from, to] of runs) {
    const share = total + gaps <= maxPoints ? to - from : Math.max(2, Math.floor(((to - from) / total) * budget));
    for (const i of lttbIndices(xs, ys, from, to, share)) out.push([xs[i] as number, ys[i] as number]);
    gapAfter(to);
  }
  return out.length <= maxPoints ? out : thin(out, maxPoints);
}

/**
 * Only for series with more gaps than half the budget (thousands of recording interruptions):
 * keeps every k-th point, and the last, so the answer still respects `maxPoints`.
 */
function thin(points: Point[], maxPoints: number): Point[] {
  const stride = Math.ceil(points.length / Math.max(1, maxPoints - 1));
  const out = points.filter((_, i) => i % stride === 0);
  const last = points.at(-1);
  if (last && out.at(-1) !== last) out.push(last);
  return out.slice(-maxPoints);
}
