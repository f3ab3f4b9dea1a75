import { describe, expect, it } from 'vitest';
import { downsample, lttbIndices } from '../../../../electron/engine/history/lttb.ts';

/** A deterministic pseudo-random sequence (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A straightforward LTTB written from the paper's pseudo-code, to check the fast one against. */
function referenceLttb(points: Array<[number, number]>, threshold: number): Array<[number, number]> {
  if (threshold >= points.length || threshold === 0) return points;
  const sampled: Array<[number, number]> = [points[0] as [number, number]];
  const every = (points.length - 2) / (threshold - 2);
  let a = 0;
  for (let i = 0; i < threshold - 2; i++) {
    const avgStart = Math.floor((i + 1) * every) + 1;
    const avgEnd = Math.min(Math.floor((i + 2) * every) + 1, points.length);
    let avgX = 0;
    let avgY = 0;
    for (let j = avgStart; j < avgEnd; j++) {
      avgX += (points[j] as [number, number])[0];
      avgY += (points[j] as [number, number])[1];
    }
    const n = avgEnd - avgStart;
    if (n > 0) {
      avgX /= n;
      avgY /= n;
    } else [avgX, avgY] = points[points.length - 1] as [number, number];
    const rangeStart = Math.floor(i * every) + 1;
    const rangeEnd = Math.floor((i + 1) * every) + 1;
    const [ax, ay] = points[a] as [number, number];
    let maxArea = -1;
    let next = rangeStart;
    for (let j = rangeStart; j < rangeEnd; j++) {
      const [x, y] = points[j] as [number, number];
      const area = Math.abs((ax - avgX) * (y - ay) - (ax - x) * (avgY - ay)) * 0.5;
      if (area > maxArea) {
        maxArea = area;
        next = j;
      }
    }
    sampled.push(points[next] as [number, number]);
    a = next;
  }
  sampled.push(points[points.length - 1] as [number, number]);
  return sampled;
}

describe('LTTB', () => {
  it('keeps every point when they fit', () => {
    const xs = [1, 2, 3, 4];
    const ys = [5, 6, 7, 8];
    expect(lttbIndices(xs, ys, 0, 4, 10)).toEqual([0, 1, 2, 3]);
    expect(downsample(xs, ys, 10)).toEqual([
      [1, 5],
      [2, 6],
      [3, 7],
      [4, 8],
    ]);
  });

  it('keeps exactly the threshold, first and last included, in time order', () => {
    const next = random(1);
    const xs = Array.from({ length: 10_000 }, (_, i) => i * 1000);
    const ys = xs.map(() => Math.round(next() * 10));
    const kept = lttbIndices(xs, ys, 0, xs.length, 500);
    expect(kept).toHaveLength(500);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(9_999);
    for (let i = 1; i < kept.length; i++) expect(kept[i]).toBeGreaterThan(kept[i - 1] as number);
  });

  it('picks the same points as the reference implementation', () => {
    const next = random(7);
    const points: Array<[number, number]> = Array.from({ length: 3_001 }, (_, i) => [i * 1000 + Math.floor(next() * 500), Math.floor(next() * 50)]);
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const ours = lttbIndices(xs, ys, 0, points.length, 300).map((i) => points[i]);
    expect(ours).toEqual(referenceLttb(points, 300));
  });

  it('keeps a one-sample spike that averaging would flatten', () => {
    const xs = Array.from({ length: 5_000 }, (_, i) => i);
    const ys = xs.map((i) => (i === 2_345 ? 40 : 3));
    const kept = downsample(xs, ys, 100);
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(kept).toContainEqual([2_345, 40]);
  });

  it('keeps a gap as one null point and never draws across it', () => {
    const xs = Array.from({ length: 1_000 }, (_, i) => i);
    const ys = xs.map((i) => (i >= 400 && i < 450 ? NaN : i % 7));
    const kept = downsample(xs, ys, 50);
    const nulls = kept.filter((p) => p[1] === null);
    expect(nulls).toEqual([[400, null]]);
    expect(kept.length).toBeLessThanOrEqual(50);
    const gapAt = kept.findIndex((p) => p[1] === null);
    expect((kept[gapAt - 1] as [number, number])[0]).toBeLessThan(400);
    expect((kept[gapAt + 1] as [number, number])[0]).toBe(450);
  });

  it('marks leading and trailing gaps and a series that is all gap', () => {
    expect(downsample([1, 2, 3, 4], [NaN, 1, 2, NaN], 10)).toEqual([
      [1, null],
      [2, 1],
      [3, 2],
      [4, null],
    ]);
    expect(downsample([1, 2], [NaN, NaN], 10)).toEqual([[1, null]]);
    expect(downsample([], [], 10)).toEqual([]);
  });

  it('respects maxPoints even with more gaps than the budget', () => {
    const xs = Array.from({ length: 4_000 }, (_, i) => i);
    const ys = xs.map((i) => (i % 3 === 1 ? NaN : 1));
    const kept = downsample(xs, ys, 100);
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(kept.at(-1)).toEqual([3_999, 1]);
  });
});
