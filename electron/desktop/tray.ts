/**
 * The tray (Windows, Linux) or menu-bar (macOS) icon shown while contexts record in the
 * background, and what closing the window does then. Closing the window is kept apart from
 * quitting, as each OS does it:
 * - macOS: closing the window never quits (the app stays in the Dock, and in the menu bar while
 *   recording); Quit (⌘Q, the menu, or the menu-bar icon's menu) ends it.
 * - Windows and Linux: closing the last window quits, unless contexts record in the background:
 *   then the app goes on in the tray, whose menu reopens the window or quits.
 * The window is closed for real (its renderer freed), not hidden; "Open Kubedrift" makes a new one.
 * Thin over Electron: the Tray and Menu are handed in, so this runs in unit tests with fakes.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { BackgroundContextStatus, BackgroundStatus } from '../../shared/contracts/background.ts';

/** Whether the app keeps running with no window. */
export function keepRunningWithoutWindow(platform: NodeJS.Platform, status: BackgroundStatus): boolean {
  return platform === 'darwin' || status.contexts.length > 0;
}

const clock = (at: number): string => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

function line(entry: BackgroundContextStatus): string {
  switch (entry.state) {
    case 'recording':
      // The whole notice is in Settings; a menu item says only that the shared store is not written.
      if (entry.notice?.startsWith('Recording on this computer only')) return `${entry.context}: recording on this computer only`;
      return `${entry.context}: recording since ${clock(entry.recordingSince ?? 0)}`;
    case 'selected':
      return `${entry.context}: recording (selected)`;
    case 'starting':
      return `${entry.context}: connecting…`;
    case 'retrying':
      return `${entry.context}: not recording${entry.lastError ? ` (${entry.lastError.message.slice(0, 80)})` : ''}`;
  }
}

export interface TrayMenuActions {
  openWindow(): void;
  quit(): void;
}

/** The icon's menu: the recorded contexts (informational), then "Open Kubedrift" and "Quit Kubedrift". */
export function buildTrayMenu(status: BackgroundStatus, actions: TrayMenuActions): MenuItemConstructorOptions[] {
  return [
    { label: 'Recording in the background', enabled: false },
    ...status.contexts.map((entry): MenuItemConstructorOptions => ({ label: line(entry), enabled: false })),
    { type: 'separator' },
    { label: 'Open Kubedrift', click: () => actions.openWindow() },
    { label: 'Quit Kubedrift', click: () => actions.quit() },
  ];
}

/** What the tray needs of Electron's Tray. */
export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface RecordingTrayOptions extends TrayMenuActions {
  platform: NodeJS.Platform;
  /** Makes the icon (called only when one is needed: Electron's Tray needs a ready app). */
  createTray(): TrayLike;
  buildMenu(template: MenuItemConstructorOptions[]): unknown;
}

export interface RecordingTray {
  /** Shows, updates or removes the icon for the latest `history:background` status. */
  update(status: BackgroundStatus): void;
  destroy(): void;
}

export function createRecordingTray(options: RecordingTrayOptions): RecordingTray {
  let tray: TrayLike | undefined;
  function destroy(): void {
    tray?.destroy();
    tray = undefined;
  }
  return {
    update(status) {
      if (status.contexts.length === 0) return destroy();
      if (!tray) {
        tray = options.createTray();
        // Windows and Linux open the window on a click; macOS shows the menu on a click instead.
        if (options.platform !== 'darwin') tray.on('click', () => options.openWindow());
      }
      const recording = status.contexts.filter((entry) => entry.state === 'recording' || entry.state === 'selected').length;
      tray.setToolTip(`Kubedrift: recording ${recording} of ${status.contexts.length} context${status.contexts.length === 1 ? '' : 's'}`);
      tray.setContextMenu(options.buildMenu(buildTrayMenu(status, options)));
    },
    destroy,
  };
}
