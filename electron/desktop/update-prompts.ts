/**
 * The Electron side of updates.ts: its two questions as native message boxes, and the declined
 * version kept in a small JSON file in userData (desktop-only state, like the window's geometry,
 * so it is not part of the engine's settings or the contract).
 */
import * as nodeFs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { DeclinedVersionStore, UpdateQuestion } from './updates.ts';

export const UPDATES_STATE_FILE = 'updates.json';

const UpdatesStateSchema = z.object({ declinedVersion: z.string().max(100).optional() });

/** The synchronous file operations used; injected by tests. */
export interface UpdatesStateFs {
  readFileSync(file: string, encoding: 'utf8'): string;
  writeFileSync(file: string, data: string, encoding: 'utf8'): void;
  renameSync(from: string, to: string): void;
  mkdirSync(dir: string, options: { recursive: true }): unknown;
}

/**
 * The declined version in `<dir>/updates.json`. A missing or damaged file means none was
 * declined (the worst case is one question asked again); a failed write is logged, not thrown.
 */
export function createDeclinedVersionStore(options: { dir: string; fs?: UpdatesStateFs; log: (message: string) => void }): DeclinedVersionStore {
  const fs = options.fs ?? nodeFs;
  const file = path.join(options.dir, UPDATES_STATE_FILE);
  let cached: string | undefined;
  let loaded = false;
  return {
    get() {
      if (loaded) return cached;
      loaded = true;
      try {
        const parsed = UpdatesStateSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
        if (parsed.success) cached = parsed.data.declinedVersion;
        else options.log(`[kubedrift] ${file} has unexpected content; no update is remembered as declined`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') options.log(`[kubedrift] ${file} could not be read: ${(error as Error).message}`);
      }
      return cached;
    },
    set(version) {
      cached = version;
      loaded = true;
      try {
        fs.mkdirSync(options.dir, { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(temp, JSON.stringify({ declinedVersion: version }, null, 2), 'utf8');
        fs.renameSync(temp, file);
      } catch (error) {
        options.log(`[kubedrift] ${file} could not be written: ${(error as Error).message}`);
      }
    },
  };
}

/** The part of Electron's `dialog` module used. */
export interface MessageBoxLike {
  showMessageBox(
    window: unknown,
    options: { type: 'info'; title: string; message: string; detail: string; buttons: string[]; defaultId: number; cancelId: number },
  ): Promise<{ response: number }>;
}

/** The text of each question; the first button is yes. */
export function questionText(question: UpdateQuestion): { message: string; detail: string; buttons: string[] } {
  if (question.kind === 'download') {
    return {
      message: `Download Kubedrift ${question.version}?`,
      detail: `You have ${question.currentVersion}. The download runs in the background; Kubedrift asks again before it installs anything. If you skip this version, it is not offered again (newer ones are).`,
      buttons: ['Download', 'Skip this version'],
    };
  }
  return {
    message: `Restart to install Kubedrift ${question.version}?`,
    detail: 'Kubedrift closes, installs the update and opens again. If you skip it, this version is not installed or offered again.',
    buttons: ['Restart now', 'Skip this version'],
  };
}

/** Asks a question in a message box on the app's window; closing the box counts as no. */
export function createUpdateAsker(options: { dialog: MessageBoxLike; window: () => unknown }): (question: UpdateQuestion) => Promise<boolean> {
  return async (question) => {
    const text = questionText(question);
    const { response } = await options.dialog.showMessageBox(options.window(), {
      type: 'info',
      title: 'Kubedrift update',
      ...text,
      defaultId: 0,
      cancelId: 1,
    });
    return response === 0;
  };
}
