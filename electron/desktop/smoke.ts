/**
 * The desktop app's `--smoke-test` (launch.ts): the packaged app opens its window on the demo
 * cluster, waits until the renderer reports the Overview live — the signal
 * `kubedrift serve --smoke-test` waits for in headless Chromium (shared/smoke.ts) — prints one
 * line and quits with 0, or 1 with the reason. Pure: the window's JavaScript, the clock and the
 * output are passed in, so it is tested without Electron; main.ts wires it.
 */
import path from 'node:path';
import { DEMO_CONTEXT } from '../../shared/model.ts';
import { READY_PROBE_SCRIPT, SMOKE_TIMEOUT_MS, smokeLine, smokeTimeoutMs, waitForOverviewLive } from '../../shared/smoke.ts';

export interface DesktopSmokeOptions {
  /** `--smoke-timeout` as typed, if given. */
  timeout?: string | undefined;
  /** `webContents.executeJavaScript` of the app's window. */
  executeJavaScript: (code: string) => Promise<unknown>;
  /** What went wrong for good, once the window knows (renderer gone, page failed to load). */
  failure: () => string | undefined;
  /** When the app started (the line reports the time since). */
  startedAt: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  print: (line: string) => void;
  printError: (line: string) => void;
}

/** Waits for the Overview, prints the line and resolves to the exit code. */
export async function runDesktopSmoke(options: DesktopSmokeOptions): Promise<number> {
  const timeoutMs = options.timeout === undefined ? SMOKE_TIMEOUT_MS : smokeTimeoutMs(options.timeout);
  if (timeoutMs === undefined) {
    options.printError(smokeLine({ ok: false, reason: `--smoke-timeout must be a positive number of seconds, got "${options.timeout}"`, elapsedMs: 0 }));
    return 1;
  }
  const result = await waitForOverviewLive({
    probe: () => options.executeJavaScript(READY_PROBE_SCRIPT),
    now: options.now,
    sleep: options.sleep,
    startedAt: options.startedAt,
    timeoutMs,
    failure: options.failure,
    expectedContext: DEMO_CONTEXT,
  });
  (result.ok ? options.print : options.printError)(smokeLine(result));
  return result.ok ? 0 : 1;
}

/** The engine options a smoke test overrides: only the demo context, no kubeconfig read or watched. */
export function smokeEngineOptions(options: { dataDir: string }): { kubeconfig: string; context: string; watchKubeconfig: false; loginShellPath: false } {
  return {
    // A file that does not exist: the user's kubeconfig (exec plugins, broken files) is not read.
    kubeconfig: path.join(options.dataDir, 'no-kubeconfig'),
    context: DEMO_CONTEXT,
    watchKubeconfig: false,
    loginShellPath: false,
  };
}
