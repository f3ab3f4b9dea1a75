/**
 * Where a worker thread's script is: beside the module that starts it, as TypeScript when the
 * engine runs from source, as the bundled `.cjs` beside main.cjs in the desktop app
 * (build-electron.ts builds each worker there).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The first of `files` (the source's name, then the bundle's, spelled out by the caller so the
 * bundle names its worker as the packaging test reads it) beside the module at `base` (its
 * import.meta.url), or undefined when there is none.
 */
export function workerScriptBeside(base: string, files: readonly string[]): URL | undefined {
  for (const file of files) {
    const url = new URL(file, base);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return undefined;
}
