import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_KEY, createBridge, REPLAY_CHANNEL, type BridgeIpc } from '../../../electron/desktop/preload-bridge.ts';
import { IPC_PREFIX } from '../../../shared/contract.ts';
import { err, ok } from '../../../shared/result.ts';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
}));
vi.mock('electron', () => electron);

/** ipcRenderer stand-in: `on`/`removeListener` from a real emitter, `invoke` a mock. */
function fakeIpc(invoke: (channel: string, ...args: unknown[]) => Promise<unknown> = async () => undefined) {
  const emitter = new EventEmitter();
  const ipc = {
    invoke: vi.fn(invoke),
    on: vi.fn((channel: string, listener: (...args: unknown[]) => void) => emitter.on(channel, listener)),
    removeListener: vi.fn((channel: string, listener: (...args: unknown[]) => void) => emitter.removeListener(channel, listener)),
  } satisfies BridgeIpc;
  /** Delivers a message as Electron does: an event object first, then the payload. */
  const deliver = (channel: string, payload: unknown) => emitter.emit(channel, { sender: { send() {} }, ports: [] }, payload);
  return { ipc, emitter, deliver };
}

describe('createBridge request', () => {
  it('refuses a channel outside the contract without touching IPC', async () => {
    const { ipc } = fakeIpc();
    const answer = await createBridge(ipc).request('shell:exec', { cmd: 'rm -rf /' });
    expect(answer).toEqual(err('unknown-channel', 'Unknown request channel: shell:exec'));
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('refuses inherited property names as channels', async () => {
    const { ipc } = fakeIpc();
    await expect(createBridge(ipc).request('__proto__', {})).resolves.toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    await expect(createBridge(ipc).request('toString', {})).resolves.toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('invokes contract channels under the prefix and returns the answer', async () => {
    const { ipc } = fakeIpc(async () => ok({ theme: 'dark' }));
    await expect(createBridge(ipc).request('settings:update', { theme: 'dark' })).resolves.toEqual(ok({ theme: 'dark' }));
    expect(ipc.invoke).toHaveBeenCalledExactlyOnceWith(`${IPC_PREFIX}settings:update`, { theme: 'dark' });
  });

  it('answers a failed invoke with a transport Result instead of rejecting', async () => {
    const { ipc } = fakeIpc(async () => Promise.reject(new Error('An object could not be cloned.')));
    await expect(createBridge(ipc).request('app:info', { fn: () => 1 })).resolves.toEqual(
      err('transport', 'app:info could not reach the engine', 'An object could not be cloned.'),
    );
  });
});

describe('createBridge subscribe', () => {
  it('refuses a stream outside the contract without listening', () => {
    const { ipc } = fakeIpc();
    expect(() => createBridge(ipc).subscribe('ipc:everything', () => {})).toThrow(/Unknown stream/);
    expect(ipc.on).not.toHaveBeenCalled();
  });

  it('hands the listener the payload only, never the IPC event', () => {
    const { ipc, deliver } = fakeIpc();
    const listener = vi.fn();
    createBridge(ipc).subscribe('settings:changed', listener);
    deliver(`${IPC_PREFIX}settings:changed`, { theme: 'light' });
    expect(listener.mock.calls).toEqual([[{ theme: 'light' }]]);
  });

  it('stops delivering after unsubscribe and removes the IPC listener', () => {
    const { ipc, emitter, deliver } = fakeIpc();
    const listener = vi.fn();
    const unsubscribe = createBridge(ipc).subscribe('connection:changed', listener);
    unsubscribe();
    unsubscribe();
    deliver(`${IPC_PREFIX}connection:changed`, { state: 'idle' });
    expect(listener).not.toHaveBeenCalled();
    expect(emitter.listenerCount(`${IPC_PREFIX}connection:changed`)).toBe(0);
    expect(ipc.removeListener).toHaveBeenCalledOnce();
  });

  it('starts a late subscriber from the last payload', async () => {
    const { ipc } = fakeIpc(async (channel, stream) => (channel === REPLAY_CHANNEL && stream === 'contexts:changed' ? { contexts: [] } : undefined));
    const listener = vi.fn();
    createBridge(ipc).subscribe('contexts:changed', listener);
    await vi.waitFor(() => expect(listener).toHaveBeenCalledExactlyOnceWith({ contexts: [] }));
  });

  it('drops the replayed payload when a live one arrived first', async () => {
    let answer: (value: unknown) => void = () => {};
    const { ipc, deliver } = fakeIpc(() => new Promise((resolve) => (answer = resolve)));
    const listener = vi.fn();
    createBridge(ipc).subscribe('settings:changed', listener);
    deliver(`${IPC_PREFIX}settings:changed`, { theme: 'new' });
    answer({ theme: 'old' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(listener.mock.calls).toEqual([[{ theme: 'new' }]]);
  });

  it('does not replay to a subscriber that already left', async () => {
    let answer: (value: unknown) => void = () => {};
    const { ipc } = fakeIpc(() => new Promise((resolve) => (answer = resolve)));
    const listener = vi.fn();
    createBridge(ipc).subscribe('settings:changed', listener)();
    answer({ theme: 'old' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('preload', () => {
  it('exposes exactly request and subscribe', () => {
    expect(Object.keys(createBridge(fakeIpc().ipc)).sort()).toEqual(['request', 'subscribe']);
  });

  it('calls exposeInMainWorld once, as window.kubedrift, with the bridge', async () => {
    await import('../../../electron/desktop/preload.ts');
    expect(BRIDGE_KEY).toBe('kubedrift');
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledOnce();
    const [key, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0] ?? [];
    expect(key).toBe('kubedrift');
    expect(Object.keys(api as object).sort()).toEqual(['request', 'subscribe']);
    await (api as { request: (c: string, p: unknown) => Promise<unknown> }).request('app:info', {});
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith(`${IPC_PREFIX}app:info`, {});
  });
});
