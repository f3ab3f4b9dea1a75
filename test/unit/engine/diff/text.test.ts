import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EditRun } from '../../../../shared/contracts/diff.ts';
import { diffLines } from '../../../../electron/engine/diff/text/myers.ts';
import { kubectlFileName, linesOf, toYaml, unifiedDiff, unifiedHunks } from '../../../../electron/engine/diff/text/unified.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const DIFF = ['/usr/bin/diff', '/bin/diff'].find((candidate) => existsSync(candidate));

/** Rebuilds b from a and the runs: the script must be a valid edit. */
function apply(a: readonly string[], b: readonly string[], runs: readonly EditRun[]): string[] {
  const out: string[] = [];
  let ai = 0;
  let bi = 0;
  for (const [op, count] of runs) {
    if (op === '=') {
      for (let i = 0; i < count; i++) {
        expect(a[ai + i]).toBe(b[bi + i]);
        out.push(a[ai + i] as string);
      }
      ai += count;
      bi += count;
    } else if (op === '-') ai += count;
    else {
      out.push(...b.slice(bi, bi + count));
      bi += count;
    }
  }
  expect(ai).toBe(a.length);
  return out;
}

/** A small deterministic PRNG so failures reproduce. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await withTempDir('kubedrift-diff-text-')));
afterAll(() => cleanup());

describe('line diff (Myers)', () => {
  it('finds the minimal edit of a changed image line', () => {
    const a = ['spec:', '  replicas: 2', '  image: nginx:1.27', 'x'];
    const b = ['spec:', '  replicas: 2', '  image: nginx:1.28', 'x'];
    expect(diffLines(a, b)).toEqual([['=', 2], ['-', 1], ['+', 1], ['=', 1]]);
  });

  it('handles empty sides (a missing object)', () => {
    expect(diffLines([], ['a', 'b'])).toEqual([['+', 2]]);
    expect(diffLines(['a'], [])).toEqual([['-', 1]]);
    expect(diffLines([], [])).toEqual([]);
  });

  it('always produces an edit script that turns a into b, with as few edits as any LCS', () => {
    const next = random(7);
    const alphabet = ['a', 'b', 'c', 'd'];
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * 4)] as string);
      const b = Array.from({ length: Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * 4)] as string);
      const runs = diffLines(a, b);
      expect(apply(a, b, runs)).toEqual(b);
      // Edit distance = |a| + |b| - 2 * LCS.
      const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
      const edits = runs.filter(([op]) => op !== '=').reduce((sum, [, count]) => sum + count, 0);
      expect(edits).toBe(a.length + b.length - 2 * lcs[0]![0]!);
    }
  });
});

describe('unified diff text', () => {
  it.skipIf(!DIFF)('matches GNU diff -u hunk for hunk on random YAML-like files', async () => {
    const next = random(42);
    for (let round = 0; round < 40; round++) {
      const a = Array.from({ length: 30 + Math.floor(next() * 30) }, (_, i) => `line ${i % 7} ${Math.floor(next() * 3)}`);
      const b = a.filter(() => next() > 0.1).map((line) => (next() > 0.9 ? `${line} changed` : line));
      const fa = path.join(dir, 'a');
      const fb = path.join(dir, 'b');
      await writeFile(fa, a.join('\n') + '\n');
      await writeFile(fb, b.join('\n') + '\n');
      const gnu = spawnSync(DIFF as string, ['-u', fa, fb], { encoding: 'utf8' }).stdout.split('\n').slice(2).filter((line) => line !== '');
      const ours = unifiedHunks(a, b, diffLines(a, b));
      // Both are minimal; where several minimal scripts exist they may differ, so compare what changes.
      expect(ours.filter((line) => line.startsWith('-') || line.startsWith('+')).length).toBe(gnu.filter((line) => line.startsWith('-') || line.startsWith('+')).length);
      expect(ours.filter((line) => line.startsWith('@@')).length).toBe(gnu.filter((line) => line.startsWith('@@')).length);
    }
  });

  it('prints kubectl diff headers, hunk ranges and three lines of context', () => {
    const live = toYaml({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' }, spec: { replicas: 2, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27.2' }] } } } });
    const predicted = live.replace('nginx:1.27.2', 'nginx:1.28.0');
    const a = linesOf(live);
    const b = linesOf(predicted);
    const name = kubectlFileName({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' });
    expect(unifiedDiff(name, a, b, diffLines(a, b))).toBe(
      [
        'diff -u -N LIVE/apps.v1.Deployment.shop.web MERGED/apps.v1.Deployment.shop.web',
        '--- LIVE/apps.v1.Deployment.shop.web',
        '+++ MERGED/apps.v1.Deployment.shop.web',
        '@@ -8,5 +8,5 @@',
        '   template:',
        '     spec:',
        '       containers:',
        '-      - image: nginx:1.27.2',
        '+      - image: nginx:1.28.0',
        '         name: nginx',
        '',
      ].join('\n'),
    );
    expect(unifiedDiff(name, a, a, diffLines(a, a))).toBe('');
  });

  it('writes YAML as kubectl does: sorted keys, list items under their key, Secret masks quoted', () => {
    expect(toYaml({ b: 1, a: { list: [{ y: 1, x: 2 }] }, data: { password: '***' } })).toBe('a:\n  list:\n  - x: 2\n    y: 1\nb: 1\ndata:\n  password: "***"\n');
    expect(kubectlFileName({ apiVersion: 'v1', kind: 'Namespace', name: 'shop' })).toBe('v1.Namespace.shop');
  });
});
