/** `cluster:frames` over Electron IPC: carried unchanged, and never sent to a torn-down page. */
import { describe, expect, it } from 'vitest';
import { StreamHub } from '../../../electron/engine/hub.ts';
import { bindIpc } from '../../../electron/desktop/ipc-electron.ts';
import { IPC_PREFIX } from '../../../shared/contract.ts';
import type { ClusterFrame } from '../../../shared/cluster.ts';
import { ok } from '../../../shared/result.ts';

const FRAME: ClusterFrame = { type: 'delta', epoch: 'e1', seq: 1, upserts: [], kinds: [], deletes: [{ kind: 'pods', uid: 'u1' }] };

function setup() {
  const sent: [string, unknown][] = [];
  const state = { windowDestroyed: false, contentsDestroyed: false };
  const webContents = {
    mainFrame: { url: 'app://index.html', processId: 1, frameToken: 't' },
    isDestroyed: () => state.contentsDestroyed,
    send: (channel: string, payload: unknown) => sent.push([channel, payload]),
  };
  const hub = new StreamHub();
  bindIpc({
    ipcMain: { handle: () => {}, removeHandler: () => {} },
    window: { isDestroyed: () => state.windowDestroyed, webContents },
    engine: { hub, dispatch: async () => ok(1) },
    isAppUrl: (url) => url === 'app://index.html',
  });
  return { sent, state, hub };
}

describe('cluster:frames over Electron IPC', () => {
  it('carries frames to our page unchanged', () => {
    const s = setup();
    s.hub.emit('cluster:frames', FRAME);
    expect(s.sent).toEqual([[`${IPC_PREFIX}cluster:frames`, FRAME]]);
  });

  it('skips a destroyed webContents even while its window object lives', () => {
    const s = setup();
    s.state.contentsDestroyed = true;
    s.hub.emit('cluster:frames', FRAME);
    expect(s.sent).toEqual([]);
    s.state.contentsDestroyed = false;
    s.hub.emit('cluster:frames', { ...FRAME, seq: 2 });
    expect(s.sent.map(([, frame]) => (frame as ClusterFrame).seq)).toEqual([2]);
  });
});
