/**
 * Line diff: Myers' O(ND) shortest edit script after trimming the common head and tail. Answers
 * run-length edits (`['=', 12], ['-', 1], ['+', 1]`), deletions before insertions within a
 * change. A pathological input (more than MAX_D edits) falls back to replacing the middle
 * wholesale: correct, only less minimal, and bounded in time and memory.
 */
import type { EditRun } from '../../../../shared/contracts/diff.ts';

const MAX_D = 4000;

type Op = '=' | '-' | '+';

function push(runs: EditRun[], op: Op, count: number): void {
  if (count <= 0) return;
  const last = runs[runs.length - 1];
  if (last && last[0] === op) last[1] += count;
  else runs.push([op, count]);
}

/** The edit script of a[lo..] vs b[lo..], as single ops from the end (traced back). */
function middle(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, MAX_D); d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a.length, b.length, d, offset, v);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number, dEnd: number, offset: number, last: Int32Array): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  trace.push(last);
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push('=');
      x--;
      y--;
    }
    ops.push(x === prevX ? '+' : '-');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push('=');
    x--;
    y--;
  }
  return ops.reverse();
}

/** Reorders each changed stretch so its deletions come before its insertions. */
function toRuns(ops: readonly Op[], runs: EditRun[]): void {
  let minus = 0;
  let plus = 0;
  for (const op of ops) {
    if (op === '=') {
      push(runs, '-', minus);
      push(runs, '+', plus);
      minus = plus = 0;
      push(runs, '=', 1);
    } else if (op === '-') minus++;
    else plus++;
  }
  push(runs, '-', minus);
  push(runs, '+', plus);
}

export function diffLines(a: readonly string[], b: readonly string[]): EditRun[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const runs: EditRun[] = [];
  push(runs, '=', head);
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length === 0 || midB.length === 0) {
    push(runs, '-', midA.length);
    push(runs, '+', midB.length);
  } else {
    const ops = middle(midA, midB);
    if (ops) toRuns(ops, runs);
    else {
      push(runs, '-', midA.length);
      push(runs, '+', midB.length);
    }
  }
  push(runs, '=', tail);
  return runs;
}
