/**
 * What `kubedrift diff` prints: kubectl-style unified diffs on stdout (pipe-able), problems and
 * a one-line summary on stderr; or, with --json, one JSON object with every object's status,
 * differing fields and their owners. The exit code follows `kubectl diff`: 0 no differences,
 * 1 differences, 2 an error.
 */
import type { DiffCounts, IgnoreRule } from '../../shared/contracts/diff.ts';
import { evaluate, fieldDiffs, textsOf } from '../engine/diff/evaluate.ts';
import type { DiffRunData } from '../engine/diff/run.ts';
import { countsOf } from '../engine/diff/summary.ts';

export const EXIT_IN_SYNC = 0;
export const EXIT_DIFFERENT = 1;
export const EXIT_ERROR = 2;

export function exitCodeOf(counts: DiffCounts): number {
  if (counts.Error > 0) return EXIT_ERROR;
  return counts.OutOfSync + counts.Missing > 0 ? EXIT_DIFFERENT : EXIT_IN_SYNC;
}

export interface Output {
  stdout: string;
  stderr: string;
  code: number;
}

function evaluatedObjects(run: DiffRunData, rules: readonly IgnoreRule[]) {
  return run.objects.map((object) => ({ object, evaluated: evaluate(object, rules) }));
}

function summaryLine(counts: DiffCounts, run: DiffRunData, approximate: number): string {
  const parts = [`${counts.OutOfSync} out of sync`, `${counts.Missing} missing`, `${counts.Error} error${counts.Error === 1 ? '' : 's'}`, `${counts.InSync} in sync`];
  return `kubedrift diff: ${parts.join(', ')} (context "${run.context}", ${run.durationMs} ms)${approximate ? `; ${approximate} compared client-side (approximate)` : ''}`;
}

export function textOutput(run: DiffRunData, rules: readonly IgnoreRule[]): Output {
  const items = evaluatedObjects(run, rules);
  const counts = countsOf(items.map((item) => item.evaluated.row));
  const stdout: string[] = [];
  const stderr: string[] = run.notices.map((notice) => `warning: ${notice.path}: ${notice.message}`);
  for (const { object, evaluated } of items) {
    const { row } = evaluated;
    const where = `${row.source.file}:${row.source.line}`;
    if (row.status === 'Error') {
      stderr.push(`error: ${where}: ${row.kind ? `${row.kind}${row.name ? ` "${row.name}"` : ''}: ` : ''}${row.reason ?? 'unknown error'}`);
      continue;
    }
    if (row.status === 'InSync') continue;
    if (row.reason && (object.note || object.approximate)) stderr.push(`note: ${where}: ${row.reason}`);
    stdout.push(textsOf(object, evaluated).unified);
  }
  stderr.push(summaryLine(counts, run, items.filter((item) => item.evaluated.row.approximate).length));
  return { stdout: stdout.join(''), stderr: stderr.join('\n') + '\n', code: exitCodeOf(counts) };
}

export function jsonOutput(run: DiffRunData, rules: readonly IgnoreRule[], server: string | undefined): Output {
  const items = evaluatedObjects(run, rules);
  const counts = countsOf(items.map((item) => item.evaluated.row));
  const objects = items.map(({ object, evaluated }) => {
    const { row } = evaluated;
    return {
      status: row.status,
      apiVersion: row.apiVersion,
      kind: row.kind,
      ...(row.namespace ? { namespace: row.namespace } : {}),
      name: row.name,
      source: row.source,
      ...(row.reason ? { reason: row.reason } : {}),
      approximate: row.approximate,
      ignoredFields: row.ignored,
      fields: fieldDiffs(object, evaluated, run.hpas).map(({ ignore: _rule, ...field }) => field),
      diff: row.status === 'Error' ? '' : textsOf(object, evaluated).unified,
    };
  });
  const document = { context: run.context, ...(server ? { server } : {}), startedAt: new Date(run.startedAt).toISOString(), durationMs: run.durationMs, counts, total: objects.length, notices: run.notices, objects };
  return { stdout: `${JSON.stringify(document, null, 2)}\n`, stderr: '', code: exitCodeOf(counts) };
}
