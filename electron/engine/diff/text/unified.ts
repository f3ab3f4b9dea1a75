/**
 * Texts of a diff: objects as YAML the way kubectl prints them (keys sorted, list items not
 * indented under their key) and the unified diff with kubectl's headers
 * (`diff -u -N LIVE/apps.v1.Deployment.shop.web MERGED/apps.v1.Deployment.shop.web`).
 */
import { stringify } from 'yaml';
import type { EditRun } from '../../../../shared/contracts/diff.ts';

export const CONTEXT_LINES = 3;

export function toYaml(object: unknown): string {
  return stringify(object, { sortMapEntries: true, indentSeq: false, lineWidth: 0, aliasDuplicateObjects: false });
}

/** Splits text into lines without the trailing empty one. */
export function linesOf(text: string | null): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** kubectl's file name for an object: `group.version.Kind.namespace.name`, empty parts left out. */
export function kubectlFileName(object: { apiVersion: string; kind: string; namespace?: string | undefined; name: string }): string {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  return [group, version, object.kind, object.namespace, object.name].filter((part) => part).join('.');
}

/** GNU diff's range: `start,count`, just the line for one line, the line before for none. */
function range(start: number, count: number): string {
  if (count === 1) return String(start + 1);
  return count === 0 ? `${start},0` : `${start + 1},${count}`;
}

/** Unified hunks (`@@ -a,n +b,m @@`) with `context` lines around each change, close changes merged. */
export function unifiedHunks(a: readonly string[], b: readonly string[], runs: readonly EditRun[], context = CONTEXT_LINES): string[] {
  const ops: Array<{ op: EditRun[0]; a: number; b: number }> = [];
  let ai = 0;
  let bi = 0;
  for (const [op, count] of runs) {
    for (let i = 0; i < count; i++) {
      ops.push({ op, a: ai, b: bi });
      if (op !== '+') ai++;
      if (op !== '-') bi++;
    }
  }
  const out: string[] = [];
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.op === '=') i++;
    if (i >= ops.length) break;
    let last = i;
    let j = i;
    while (j < ops.length) {
      if (ops[j]!.op !== '=') {
        last = j++;
        continue;
      }
      let k = j;
      while (k < ops.length && ops[k]!.op === '=') k++;
      if (k >= ops.length || k - j > 2 * context) break;
      j = k;
    }
    const start = Math.max(0, i - context);
    const stop = Math.min(ops.length, last + context + 1);
    const slice = ops.slice(start, stop);
    const aCount = slice.filter((o) => o.op !== '+').length;
    const bCount = slice.filter((o) => o.op !== '-').length;
    out.push(`@@ -${range(slice[0]!.a, aCount)} +${range(slice[0]!.b, bCount)} @@`);
    for (const o of slice) out.push(o.op === '=' ? ` ${a[o.a]}` : o.op === '-' ? `-${a[o.a]}` : `+${b[o.b]}`);
    i = stop;
  }
  return out;
}

/** The whole kubectl-style unified diff of one object; empty when nothing differs. */
export function unifiedDiff(name: string, a: readonly string[], b: readonly string[], runs: readonly EditRun[]): string {
  if (!runs.some(([op]) => op !== '=')) return '';
  const hunks = unifiedHunks(a, b, runs);
  return [`diff -u -N LIVE/${name} MERGED/${name}`, `--- LIVE/${name}`, `+++ MERGED/${name}`, ...hunks].join('\n') + '\n';
}
