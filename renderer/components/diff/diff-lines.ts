/**
 * The rows of the two diff views, built from the engine's texts and run-length line edits:
 * unified (one column, `-` then `+`) and side by side (deletions paired with the insertions that
 * replace them). Unchanged stretches longer than the context fold into one row that says how
 * many lines it hides; a fold the user opened stays open (by its id, the run it came from).
 */
import type { EditRun } from '../../../shared/contracts/diff.ts';

export const CONTEXT_LINES = 3;

export type LineKind = 'same' | 'del' | 'add';

/** A line of the unified view; `a`/`b` are 1-based line numbers in live/predicted. */
export interface UnifiedLine {
  kind: LineKind;
  a?: number;
  b?: number;
  text: string;
}

/** Hidden unchanged lines; `a`/`b` are the first hidden line numbers. */
export interface FoldRow {
  kind: 'fold';
  id: number;
  count: number;
  a: number;
  b: number;
}

export type UnifiedRow = UnifiedLine | FoldRow;

export interface SideCell {
  n: number;
  text: string;
}

export interface SideRow {
  kind: 'same' | 'change';
  left?: SideCell;
  right?: SideCell;
}

export type SideBySideRow = SideRow | FoldRow;

export function splitLines(text: string | null): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

interface FoldOptions {
  context?: number;
  expanded?: ReadonlySet<number>;
}

/** Which lines of an unchanged run stay visible: [head, tail] counts, or null to show all. */
function visibleEdges(index: number, runs: readonly EditRun[], count: number, options: FoldOptions): [number, number] | null {
  const context = options.context ?? CONTEXT_LINES;
  if (options.expanded?.has(index)) return null;
  const head = index === 0 ? 0 : context;
  const tail = index === runs.length - 1 ? 0 : context;
  // Folding fewer than two lines saves nothing.
  return count - head - tail >= 2 ? [head, tail] : null;
}

/** Walks the runs, calling back per unchanged stretch (with folding) and per change block. */
function walk(
  runs: readonly EditRun[],
  options: FoldOptions,
  visit: {
    same(a: number, b: number, count: number): void;
    fold(row: FoldRow): void;
    change(a: number, deleted: number, b: number, added: number): void;
  },
): void {
  let a = 0;
  let b = 0;
  for (let i = 0; i < runs.length; i++) {
    const [op, count] = runs[i] as EditRun;
    if (op === '=') {
      const edges = visibleEdges(i, runs, count, options);
      if (!edges) visit.same(a, b, count);
      else {
        const [head, tail] = edges;
        visit.same(a, b, head);
        visit.fold({ kind: 'fold', id: i, count: count - head - tail, a: a + head + 1, b: b + head + 1 });
        visit.same(a + count - tail, b + count - tail, tail);
      }
      a += count;
      b += count;
      continue;
    }
    // A deletion run followed by an insertion run is one change block.
    const deleted = op === '-' ? count : 0;
    const next = runs[i + 1];
    const added = op === '+' ? count : next && next[0] === '+' ? next[1] : 0;
    if (op === '-' && next && next[0] === '+') i++;
    visit.change(a, deleted, b, added);
    a += deleted;
    b += added;
  }
}

export function unifiedRows(live: readonly string[], predicted: readonly string[], runs: readonly EditRun[], options: FoldOptions = {}): UnifiedRow[] {
  const rows: UnifiedRow[] = [];
  walk(runs, options, {
    same(a, b, count) {
      for (let i = 0; i < count; i++) rows.push({ kind: 'same', a: a + i + 1, b: b + i + 1, text: live[a + i] ?? '' });
    },
    fold(row) {
      rows.push(row);
    },
    change(a, deleted, b, added) {
      for (let i = 0; i < deleted; i++) rows.push({ kind: 'del', a: a + i + 1, text: live[a + i] ?? '' });
      for (let i = 0; i < added; i++) rows.push({ kind: 'add', b: b + i + 1, text: predicted[b + i] ?? '' });
    },
  });
  return rows;
}

export function sideBySideRows(live: readonly string[], predicted: readonly string[], runs: readonly EditRun[], options: FoldOptions = {}): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  walk(runs, options, {
    same(a, b, count) {
      for (let i = 0; i < count; i++) rows.push({ kind: 'same', left: { n: a + i + 1, text: live[a + i] ?? '' }, right: { n: b + i + 1, text: predicted[b + i] ?? '' } });
    },
    fold(row) {
      rows.push(row);
    },
    change(a, deleted, b, added) {
      for (let i = 0; i < Math.max(deleted, added); i++) {
        const row: SideRow = { kind: 'change' };
        if (i < deleted) row.left = { n: a + i + 1, text: live[a + i] ?? '' };
        if (i < added) row.right = { n: b + i + 1, text: predicted[b + i] ?? '' };
        rows.push(row);
      }
    },
  });
  return rows;
}

/** Lines added and removed, for the header ("+2 −1"). */
export function changeCounts(runs: readonly EditRun[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const [op, count] of runs) {
    if (op === '+') added += count;
    else if (op === '-') removed += count;
  }
  return { added, removed };
}
