/**
 * The native file dialogs the desktop app lends the engine: where to save an export, which
 * snapshot to open, which folder or file of manifests to diff. The engine only sees this
 * interface (it never imports Electron); electron/desktop/file-dialogs.ts implements it with
 * Electron's dialog module. Absent in the browser shell and the command line, which download,
 * upload or take a typed path instead — so every feature must work without it.
 */
export interface FileFilter {
  name: string;
  extensions: string[];
}

export interface FileDialogs {
  /** The path the user chose to save to, or null when they closed the dialog. */
  save(options: { title: string; defaultName: string; filters: FileFilter[] }): Promise<string | null>;
  /** The file the user chose to open, or null when they closed the dialog. Starts in `defaultPath` when given. */
  open(options: { title: string; filters: FileFilter[]; defaultPath?: string | undefined }): Promise<string | null>;
  /** The folder the user chose, or null when they closed the dialog. Starts in `defaultPath` when given. */
  openFolder(options: { title: string; defaultPath?: string | undefined }): Promise<string | null>;
}
