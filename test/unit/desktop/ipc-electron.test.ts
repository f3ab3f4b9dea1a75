import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../../electron/engine/engine.ts';
import { StreamHub } from '../../../electron/engine/hub.ts';
import { bindIpc, type IpcFrame, type IpcInvokeEvent, type IpcMainLike } from '../../../electron/desktop/ipc-electron.ts';
import { REPLAY_CHANNEL } from '../../../electron/desktop/preload-bridge.ts';
import { createAppUrlMatcher } from '../../../electron/desktop/security.ts';
import { IPC_PREFIX, REQUEST_CHANNELS } from '../../../shared/contract.ts';
import { ok } from '../../../shared/result.ts';
import { withTempDir } from '../../helpers/tmp.ts';

const INDEX = path.resolve('/opt/Kubedrift/out/renderer/index.html');
const APP_URL = pathToFileURL(INDEX).href;
const SETTINGS = { theme: 'dark', lastContext: null };

type Listener = (event: IpcInvokeEvent, payload: unknown) => Promise<unknown>;

function setup(options: { dispatch?: (channel: unknown, payload: unknown) => Promise<unknown> } = {}) {
  const handlers = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle(channel, listener) {
      // Electron throws on a second handler for one channel; so does the fake.
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => handlers.delete(channel),
  };
  const mainFrame = { url: APP_URL, processId: 7, frameToken: 'main-token' };
  const sent: [string, unknown][] = [];
  const state = { destroyed: false };
  const webContents = {
    mainFrame,
    isDestroyed: () => state.destroyed,
    send: (channel: string, payload: unknown) => sent.push([channel, payload]),
  };
  const window = { isDestroyed: () => state.destroyed, webContents };
  const hub = new StreamHub();
  const dispatch = vi.fn(options.dispatch ?? (async () => ok(SETTINGS)));
  const log = vi.fn();
  const dispose = bindIpc({ ipcMain, window, engine: { hub, dispatch: dispatch as never }, isAppUrl: createAppUrlMatcher(INDEX), log });
  const fromOurPage: IpcInvokeEvent = { sender: webContents, senderFrame: mainFrame };
  async function call(channel: string, payload: unknown, event: IpcInvokeEvent = fromOurPage): Promise<unknown> {
    const handler = handlers.get(IPC_PREFIX + channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event, payload);
  }
  return { handlers, mainFrame, webContents, sent, state, hub, dispatch, log, dispose, call, fromOurPage };
}

describe('bindIpc requests', () => {
  it('registers one prefixed handler per contract channel, plus the replay channel', () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual([...REQUEST_CHANNELS.map((channel) => IPC_PREFIX + channel), REPLAY_CHANNEL].sort());
  });

  it('passes a request from our page to the engine and answers with its Result', async () => {
    const { call, dispatch } = setup();
    await expect(call('settings:get', {})).resolves.toEqual(ok(SETTINGS));
    expect(dispatch).toHaveBeenCalledExactlyOnceWith('settings:get', {});
  });

  it('accepts a second wrapper object for our main frame', async () => {
    const { call, dispatch, webContents, mainFrame } = setup();
    await call('settings:get', {}, { sender: webContents, senderFrame: { ...mainFrame } });
    expect(dispatch).toHaveBeenCalledOnce();
  });

  const foreign: [string, (s: ReturnType<typeof setup>) => IpcInvokeEvent][] = [
    ['an iframe of our page', (s) => ({ sender: s.webContents, senderFrame: { url: APP_URL, processId: 7, frameToken: 'child-token' } })],
    ['another webContents', (s) => ({ sender: {}, senderFrame: s.mainFrame })],
    ['a frame that is gone', (s) => ({ sender: s.webContents, senderFrame: null })],
    [
      'a frame that was disposed mid-call',
      (s) => ({
        sender: s.webContents,
        get senderFrame(): IpcFrame {
          throw new Error('Render frame was disposed before WebFrameMain could be accessed');
        },
      }),
    ],
  ];
  it.each(foreign)('refuses a request from %s with a forbidden Result, without calling the engine', async (_name, makeEvent) => {
    const s = setup();
    const answer = await s.call('contexts:select', { name: 'prod' }, makeEvent(s));
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(s.dispatch).not.toHaveBeenCalled();
  });

  it('refuses our main frame once it shows another page', async () => {
    const s = setup();
    s.mainFrame.url = 'https://evil.example/';
    await expect(s.call('app:info', {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(s.dispatch).not.toHaveBeenCalled();
  });

  it('refuses requests after the window is destroyed', async () => {
    const s = setup();
    s.state.destroyed = true;
    await expect(s.call('app:info', {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('turns a throwing engine into an internal Result instead of a rejected invoke', async () => {
    const s = setup({ dispatch: async () => Promise.reject(new Error('boom')) });
    await expect(s.call('app:info', {})).resolves.toMatchObject({ ok: false, error: { code: 'internal', detail: 'boom' } });
  });
});

describe('bindIpc with the real engine', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
  afterEach(() => cleanup());

  it('lets the dispatcher answer a malformed payload from our page with invalid-request', async () => {
    const engine = createEngine({ version: '0.0.0-test', dataDir: dir, shell: 'desktop', env: {}, homeDir: dir, log: () => {} });
    const handlers = new Map<string, Listener>();
    const mainFrame = { url: APP_URL, processId: 1, frameToken: 't' };
    const webContents = { mainFrame, isDestroyed: () => false, send: () => {} };
    bindIpc({
      ipcMain: { handle: (channel, listener) => handlers.set(channel, listener), removeHandler: () => {} },
      window: { isDestroyed: () => false, webContents },
      engine,
      isAppUrl: createAppUrlMatcher(INDEX),
    });
    const event = { sender: webContents, senderFrame: mainFrame };
    const bad = await handlers.get(`${IPC_PREFIX}settings:update`)?.(event, { theme: 'purple', extra: 1 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    const info = await handlers.get(`${IPC_PREFIX}app:info`)?.(event, {});
    expect(info).toMatchObject({ ok: true, value: { name: 'Kubedrift', shell: 'desktop', version: '0.0.0-test' } });
    await engine.dispose();
  });
});

describe('bindIpc streams', () => {
  it('forwards every stream to the window under the prefix', () => {
    const { hub, sent } = setup();
    hub.emit('settings:changed', { theme: 'light', lastContext: null });
    hub.emit('connection:changed', { context: null, state: 'idle', since: 1 });
    expect(sent).toEqual([
      [`${IPC_PREFIX}settings:changed`, { theme: 'light', lastContext: null }],
      [`${IPC_PREFIX}connection:changed`, { context: null, state: 'idle', since: 1 }],
    ]);
  });

  it('sends nothing to a destroyed window or to a page that is not ours', () => {
    const s = setup();
    s.mainFrame.url = 'https://evil.example/';
    s.hub.emit('settings:changed', { theme: 'light', lastContext: null });
    s.mainFrame.url = APP_URL;
    s.state.destroyed = true;
    s.hub.emit('settings:changed', { theme: 'dark', lastContext: null });
    expect(s.sent).toEqual([]);
  });

  it('replays the last payload of a stream to our page only', async () => {
    const s = setup();
    s.hub.emit('settings:changed', { theme: 'light', lastContext: null });
    const replay = s.handlers.get(REPLAY_CHANNEL);
    await expect(replay?.(s.fromOurPage, 'settings:changed')).resolves.toEqual({ theme: 'light', lastContext: null });
    await expect(replay?.(s.fromOurPage, 'contexts:changed')).resolves.toBeUndefined();
    await expect(replay?.(s.fromOurPage, 'no:such-stream')).resolves.toBeUndefined();
    await expect(replay?.({ sender: {}, senderFrame: s.mainFrame }, 'settings:changed')).resolves.toBeUndefined();
  });
});

describe('bindIpc dispose', () => {
  it('removes every handler and stops forwarding streams', () => {
    const { handlers, hub, sent, dispose } = setup();
    dispose();
    expect(handlers.size).toBe(0);
    hub.emit('settings:changed', { theme: 'light', lastContext: null });
    expect(sent).toEqual([]);
  });

  it('can bind again after dispose, as a re-created macOS window does', () => {
    const handlers = new Map<string, Listener>();
    const ipcMain: IpcMainLike = {
      handle(channel, listener) {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, listener);
      },
      removeHandler: (channel) => handlers.delete(channel),
    };
    const webContents = { mainFrame: { url: APP_URL, processId: 1, frameToken: 't' }, isDestroyed: () => false, send: () => {} };
    const bind = () =>
      bindIpc({ ipcMain, window: { isDestroyed: () => false, webContents }, engine: { hub: new StreamHub(), dispatch: async () => ok(1) }, isAppUrl: () => true });
    bind()();
    expect(() => bind()).not.toThrow();
  });
});
