/**
 * A run's rows and summary under the current ignore rules: what applying would change first
 * (objects out of sync, then missing ones), then errors, then objects in sync — the order of the
 * screen's count tiles — each group in file order, so the list reads like the files.
 */
import type { DiffCounts, DiffRow, DiffStatus, DiffSummary, IgnoreRule } from '../../../shared/contracts/diff.ts';
import { evaluate } from './evaluate.ts';
import type { DiffRunData } from './run.ts';

const ORDER: Record<DiffStatus, number> = { OutOfSync: 0, Missing: 1, Error: 2, InSync: 3 };
export const MAX_NOTICES = 100;

export function rowsOf(run: DiffRunData, rules: readonly IgnoreRule[]): DiffRow[] {
  const rows = run.objects.map((object) => evaluate(object, rules).row);
  return rows.sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.source.file.localeCompare(b.source.file) || a.source.line - b.source.line);
}

export function countsOf(rows: readonly DiffRow[]): DiffCounts {
  const counts: DiffCounts = { InSync: 0, OutOfSync: 0, Missing: 0, Error: 0 };
  for (const row of rows) counts[row.status] += 1;
  return counts;
}

export function summaryOf(run: DiffRunData, rows: readonly DiffRow[]): DiffSummary {
  return {
    runId: run.id,
    context: run.context,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    counts: countsOf(rows),
    total: rows.length,
    approximate: rows.filter((row) => row.approximate).length,
    notices: run.notices.slice(0, MAX_NOTICES),
  };
}
