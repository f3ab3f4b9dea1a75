/**
 * What the desktop app reads from its command line and environment. Pure, so the parsing is
 * tested without starting Electron.
 */
import path from 'node:path';

export interface LaunchFlags {
  /** `--kubeconfig FILE` or `--kubeconfig=FILE`: read only this kubeconfig. */
  kubeconfig?: string;
  /** `--context NAME` or `--context=NAME`: start on this context. */
  context?: string;
  /**
   * `--smoke-test`: open the window on the demo cluster, wait until the renderer reports the
   * Overview live, print one line and quit (exit 0; 1 when it does not get there).
   */
  smokeTest?: true;
  /** `--smoke-timeout SECONDS`: how long the smoke test waits, as typed (checked by smoke.ts). */
  smokeTimeout?: string;
}

/** Flags with a value, and the LaunchFlags field each fills. */
const FLAGS = [
  ['kubeconfig', 'kubeconfig'],
  ['context', 'context'],
  ['smoke-timeout', 'smokeTimeout'],
] as const;

/**
 * Picks our flags out of `process.argv`. Tolerant, unlike the CLI's strict parser: the argv of
 * an Electron app also carries the binary, the app path and Chromium switches, which are not
 * ours to reject. A flag without a value is ignored; the last occurrence wins.
 */
export function readLaunchFlags(argv: readonly string[]): LaunchFlags {
  const flags: LaunchFlags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--smoke-test') flags.smokeTest = true;
    for (const [name, field] of FLAGS) {
      const prefix = `--${name}=`;
      if (arg.startsWith(prefix) && arg.length > prefix.length) {
        flags[field] = arg.slice(prefix.length);
      } else if (arg === `--${name}`) {
        const value = argv[i + 1];
        if (value !== undefined && !value.startsWith('--')) {
          flags[field] = value;
          i++;
        }
      }
    }
  }
  if (flags.kubeconfig !== undefined) flags.kubeconfig = path.resolve(flags.kubeconfig);
  return flags;
}

export interface UserDataDirOptions {
  /** `app.getPath('appData')`. */
  appData: string;
  env: Record<string, string | undefined>;
}

/**
 * The desktop app's data directory: the same folder the `kubedrift serve` command uses by
 * default (`KUBEDRIFT_DATA_DIR`, else "Kubedrift" in the per-user app data folder), so both
 * shells share settings and history. Electron would otherwise name it after package.json's
 * lowercase `name`.
 */
export function userDataDir(options: UserDataDirOptions): string {
  const override = options.env['KUBEDRIFT_DATA_DIR'];
  if (override) return path.resolve(override);
  return path.join(options.appData, 'Kubedrift');
}
