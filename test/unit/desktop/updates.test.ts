import { describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../../shared/contracts/updates.ts';
import {
  CHECK_INTERVAL_MS,
  FIRST_CHECK_DELAY_MS,
  startUpdates,
  type UpdateQuestion,
  type UpdaterLike,
  type UpdatesOptions,
} from '../../../electron/desktop/updates.ts';

// updates.ts must decide without Electron: loading it with Electron unavailable proves it.
vi.mock('electron', () => {
  throw new Error('updates.ts must not import electron');
});

/** What electron-updater's checkForUpdates resolves to when the feed has `version`. */
function feed(version: string, isUpdateAvailable: boolean) {
  return { isUpdateAvailable, updateInfo: { version, files: [], path: '', sha512: '', releaseDate: '2026-11-27T10:00:00.000Z' } };
}

function fakeUpdater(check: () => Promise<ReturnType<typeof feed> | null>) {
  return {
    autoDownload: true,
    autoInstallOnAppQuit: true,
    checkForUpdates: vi.fn(check),
    downloadUpdate: vi.fn(async () => ['/tmp/Kubedrift-0.2.0.AppImage']),
    quitAndInstall: vi.fn(),
  } satisfies UpdaterLike;
}

interface Setup {
  updater?: ReturnType<typeof fakeUpdater>;
  answers?: boolean[];
  enabled?: () => boolean;
  isPackaged?: boolean;
  declined?: string;
}

function setup(options: Setup = {}) {
  const updater = options.updater ?? fakeUpdater(async () => feed('0.2.0', true));
  const answers = [...(options.answers ?? [])];
  const questions: UpdateQuestion[] = [];
  const statuses: UpdateStatus[] = [];
  const logs: string[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  let declined = options.declined;
  const config: UpdatesOptions = {
    updater,
    isPackaged: options.isPackaged ?? true,
    currentVersion: '0.1.0',
    enabled: options.enabled ?? (() => true),
    declined: { get: () => declined, set: (version) => (declined = version) },
    ask: async (question) => {
      questions.push(question);
      return answers.shift() ?? false;
    },
    report: (status) => statuses.push(status),
    log: (message) => logs.push(message),
    now: () => 1_764_237_600_000,
    setTimer: (callback, ms) => timers.push({ callback, ms }),
    clearTimer: vi.fn(),
  };
  const updates = startUpdates(config);
  return { updates, updater, questions, statuses, logs, timers, declined: () => declined, config };
}

describe('update checks', () => {
  it('turns off automatic download and install-on-quit, so nothing happens without a yes', () => {
    const { updater } = setup();
    expect(updater.autoDownload).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(false);
  });

  it('offers a newer version, downloads it after a yes and restarts to install it after a second yes', async () => {
    const { updates, updater, questions, statuses } = setup({ answers: [true, true] });
    await expect(updates.check()).resolves.toBe('installing');
    expect(questions).toEqual([
      { kind: 'download', version: '0.2.0', currentVersion: '0.1.0' },
      { kind: 'restart', version: '0.2.0' },
    ]);
    expect(updater.downloadUpdate).toHaveBeenCalledOnce();
    expect(updater.quitAndInstall).toHaveBeenCalledOnce();
    expect(statuses.map((status) => status.state)).toEqual(['checking', 'available', 'downloading', 'downloaded']);
    expect(statuses[1]).toEqual({ state: 'available', version: '0.2.0', at: 1_764_237_600_000 });
  });

  it('asks nothing and reports up to date when the feed has no newer version', async () => {
    const { updates, updater, questions, statuses } = setup({ updater: fakeUpdater(async () => feed('0.1.0', false)) });
    await expect(updates.check()).resolves.toBe('up-to-date');
    expect(questions).toEqual([]);
    expect(updater.downloadUpdate).not.toHaveBeenCalled();
    expect(statuses.at(-1)).toMatchObject({ state: 'up-to-date' });
  });

  it('treats an updater that has nothing to check (null result) as up to date', async () => {
    const { updates, questions } = setup({ updater: fakeUpdater(async () => null) });
    await expect(updates.check()).resolves.toBe('up-to-date');
    expect(questions).toEqual([]);
  });

  it('logs an offline check and reports it as a quiet failed status, asking nothing', async () => {
    const offline = fakeUpdater(async () => {
      throw new Error('net::ERR_INTERNET_DISCONNECTED\n    at SimpleURLLoaderWrapper.<anonymous> (node:electron/js2c/browser_init:2:114720)');
    });
    const { updates, questions, statuses, logs } = setup({ updater: offline });
    await expect(updates.check()).resolves.toBe('failed');
    expect(questions).toEqual([]);
    expect(statuses.at(-1)).toEqual({ state: 'failed', message: 'net::ERR_INTERNET_DISCONNECTED', at: 1_764_237_600_000 });
    expect(logs).toContainEqual('[kubedrift] updates: check failed: net::ERR_INTERNET_DISCONNECTED');
  });

  it('reports a failed download and installs nothing', async () => {
    const updater = fakeUpdater(async () => feed('0.2.0', true));
    updater.downloadUpdate.mockRejectedValueOnce(new Error('HttpError: 404 Not Found'));
    const { updates, questions } = setup({ updater, answers: [true, true] });
    await expect(updates.check()).resolves.toBe('failed');
    expect(questions).toHaveLength(1);
    expect(updater.quitAndInstall).not.toHaveBeenCalled();
  });

  it('remembers a declined version, does not ask about it again, and still offers a newer one', async () => {
    let version = '0.2.0';
    const updater = fakeUpdater(async () => feed(version, true));
    const { updates, questions, statuses, declined } = setup({ updater, answers: [false, false] });
    await expect(updates.check()).resolves.toBe('declined');
    expect(updater.downloadUpdate).not.toHaveBeenCalled();
    expect(declined()).toBe('0.2.0');
    expect(statuses.at(-1)).toMatchObject({ state: 'skipped', version: '0.2.0' });

    await expect(updates.check()).resolves.toBe('already-declined');
    expect(questions).toHaveLength(1);

    version = '0.3.0';
    await expect(updates.check()).resolves.toBe('declined');
    expect(questions.map((question) => question.version)).toEqual(['0.2.0', '0.3.0']);
  });

  it('does not ask about a version declined in an earlier run', async () => {
    const { updates, questions } = setup({ declined: '0.2.0' });
    await expect(updates.check()).resolves.toBe('already-declined');
    expect(questions).toEqual([]);
  });

  it('installs nothing when the user declines the restart, and skips that version from then on', async () => {
    const { updates, updater, declined } = setup({ answers: [true, false] });
    await expect(updates.check()).resolves.toBe('declined');
    expect(updater.downloadUpdate).toHaveBeenCalledOnce();
    expect(updater.quitAndInstall).not.toHaveBeenCalled();
    expect(declined()).toBe('0.2.0');
  });

  it('makes no check at all while switched off in Settings, and checks again once switched on', async () => {
    let enabled = false;
    const { updates, updater, statuses, timers } = setup({ enabled: () => enabled });
    await expect(updates.check()).resolves.toBe('disabled');
    timers[0]?.callback();
    await vi.waitFor(() => expect(timers).toHaveLength(2));
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    expect(statuses).toEqual([]);

    enabled = true;
    timers[1]?.callback();
    await vi.waitFor(() => expect(updater.checkForUpdates).toHaveBeenCalledOnce());
  });

  it('never checks or schedules anything in an app that is not packaged', async () => {
    const { updates, updater, timers, logs } = setup({ isPackaged: false });
    expect(timers).toEqual([]);
    await expect(updates.check()).resolves.toBe('not-packaged');
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    expect(logs).toContainEqual(expect.stringContaining('not a packaged app'));
  });

  it('checks first after the start-up delay, then every interval', async () => {
    const { updater, timers } = setup({ updater: fakeUpdater(async () => feed('0.1.0', false)) });
    expect(timers.map((timer) => timer.ms)).toEqual([FIRST_CHECK_DELAY_MS]);
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    timers[0]?.callback();
    await vi.waitFor(() => expect(timers).toHaveLength(2));
    expect(updater.checkForUpdates).toHaveBeenCalledOnce();
    expect(timers[1]?.ms).toBe(CHECK_INTERVAL_MS);
  });

  it('stops scheduling checks once stopped', async () => {
    const { updates, timers, config } = setup();
    updates.stop();
    expect(config.clearTimer).toHaveBeenCalledOnce();
    timers[0]?.callback();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(timers).toHaveLength(1);
  });

  it('does not start a second check while one is still running', async () => {
    let release: (value: ReturnType<typeof feed>) => void = () => undefined;
    const updater = fakeUpdater(() => new Promise((resolve) => (release = resolve)));
    const { updates } = setup({ updater });
    const first = updates.check();
    await expect(updates.check()).resolves.toBe('busy');
    release(feed('0.1.0', false));
    await expect(first).resolves.toBe('up-to-date');
    expect(updater.checkForUpdates).toHaveBeenCalledOnce();
  });
});
