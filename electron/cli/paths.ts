/** Where the command line finds the project and keeps its data. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RENDERER_DIR = path.join(PROJECT_ROOT, 'out', 'renderer');

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The per-user data directory, as Electron's userData would be for the desktop app. */
export function defaultDataDir(env: Record<string, string | undefined> = process.env): string {
  if (env['KUBEDRIFT_DATA_DIR']) return path.resolve(env['KUBEDRIFT_DATA_DIR']);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Kubedrift');
  if (process.platform === 'win32') return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'Kubedrift');
  return path.join(env['XDG_CONFIG_HOME'] ?? path.join(home, '.config'), 'Kubedrift');
}
