/**
 * The file dialogs the desktop app lends the engine: where to save an export, which snapshot to
 * open. The engine only sees this interface (it never imports Electron); electron/file-dialogs.ts
 * implements it with Electron's dialog module. Absent in the browser shell and the command line,
 * which download and upload instead.
 */
export interface FileFilter {
  name: string;
  extensions: string[];
}

export interface FileDialogs {
  /** The path the user chose to save to, or null when they closed the dialog. */
  save(options: { title: string; defaultName: string; filters: FileFilter[] }): Promise<string | null>;
  /** The file the user chose to open, or null when they closed the dialog. */
  open(options: { title: string; filters: FileFilter[] }): Promise<string | null>;
}
