import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeclinedVersionStore, createUpdateAsker, UPDATES_STATE_FILE, type MessageBoxLike } from '../../../electron/desktop/update-prompts.ts';
import { withTempDir } from '../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir());
});
afterEach(() => cleanup());

describe('update questions', () => {
  function asker(response: number) {
    const window = { id: 1 };
    const dialog = { showMessageBox: vi.fn(async () => ({ response })) } satisfies MessageBoxLike;
    return { dialog, window, ask: createUpdateAsker({ dialog, window: () => window }) };
  }

  it('asks "Download Kubedrift X.Y.Z?" on the app window, naming the running version', async () => {
    const { dialog, window, ask } = asker(0);
    await expect(ask({ kind: 'download', version: '0.2.0', currentVersion: '0.1.0' })).resolves.toBe(true);
    expect(dialog.showMessageBox).toHaveBeenCalledWith(
      window,
      expect.objectContaining({ message: 'Download Kubedrift 0.2.0?', detail: expect.stringContaining('You have 0.1.0'), buttons: ['Download', 'Skip this version'], cancelId: 1 }),
    );
  });

  it('asks "Restart to install?" once downloaded', async () => {
    const { dialog, ask } = asker(0);
    await expect(ask({ kind: 'restart', version: '0.2.0' })).resolves.toBe(true);
    expect(dialog.showMessageBox).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ message: 'Restart to install Kubedrift 0.2.0?', buttons: ['Restart now', 'Skip this version'] }));
  });

  it('counts the second button, or a closed box (cancelId), as no', async () => {
    await expect(asker(1).ask({ kind: 'restart', version: '0.2.0' })).resolves.toBe(false);
  });
});

describe('declined version store', () => {
  const log = vi.fn();

  it('has nothing declined on a first run', () => {
    expect(createDeclinedVersionStore({ dir, log }).get()).toBeUndefined();
    expect(log).not.toHaveBeenCalled();
  });

  it('keeps the declined version in userData for the next run', () => {
    createDeclinedVersionStore({ dir, log }).set('0.2.0');
    expect(JSON.parse(readFileSync(path.join(dir, UPDATES_STATE_FILE), 'utf8'))).toEqual({ declinedVersion: '0.2.0' });
    expect(createDeclinedVersionStore({ dir, log }).get()).toBe('0.2.0');
  });

  it('treats a damaged file as nothing declined and says so in the log', () => {
    writeFileSync(path.join(dir, UPDATES_STATE_FILE), '{"declinedVersion": 3}');
    const messages: string[] = [];
    expect(createDeclinedVersionStore({ dir, log: (message) => messages.push(message) }).get()).toBeUndefined();
    expect(messages).toEqual([expect.stringContaining('unexpected content')]);
  });

  it('logs a failed write instead of throwing, and still remembers the version for this run', () => {
    const blocked = path.join(dir, 'blocked');
    mkdirSync(path.join(blocked, UPDATES_STATE_FILE), { recursive: true });
    const messages: string[] = [];
    const store = createDeclinedVersionStore({ dir: blocked, log: (message) => messages.push(message) });
    expect(() => store.set('0.2.0')).not.toThrow();
    expect(store.get()).toBe('0.2.0');
    expect(messages).toEqual([expect.stringContaining('could not be written')]);
  });
});
