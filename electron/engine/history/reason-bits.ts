/**
 * Drift reasons as stored: `episodes.reasons` is a bitmask of DRIFT_REASON_BITS. Bit 4 was
 * "not rolled out or gave up" before schema v3, which split the controller giving up off as
 * `stalled` (bit 8) and re-derived old episodes from their samples (reason-migration.ts).
 */
import type { DriftReason } from '../../../shared/contracts/history.ts';

/** Bits of `episodes.reasons`. */
export const DRIFT_REASON_BITS = { ready: 1, generation: 2, progressing: 4, stalled: 8 } as const;

const ALL_BITS = Object.values(DRIFT_REASON_BITS).reduce((all, bit) => all | bit, 0);

export function reasonBits(reasons: readonly DriftReason[]): number {
  return reasons.reduce((bits, reason) => bits | DRIFT_REASON_BITS[reason], 0);
}

/** The reasons of every bitmask, computed once: lists of 20,000 episodes ask for them. */
const REASONS_BY_BITS: ReadonlyArray<readonly DriftReason[]> = Array.from({ length: ALL_BITS + 1 }, (_, bits) =>
  (Object.keys(DRIFT_REASON_BITS) as DriftReason[]).filter((reason) => (bits & DRIFT_REASON_BITS[reason]) !== 0),
);

export function reasonsOf(bits: number): DriftReason[] {
  return [...(REASONS_BY_BITS[bits & ALL_BITS] ?? [])];
}
