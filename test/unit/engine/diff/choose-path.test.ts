/**
 * `diff:choose-path` through the diff feature: with the desktop app's dialogs it opens the native
 * folder or manifest-file picker (starting beside the last path) and answers the choice or null;
 * without them (the browser shell) it refuses with what to do instead, and `diff:config` says so.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDiffFeature } from '../../../../electron/engine/diff/index.ts';
import type { FileDialogs } from '../../../../electron/engine/dialogs.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { copyFixtures } from './fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
let features: Array<ReturnType<typeof createDiffFeature>>;

beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-diff-pick-'));
  features = [];
});
afterEach(async () => {
  for (const feature of features) await feature.dispose();
  await cleanup();
});

function fakeDialogs(answer: string | null) {
  return { save: vi.fn(async () => answer), open: vi.fn(async () => answer), openFolder: vi.fn(async () => answer) } satisfies FileDialogs;
}

function start(dialogs?: FileDialogs) {
  const fake = fakeEngineContext({ dataDir: path.join(dir, 'data'), selected: null });
  const feature = createDiffFeature(fake.context, dialogs ? { dialogs } : {});
  features.push(feature);
  fake.switchTo('kind-dev');
  return feature.handlers;
}

describe('choosing a manifest path with a native picker', () => {
  it('opens the folder picker and answers the chosen folder; diff:config offers the picker', async () => {
    const dialogs = fakeDialogs('/repo/manifests');
    const h = start(dialogs);
    expect(await h['diff:choose-path']({ kind: 'folder' })).toEqual({ ok: true, value: { path: '/repo/manifests' } });
    expect(dialogs.openFolder).toHaveBeenCalledWith({ title: 'Choose a folder of manifests', defaultPath: undefined });
    expect(dialogs.open).not.toHaveBeenCalled();
    const config = await h['diff:config']({});
    expect(config.ok && config.value.picker).toBe(true);
  });

  it('opens the file picker with the YAML/JSON filter, beside the last saved path', async () => {
    const [guestbook] = await copyFixtures(dir, 'guestbook');
    const dialogs = fakeDialogs('/repo/web.yaml');
    const h = start(dialogs);
    expect((await h['diff:paths']({ paths: [guestbook as string] })).ok).toBe(true);
    expect(await h['diff:choose-path']({ kind: 'file' })).toEqual({ ok: true, value: { path: '/repo/web.yaml' } });
    expect(dialogs.open).toHaveBeenCalledWith({ title: 'Choose a manifest file', filters: [{ name: 'Kubernetes manifests', extensions: ['yaml', 'yml', 'json'] }], defaultPath: path.dirname(guestbook as string) });
    expect(dialogs.openFolder).not.toHaveBeenCalled();
  });

  it('answers a null path when the user cancels, and a clear error when the dialog fails', async () => {
    const dialogs = fakeDialogs(null);
    const h = start(dialogs);
    expect(await h['diff:choose-path']({ kind: 'folder' })).toEqual({ ok: true, value: { path: null } });
    dialogs.openFolder.mockRejectedValueOnce(new Error('no display'));
    expect(await h['diff:choose-path']({ kind: 'folder' })).toEqual({ ok: false, error: { code: 'internal', message: 'The folder picker could not open: no display' } });
  });

  it('refuses in the browser shell (no dialogs), saying to type or paste the path, and diff:config hides the picker', async () => {
    const h = start();
    for (const kind of ['folder', 'file'] as const) {
      expect(await h['diff:choose-path']({ kind })).toEqual({
        ok: false,
        error: { code: 'unavailable', message: 'The browser shell cannot open a native folder or file picker: type or paste the path into the field instead.' },
      });
    }
    const config = await h['diff:config']({});
    expect(config.ok && config.value.picker).toBe(false);
  });
});
