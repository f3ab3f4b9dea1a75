import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildTrayMenu, createRecordingTray, keepRunningWithoutWindow } from '../../../electron/desktop/tray.ts';
import type { BackgroundStatus } from '../../../shared/contracts/background.ts';

const SINCE = Date.UTC(2026, 10, 27, 8, 41);
const RECORDING: BackgroundStatus = {
  contexts: [
    { context: 'staging-eu', state: 'recording', recordingSince: SINCE, lastError: null, retryAt: null },
    { context: 'prod-us', state: 'retrying', recordingSince: null, lastError: { at: SINCE, message: 'Unauthorized (401)' }, retryAt: SINCE + 5_000 },
    { context: 'kind-dev', state: 'selected', recordingSince: null, lastError: null, retryAt: null },
  ],
};
const NONE: BackgroundStatus = { contexts: [] };

function fakeTray() {
  const listeners = new Map<string, () => void>();
  return {
    setToolTip: vi.fn(),
    setContextMenu: vi.fn(),
    on: vi.fn((event: string, listener: () => void) => listeners.set(event, listener)),
    destroy: vi.fn(),
    click: () => listeners.get('click')?.(),
  };
}

function setup(platform: NodeJS.Platform) {
  const trays: Array<ReturnType<typeof fakeTray>> = [];
  const actions = { openWindow: vi.fn(), quit: vi.fn() };
  const tray = createRecordingTray({
    platform,
    createTray: () => {
      const made = fakeTray();
      trays.push(made);
      return made;
    },
    buildMenu: (template) => ({ template }),
    ...actions,
  });
  const menu = (): MenuItemConstructorOptions[] => (trays.at(-1)?.setContextMenu.mock.calls.at(-1)?.[0] as { template: MenuItemConstructorOptions[] }).template;
  return { tray, trays, actions, menu };
}

describe('closing the window', () => {
  it('never quits on macOS', () => {
    expect(keepRunningWithoutWindow('darwin', NONE)).toBe(true);
    expect(keepRunningWithoutWindow('darwin', RECORDING)).toBe(true);
  });

  it('quits on Windows and Linux unless contexts record in the background', () => {
    for (const platform of ['win32', 'linux'] as const) {
      expect(keepRunningWithoutWindow(platform, NONE)).toBe(false);
      expect(keepRunningWithoutWindow(platform, RECORDING)).toBe(true);
    }
  });
});

describe('the recording tray', () => {
  it('shows no icon while nothing records in the background, and one once contexts do', () => {
    const { tray, trays } = setup('linux');
    tray.update(NONE);
    expect(trays).toHaveLength(0);
    tray.update(RECORDING);
    expect(trays).toHaveLength(1);
    expect(trays[0]?.setToolTip).toHaveBeenLastCalledWith('Kubedrift: recording 2 of 3 contexts');
    tray.update(RECORDING);
    expect(trays).toHaveLength(1);
  });

  it('lists each recorded context, then "Open Kubedrift" and "Quit Kubedrift", which do what they say', () => {
    const { tray, actions, menu } = setup('win32');
    tray.update(RECORDING);
    const labels = menu().map((item) => item.label ?? item.type);
    expect(labels[0]).toBe('Recording in the background');
    expect(labels[1]).toMatch(/^staging-eu: recording since /);
    expect(labels.slice(2)).toEqual(['prod-us: not recording (Unauthorized (401))', 'kind-dev: recording (selected)', 'separator', 'Open Kubedrift', 'Quit Kubedrift']);
    expect(menu().slice(0, 4).every((item) => item.enabled === false)).toBe(true);
    (menu().find((item) => item.label === 'Open Kubedrift')?.click as () => void)();
    expect(actions.openWindow).toHaveBeenCalledTimes(1);
    (menu().find((item) => item.label === 'Quit Kubedrift')?.click as () => void)();
    expect(actions.quit).toHaveBeenCalledTimes(1);
  });

  it('says a context the shared store does not take records on this computer only', () => {
    const { tray, menu } = setup('linux');
    const notice = 'Recording on this computer only: The shared history store kubedrift@db:5432/history already has a recorder for staging-eu: kubedrift record on recorder-0 (pid 1) is writing it.';
    tray.update({ contexts: [{ context: 'staging-eu', state: 'recording', recordingSince: 0, lastError: null, retryAt: null, notice }] });
    expect(menu()[1]?.label).toBe('staging-eu: recording on this computer only');
  });

  it('opens the window on a click on Windows and Linux; on macOS a click shows the menu', () => {
    const linux = setup('linux');
    linux.tray.update(RECORDING);
    linux.trays[0]?.click();
    expect(linux.actions.openWindow).toHaveBeenCalledTimes(1);
    const mac = setup('darwin');
    mac.tray.update(RECORDING);
    expect(mac.trays[0]?.on).not.toHaveBeenCalled();
  });

  it('removes the icon when background recording is switched off, and on quit', () => {
    const { tray, trays } = setup('linux');
    tray.update(RECORDING);
    tray.update(NONE);
    expect(trays[0]?.destroy).toHaveBeenCalledTimes(1);
    tray.update(RECORDING);
    tray.destroy();
    expect(trays[1]?.destroy).toHaveBeenCalledTimes(1);
  });

  it('builds the menu from the status alone', () => {
    expect(buildTrayMenu(NONE, { openWindow: () => {}, quit: () => {} }).map((item) => item.label ?? item.type)).toEqual(['Recording in the background', 'separator', 'Open Kubedrift', 'Quit Kubedrift']);
  });
});
