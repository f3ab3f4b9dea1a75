/**
 * The desktop app's file dialogs for the engine (engine/dialogs.ts): Electron's save and open
 * dialogs, attached to the focused window so they open as its sheet on macOS. Takes the parts of
 * Electron it uses, so the test needs no Electron.
 */
import type { FileDialogs, FileFilter } from '../engine/dialogs.ts';

interface DialogResult {
  canceled: boolean;
  filePath?: string;
  filePaths?: string[];
}

interface OpenDialogOptions {
  title: string;
  properties: string[];
  filters?: FileFilter[];
  defaultPath?: string;
}

/** The parts of Electron's `dialog` module used. */
export interface DialogLike {
  showSaveDialog(window: unknown, options: { title: string; defaultPath: string; filters: FileFilter[] }): Promise<DialogResult>;
  showOpenDialog(window: unknown, options: OpenDialogOptions): Promise<DialogResult>;
}

export function createFileDialogs(options: { dialog: DialogLike; focusedWindow: () => unknown; defaultDir: () => string }): FileDialogs {
  const { dialog } = options;
  /** The one path chosen in an open dialog, or null when the user closed it. */
  async function openOne(open: OpenDialogOptions, defaultPath: string | undefined): Promise<string | null> {
    const result = await dialog.showOpenDialog(options.focusedWindow(), defaultPath ? { ...open, defaultPath } : open);
    return result.canceled ? null : (result.filePaths?.[0] ?? null);
  }
  return {
    async save({ title, defaultName, filters }) {
      const result = await dialog.showSaveDialog(options.focusedWindow(), { title, defaultPath: `${options.defaultDir()}/${defaultName}`, filters });
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    open: ({ title, filters, defaultPath }) => openOne({ title, filters: [...filters, { name: 'All files', extensions: ['*'] }], properties: ['openFile'] }, defaultPath),
    openFolder: ({ title, defaultPath }) => openOne({ title, properties: ['openDirectory'] }, defaultPath),
  };
}
