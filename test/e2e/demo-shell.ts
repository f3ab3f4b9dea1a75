/**
 * The set-up most screen tests share: the browser shell in-process (as `kubedrift serve` runs
 * it, so the test holds the demo cluster and the engine) over a fresh temp dir with no
 * kubeconfig, so only the demo context is listed, and a headless browser; all closed and removed
 * after the file. Registers its own `beforeAll`/`afterAll`, so call it at the top of a test file.
 */
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import type { FileDialogs } from '../../electron/engine/dialogs.ts';
import { startSimCluster, type SimCluster, type SimClusterOptions } from '../../electron/engine/simcluster/index.ts';
import { launchBrowser } from './harness.ts';
import { startLiveShell, type LiveShell } from './live-shell.ts';
import { withTempDir } from '../helpers/tmp.ts';

/** What `useDemoShell` started; read inside tests and hooks, after its `beforeAll`. */
export interface DemoShell {
  readonly browser: Browser;
  readonly shell: LiveShell;
  /** The file's temp dir (the engine's data dir is `data` in it); the test may put files here. */
  readonly dir: string;
  /** The demo context's cluster, once the engine started it (throws before). */
  readonly demo: SimCluster;
}

/** Options of `useDemoShell`. */
export interface DemoShellOptions {
  /** The demo cluster's scenario, made when the engine starts it; default the built-in `demo`. */
  scenario?: () => NonNullable<SimClusterOptions['scenario']>;
  /** Native dialogs as the desktop app lends them (faked); default none, as in the browser shell. */
  dialogs?: FileDialogs;
}

/** Starts the demo shell before the file's tests and stops it after; `name` names the temp dir. */
export function useDemoShell(name: string, options: DemoShellOptions = {}): DemoShell {
  let browser: Browser | undefined;
  let shell: LiveShell | undefined;
  let demo: SimCluster | undefined;
  let dir: string | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ dir, cleanup } = await withTempDir(`kubedrift-e2e-${name}-`));
    shell = await startLiveShell({
      dataDir: path.join(dir, 'data'),
      kubeconfig: path.join(dir, 'no-such-kubeconfig'),
      demoCluster: async () => (demo = await startSimCluster({ scenario: options.scenario?.() ?? 'demo' })),
      ...(options.dialogs ? { dialogs: options.dialogs } : {}),
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await shell?.close();
    await cleanup?.();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(what);
    return value;
  };
  return {
    get browser() {
      return started(browser, 'the browser has not started');
    },
    get shell() {
      return started(shell, 'the shell has not started');
    },
    get dir() {
      return started(dir, 'the temp dir has not been made');
    },
    get demo() {
      return started(demo, 'the engine never started the demo cluster');
    },
  };
}
