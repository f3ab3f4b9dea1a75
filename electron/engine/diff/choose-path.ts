/**
 * "Choose folder…" / "Choose file…" on the diff screen: the desktop app's native picker, through
 * the dialogs it lends the engine (engine/dialogs.ts). The browser shell has none — its engine may
 * not even run on the machine the browser does — so there the request is refused with what to do
 * instead, and `diff:config` tells the screen not to offer the button.
 */
import path from 'node:path';
import type { DiffPathKind } from '../../../shared/contracts/diff.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import type { FileDialogs, FileFilter } from '../dialogs.ts';

const MANIFEST_FILTER: FileFilter = { name: 'Kubernetes manifests', extensions: ['yaml', 'yml', 'json'] };

export const NO_PICKER_MESSAGE = 'The browser shell cannot open a native folder or file picker: type or paste the path into the field instead.';

/**
 * Opens the picker for `kind`, starting beside `near` (the path chosen last, so a sibling folder
 * of the same repository is one click away). Answers the chosen path, or null when cancelled.
 */
export async function choosePath(dialogs: FileDialogs | undefined, kind: DiffPathKind, near: string | undefined): Promise<Result<{ path: string | null }>> {
  if (!dialogs) return err('unavailable', NO_PICKER_MESSAGE);
  const defaultPath = near === undefined ? undefined : path.dirname(near);
  try {
    const chosen =
      kind === 'folder'
        ? await dialogs.openFolder({ title: 'Choose a folder of manifests', defaultPath })
        : await dialogs.open({ title: 'Choose a manifest file', filters: [MANIFEST_FILTER], defaultPath });
    return ok({ path: chosen });
  } catch (error) {
    return err('internal', `The ${kind} picker could not open: ${(error as Error).message}`);
  }
}
