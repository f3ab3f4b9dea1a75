import { describe, expect, it, vi } from 'vitest';
import { createFileDialogs, type DialogLike } from '../../../electron/desktop/file-dialogs.ts';

function setup(result: { canceled: boolean; filePath?: string; filePaths?: string[] }) {
  const window = { id: 1 };
  const dialog = { showSaveDialog: vi.fn(async () => result), showOpenDialog: vi.fn(async () => result) } satisfies DialogLike;
  const dialogs = createFileDialogs({ dialog, focusedWindow: () => window, defaultDir: () => '/home/me/Documents' });
  return { dialog, dialogs, window };
}

describe('desktop file dialogs', () => {
  it('asks where to save, proposing the export name in Documents, as a sheet of the focused window', async () => {
    const { dialog, dialogs, window } = setup({ canceled: false, filePath: '/tmp/prod.kubedrift.json.gz' });
    const filters = [{ name: 'Kubedrift snapshot', extensions: ['gz'] }];
    expect(await dialogs.save({ title: 'Save the export', defaultName: 'prod.kubedrift.json.gz', filters })).toBe('/tmp/prod.kubedrift.json.gz');
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(window, { title: 'Save the export', defaultPath: '/home/me/Documents/prod.kubedrift.json.gz', filters });
  });

  it('answers null when the user closes the dialog', async () => {
    const { dialogs } = setup({ canceled: true, filePath: '' });
    expect(await dialogs.save({ title: 't', defaultName: 'x', filters: [] })).toBeNull();
    expect(await dialogs.open({ title: 't', filters: [] })).toBeNull();
    expect(await dialogs.openFolder({ title: 't' })).toBeNull();
  });

  it('opens one file, offering the snapshot filter first and any file after it', async () => {
    const { dialog, dialogs } = setup({ canceled: false, filePaths: ['/tmp/a.kubedrift.json.gz'] });
    expect(await dialogs.open({ title: 'Open', filters: [{ name: 'Kubedrift snapshot', extensions: ['gz'] }] })).toBe('/tmp/a.kubedrift.json.gz');
    expect(dialog.showOpenDialog).toHaveBeenCalledWith(expect.anything(), {
      title: 'Open',
      filters: [{ name: 'Kubedrift snapshot', extensions: ['gz'] }, { name: 'All files', extensions: ['*'] }],
      properties: ['openFile'],
    });
  });

  it('picks one folder (no file filters), starting where it is told to', async () => {
    const { dialog, dialogs, window } = setup({ canceled: false, filePaths: ['/repo/manifests'] });
    expect(await dialogs.openFolder({ title: 'Choose a folder of manifests', defaultPath: '/repo' })).toBe('/repo/manifests');
    expect(dialog.showOpenDialog).toHaveBeenCalledWith(window, { title: 'Choose a folder of manifests', properties: ['openDirectory'], defaultPath: '/repo' });
    await dialogs.openFolder({ title: 'Choose a folder of manifests' });
    expect(dialog.showOpenDialog).toHaveBeenLastCalledWith(window, { title: 'Choose a folder of manifests', properties: ['openDirectory'] });
  });

  it('opens a manifest file with YAML/JSON filters first, starting beside the last path', async () => {
    const { dialog, dialogs } = setup({ canceled: false, filePaths: ['/repo/web.yaml'] });
    const filters = [{ name: 'Kubernetes manifests', extensions: ['yaml', 'yml', 'json'] }];
    expect(await dialogs.open({ title: 'Choose a manifest file', filters, defaultPath: '/repo' })).toBe('/repo/web.yaml');
    expect(dialog.showOpenDialog).toHaveBeenCalledWith(expect.anything(), {
      title: 'Choose a manifest file',
      filters: [...filters, { name: 'All files', extensions: ['*'] }],
      properties: ['openFile'],
      defaultPath: '/repo',
    });
  });

  it('answers null when the dialog reports no path even though it was not cancelled', async () => {
    const { dialogs } = setup({ canceled: false, filePaths: [] });
    expect(await dialogs.openFolder({ title: 't' })).toBeNull();
  });
});
