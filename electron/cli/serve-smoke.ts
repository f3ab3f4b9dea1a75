/**
 * `kubedrift serve --smoke-test`: the browser shell on the built-in demo cluster, loaded in
 * headless Chromium until the renderer reports the Overview live (shared/smoke.ts), then one
 * line and exit 0; 1 with the reason otherwise. It reads no kubeconfig and, unless told
 * otherwise, keeps its settings and history in a temp dir it removes, so neither the user's
 * clusters nor their data are touched. The desktop app's `--smoke-test` waits for the same signal.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type * as PlaywrightCore from 'playwright-core';
import { DEMO_CONTEXT } from '../../shared/model.ts';
import { READY_PROBE_SCRIPT, smokeLine, waitForOverviewLive, type SmokeResult } from '../../shared/smoke.ts';
import { startBrowserShell, type BrowserShell } from '../web/shell.ts';
import { CHROMIUM_ARGS, findChromium, type ChromiumBinary } from './chromium.ts';
import { packageVersion } from './paths.ts';

export interface ServeSmokeOptions {
  staticDir: string;
  timeoutMs: number;
  /** Keep settings and history here instead of a temp dir. */
  dataDir?: string | undefined;
  env?: Record<string, string | undefined>;
}

type Playwright = typeof PlaywrightCore;

/** playwright-core is a dev dependency: loaded only here, with a message a person can act on. */
async function loadPlaywright(): Promise<Playwright | string> {
  try {
    return await import('playwright-core');
  } catch {
    return 'playwright-core is not installed (it is a development dependency): run "npm ci" in a Kubedrift checkout to use --smoke-test';
  }
}

/** Runs the smoke test; prints its one line and resolves to the exit code. */
export async function runServeSmoke(options: ServeSmokeOptions): Promise<number> {
  const startedAt = performance.now();
  const fail = (reason: string): number => {
    console.error(smokeLine({ ok: false, reason, elapsedMs: performance.now() - startedAt }));
    return 1;
  };
  const env = options.env ?? process.env;
  let chromiumBinary: ChromiumBinary;
  try {
    chromiumBinary = await findChromium({ env });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const playwright = await loadPlaywright();
  if (typeof playwright === 'string') return fail(playwright);

  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'kubedrift-smoke-'));
  let shell: BrowserShell | undefined;
  let browser: Awaited<ReturnType<Playwright['chromium']['launch']>> | undefined;
  try {
    shell = await startBrowserShell({
      engine: {
        version: packageVersion(),
        dataDir: path.resolve(options.dataDir ?? path.join(tempDir, 'data')),
        // A kubeconfig that does not exist: only the built-in demo context is listed, and chosen.
        kubeconfig: path.join(tempDir, 'no-kubeconfig'),
        context: DEMO_CONTEXT,
        loginShellPath: false,
        watchKubeconfig: false,
      },
      staticDir: options.staticDir,
    });
    browser = await playwright.chromium.launch({
      executablePath: chromiumBinary.executablePath,
      args: [...CHROMIUM_ARGS],
      headless: true,
      env: { ...process.env, ...env, ...chromiumBinary.env },
    });
    const page = await browser.newPage();
    let failure: string | undefined;
    let lastPageError: string | undefined;
    page.on('crash', () => (failure = 'the page crashed'));
    page.on('pageerror', (error) => (lastPageError = error.message.split('\n')[0]));
    await page.goto(shell.url, { waitUntil: 'domcontentloaded', timeout: options.timeoutMs });
    const result: SmokeResult = await waitForOverviewLive({
      probe: () => page.evaluate(READY_PROBE_SCRIPT),
      now: () => performance.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      startedAt,
      timeoutMs: options.timeoutMs,
      failure: () => failure,
      expectedContext: DEMO_CONTEXT,
    });
    if (!result.ok) return fail(lastPageError ? `${result.reason}; the page's last error: ${lastPageError}` : result.reason);
    console.log(smokeLine(result));
    return 0;
  } catch (error) {
    return fail(error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error));
  } finally {
    await browser?.close().catch(() => undefined);
    await shell?.close().catch(() => undefined);
    await rm(tempDir, { recursive: true, force: true });
  }
}
