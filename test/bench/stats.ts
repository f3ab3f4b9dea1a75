/** Small statistics for benchmark samples. */

/** The nearest-rank percentile (`p` in 0..100) of `samples`. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Rounds to `digits` decimals, so the JSON stays readable. */
export function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** `{ p50, p95, runs }` of latency samples in ms. */
export function latency(samples: readonly number[]): { p50: number; p95: number; runs: number } {
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)), runs: samples.length };
}
