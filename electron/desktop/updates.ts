/**
 * When the desktop app looks for a newer release and what it does with one. Pure: the updater
 * (electron-updater's `autoUpdater`), the dialogs, the settings and the clock are passed in, so
 * every decision is tested without Electron.
 *
 * The rules: only a packaged app checks (a development build has no release to compare with);
 * the first check waits a little after start-up, then one runs every few hours while "Check for
 * updates" is on in Settings; nothing is downloaded or installed without a yes from the user; a
 * failed check (offline, server error) is logged and reported as a quiet status, never a modal
 * error; a version the user declined is not offered again (a newer one is).
 */
import type { UpdateStatus } from '../../shared/contracts/updates.ts';

/** The first check waits for start-up's own work (engine, first sync) to finish. */
export const FIRST_CHECK_DELAY_MS = 30_000;
/** Then a check every six hours while the app runs. */
export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** The parts of electron-updater's `AppUpdater` this module uses. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<{ isUpdateAvailable?: boolean; updateInfo: { version: string } } | null>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(): void;
}

/** The two questions the user is asked; `ask` resolves to true for yes. */
export type UpdateQuestion = { kind: 'download'; version: string; currentVersion: string } | { kind: 'restart'; version: string };

/** Remembers the one version the user declined, across runs. */
export interface DeclinedVersionStore {
  get(): string | undefined;
  set(version: string): void;
}

export interface UpdatesOptions {
  updater: UpdaterLike;
  /** `app.isPackaged`: a development build never checks. */
  isPackaged: boolean;
  currentVersion: string;
  /** Whether "Check for updates" is on in Settings, read before every check. */
  enabled: () => boolean;
  declined: DeclinedVersionStore;
  ask: (question: UpdateQuestion) => Promise<boolean>;
  /** The quiet status (Settings screen). */
  report: (status: UpdateStatus) => void;
  log: (message: string) => void;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  firstCheckDelayMs?: number;
  checkIntervalMs?: number;
}

/** What one check ended with; tests and the log read it. */
export type CheckOutcome =
  | 'not-packaged'
  | 'disabled'
  | 'busy'
  | 'up-to-date'
  | 'already-declined'
  | 'declined'
  | 'installing'
  | 'failed';

export interface Updates {
  /** Runs one check now (the timer's checks call this too). */
  check(): Promise<CheckOutcome>;
  /** Stops the timer; a check already running finishes. */
  stop(): void;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // electron-updater's messages can carry a whole HTTP response; the status keeps the first line.
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

/**
 * Sets the updater up to ask first (no automatic download, no install on quit) and schedules
 * the checks. An unpackaged app gets no timer at all.
 */
export function startUpdates(options: UpdatesOptions): Updates {
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const { updater, log } = options;
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;

  let running = false;
  let stopped = false;
  let timer: unknown;

  const report = (status: Omit<UpdateStatus, 'at'>): void => options.report({ ...status, at: now() });

  async function offer(version: string): Promise<CheckOutcome> {
    report({ state: 'available', version });
    if (!(await options.ask({ kind: 'download', version, currentVersion: options.currentVersion }))) return decline(version);
    report({ state: 'downloading', version });
    await updater.downloadUpdate();
    report({ state: 'downloaded', version });
    if (!(await options.ask({ kind: 'restart', version }))) return decline(version);
    log(`[kubedrift] updates: restarting to install ${version}`);
    updater.quitAndInstall();
    return 'installing';
  }

  function decline(version: string): CheckOutcome {
    options.declined.set(version);
    log(`[kubedrift] updates: ${version} declined; it will not be offered again`);
    report({ state: 'skipped', version });
    return 'declined';
  }

  async function check(): Promise<CheckOutcome> {
    if (!options.isPackaged) return 'not-packaged';
    if (!options.enabled()) return 'disabled';
    if (running) return 'busy';
    running = true;
    try {
      report({ state: 'checking' });
      const result = await updater.checkForUpdates();
      const version = result?.updateInfo.version;
      if (!result || !version || result.isUpdateAvailable === false) {
        report({ state: 'up-to-date' });
        return 'up-to-date';
      }
      if (options.declined.get() === version) {
        report({ state: 'skipped', version });
        return 'already-declined';
      }
      return await offer(version);
    } catch (error) {
      const message = messageOf(error);
      log(`[kubedrift] updates: check failed: ${message}`);
      report({ state: 'failed', message });
      return 'failed';
    } finally {
      running = false;
    }
  }

  function schedule(ms: number): void {
    if (stopped) return;
    timer = setTimer(() => {
      void check().finally(() => schedule(options.checkIntervalMs ?? CHECK_INTERVAL_MS));
    }, ms);
  }

  if (options.isPackaged) {
    schedule(options.firstCheckDelayMs ?? FIRST_CHECK_DELAY_MS);
  } else {
    log('[kubedrift] updates: not a packaged app; not checking for updates');
  }

  return {
    check,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimer(timer);
    },
  };
}
