/**
 * The list worker starts when a context connects, and no page is decoded until it has loaded
 * its modules: every package it loads lengthens that wait (zod, reached through shared/kinds.ts,
 * was ~60 ms of compiling in a worker that otherwise answers its first page ~140 ms after it
 * starts). So its runtime imports are the repo's own modules and Node's built-ins only.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WORKER = fileURLToPath(new URL('../../../../electron/engine/cluster/informers/list-worker.ts', import.meta.url));
/** The watch reader's worker starts at the first watch; the same holds (client-node above all stays out). */
const READER = fileURLToPath(new URL('../../../../electron/engine/cluster/informers/watch-reader-worker.ts', import.meta.url));

/** Specifiers a module loads when it runs: `import type` and `export type` lines load nothing. */
function runtimeImports(source: string): string[] {
  const found: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm;
  for (const match of source.matchAll(statement)) {
    if (match[2]) continue;
    found.push((match[3] ?? match[4]) as string);
  }
  return found;
}

/** Every module the worker loads, from its entry: files of the repo and bare specifiers. */
function loadedBy(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of runtimeImports(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else bare.add(specifier);
    }
  };
  visit(entry);
  return { files, bare };
}

describe('the list worker', () => {
  it.each([
    ['list worker', WORKER],
    ['watch reader worker', READER],
  ])('the %s loads only the repo’s own modules and Node’s built-ins', (_name, entry) => {
    const { files, bare } = loadedBy(entry);
    expect(files.size).toBeGreaterThan(3);
    expect([...bare].filter((specifier) => !specifier.startsWith('node:'))).toEqual([]);
  });

  it('would be caught loading a package through a shared module', () => {
    expect(runtimeImports("import { z } from 'zod';\nimport type { A } from './a.ts';\nexport type { B } from './b.ts';\nimport { c, type D } from './c.ts';\n")).toEqual(['zod', './c.ts']);
    const kinds = fileURLToPath(new URL('../../../../shared/discovery.ts', import.meta.url));
    expect(loadedBy(kinds).bare.has('zod')).toBe(true);
  });
});
