/**
 * The live-pipeline bench loads the built renderer, as the browser shell does. On a fresh clone
 * (CI runs the unit tests, which start a quick bench, before anything is built) there is no
 * build yet: make it rather than wait for a page that can never sync.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, RENDERER_DIR } from '../../electron/cli/paths.ts';

export function ensureRendererBuilt(log: (message: string) => void): void {
  if (existsSync(path.join(RENDERER_DIR, 'index.html'))) return;
  log('renderer: no build in out/renderer, building it (vite build)');
  const vite = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'vite');
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0 || !existsSync(path.join(RENDERER_DIR, 'index.html'))) {
    throw new Error(`could not build the renderer (vite build exited ${result.status}): ${result.stderr.slice(-500)}`);
  }
}
