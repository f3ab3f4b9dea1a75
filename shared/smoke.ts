/**
 * The smoke test both shells run (`kubedrift serve --smoke-test`, the desktop app's
 * `--smoke-test`): open the renderer on the demo cluster, wait until it reports the Overview
 * live, print one line. The renderer reports through attributes on <html> (data-kubedrift-*),
 * which headless Chromium (playwright) and Electron (`webContents.executeJavaScript`) both read
 * the same way; the waiting is pure, with the probe, clock and sleep passed in.
 */

/** `data-kubedrift-ready` on <html> once the Overview has rendered live rows. */
export const OVERVIEW_LIVE = 'overview-live';

/** How long a smoke test waits for the Overview by default. */
export const SMOKE_TIMEOUT_MS = 60_000;
/** How often the page is asked. */
export const SMOKE_POLL_INTERVAL_MS = 100;

/** What the renderer reports once the Overview is live. */
export interface OverviewLive {
  context: string;
  workloads: number;
}

/**
 * Evaluated in the page: the report, or null before it. A string so that both shells can send
 * it as it is (playwright's `evaluate`, Electron's `executeJavaScript`).
 */
export const READY_PROBE_SCRIPT = `(() => {
  const data = document.documentElement.dataset;
  if (data.kubedriftReady !== ${JSON.stringify(OVERVIEW_LIVE)}) return null;
  return { context: data.kubedriftContext ?? '', workloads: Number(data.kubedriftWorkloads ?? 0) };
})()`;

/** The probe's answer as an `OverviewLive`, or null when the page has not reported it (or answered nonsense). */
export function parseReadyProbe(value: unknown): OverviewLive | null {
  if (typeof value !== 'object' || value === null) return null;
  const { context, workloads } = value as Record<string, unknown>;
  if (typeof context !== 'string' || typeof workloads !== 'number' || !Number.isFinite(workloads)) return null;
  return { context, workloads };
}

export type SmokeResult = { ok: true; live: OverviewLive; elapsedMs: number } | { ok: false; reason: string; elapsedMs: number };

export interface WaitForOverviewOptions {
  /** Asks the page once; throws when it cannot be asked (yet). */
  probe: () => Promise<unknown>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** When the smoke test started (the line reports the time since). */
  startedAt: number;
  timeoutMs?: number;
  intervalMs?: number;
  /** Something the shell knows went wrong for good (the page crashed): stop waiting and say so. */
  failure?: () => string | undefined;
  /** The context the Overview must be live on (the demo cluster's); another one is a failure. */
  expectedContext?: string;
}

/**
 * Asks the page until it reports the Overview live, the shell reports a failure, or the time
 * is up. A probe that throws (the page is still loading, navigating) is asked again; its last
 * error goes into the timeout's reason.
 */
export async function waitForOverviewLive(options: WaitForOverviewOptions): Promise<SmokeResult> {
  const timeoutMs = options.timeoutMs ?? SMOKE_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? SMOKE_POLL_INTERVAL_MS;
  let lastError: string | undefined;
  for (;;) {
    const failure = options.failure?.();
    if (failure) return { ok: false, reason: failure, elapsedMs: options.now() - options.startedAt };
    try {
      const live = parseReadyProbe(await options.probe());
      const elapsedMs = options.now() - options.startedAt;
      if (live && options.expectedContext !== undefined && live.context !== options.expectedContext) {
        return { ok: false, reason: `the Overview went live on "${live.context}", not on ${options.expectedContext}`, elapsedMs };
      }
      if (live) return { ok: true, live, elapsedMs };
      lastError = undefined;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    const elapsedMs = options.now() - options.startedAt;
    if (elapsedMs >= timeoutMs) {
      const detail = lastError ? ` (last error: ${lastError.split('\n')[0]})` : '';
      return { ok: false, reason: `the Overview did not go live within ${timeoutMs} ms${detail}`, elapsedMs };
    }
    await options.sleep(Math.min(intervalMs, timeoutMs - elapsedMs));
  }
}

/** The one line a smoke test prints. */
export function smokeLine(result: SmokeResult): string {
  if (!result.ok) return `kubedrift smoke-test: failed after ${Math.round(result.elapsedMs)} ms: ${result.reason}`;
  const { context, workloads } = result.live;
  return `kubedrift smoke-test: overview live on ${context} (${workloads.toLocaleString('en-US')} workloads) in ${Math.round(result.elapsedMs)} ms`;
}

/** A `--smoke-timeout` value (seconds) in milliseconds; undefined when it is not a positive number. */
export function smokeTimeoutMs(value: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(value)) return undefined;
  const seconds = Number(value);
  return seconds > 0 ? seconds * 1000 : undefined;
}
