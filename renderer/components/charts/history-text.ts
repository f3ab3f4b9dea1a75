/** Short texts about recorded history that several screens show the same way. */
import type { HistoryStatus } from '../../../shared/contracts/history.ts';
import { formatBytes } from '../../stores/rows/format.ts';
import { formatDate, formatMoment } from './time-format.ts';

/** "History since May 1, 2025 · 12 MiB recorded", or null before anything is recorded. */
export function historySinceText(status: HistoryStatus | null, now: number): string | null {
  if (!status || status.since === null) return null;
  const since = now - status.since < 24 * 3_600_000 ? formatMoment(status.since, now) : formatDate(status.since);
  return `History since ${since} · ${formatBytes(status.bytes)} recorded`;
}

/** Why a window shows nothing: before history starts, or simply nothing recorded there. */
export function emptyWindowText(range: { from: number; to: number }, since: number | null, now: number): string {
  if (since === null) return 'Nothing has been recorded for this context yet. Recording starts as soon as a context is connected.';
  if (range.to < since) return `This window ends before history starts (${formatMoment(since, now)}): older history was removed by retention or never recorded.`;
  return 'Nothing was recorded in this window.';
}
