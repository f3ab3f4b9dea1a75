/**
 * The desktop app's file dialogs for the engine's snapshot feature (engine/snapshot/dialogs.ts):
 * Electron's save and open dialogs, attached to the focused window so they open as its sheet on
 * macOS. Takes the parts of Electron it uses, so the test needs no Electron.
 */
import type { FileDialogs, FileFilter } from './engine/snapshot/dialogs.ts';

interface DialogResult {
  canceled: boolean;
  filePath?: string;
  filePaths?: string[];
}

/** The parts of Electron's `dialog` module used. */
export interface DialogLike {
  showSaveDialog(window: unknown, options: { title: string; defaultPath: string; filters: FileFilter[] }): Promise<DialogResult>;
  showOpenDialog(window: unknown, options: { title: string; filters: FileFilter[]; properties: string[] }): Promise<DialogResult>;
}

export function createFileDialogs(options: { dialog: DialogLike; focusedWindow: () => unknown; defaultDir: () => string }): FileDialogs {
  const { dialog } = options;
  return {
    async save({ title, defaultName, filters }) {
      const result = await dialog.showSaveDialog(options.focusedWindow(), { title, defaultPath: `${options.defaultDir()}/${defaultName}`, filters });
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    async open({ title, filters }) {
      const result = await dialog.showOpenDialog(options.focusedWindow(), { title, filters: [...filters, { name: 'All files', extensions: ['*'] }], properties: ['openFile'] });
      return result.canceled ? null : (result.filePaths?.[0] ?? null);
    },
  };
}
