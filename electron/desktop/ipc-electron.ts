/**
 * Carries the contract over Electron IPC. Each request channel gets one `ipcMain.handle`; each
 * stream is forwarded to the window (the preload hands it only to subscribers). Every request is
 * checked to come from our window's main frame showing our page, so an iframe or a page the
 * window was somehow navigated to cannot drive the engine; payloads are validated by the
 * engine's dispatcher, as for every transport.
 */
import { IPC_PREFIX, REQUEST_CHANNELS, isStreamChannel } from '../../shared/contract.ts';
import { err } from '../../shared/result.ts';
import type { Engine } from '../engine/engine.ts';
import { REPLAY_CHANNEL } from './preload-bridge.ts';

/** The parts of `WebFrameMain` used to identify the sender. */
export interface IpcFrame {
  readonly url: string;
  readonly processId: number;
  readonly frameToken: string;
}

/** The parts of `IpcMainInvokeEvent` used to identify the sender. */
export interface IpcInvokeEvent {
  readonly sender: unknown;
  readonly senderFrame: IpcFrame | null;
}

/** The parts of `ipcMain` used. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEvent, payload: unknown) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The parts of `BrowserWindow` used. */
export interface IpcWindow {
  isDestroyed(): boolean;
  readonly webContents: {
    readonly mainFrame: IpcFrame;
    isDestroyed(): boolean;
    send(channel: string, ...args: unknown[]): void;
  };
}

export interface IpcBindingOptions {
  ipcMain: IpcMainLike;
  window: IpcWindow;
  engine: Pick<Engine, 'dispatch' | 'hub'>;
  /** True for the app's own page; see `createAppUrlMatcher` in security.ts. */
  isAppUrl: (url: string) => boolean;
  log?: (message: string) => void;
}

/** Registers the handlers and the stream forwarding; returns the function that removes them. */
export function bindIpc(options: IpcBindingOptions): () => void {
  const { ipcMain, window, engine, isAppUrl } = options;
  const log = options.log ?? ((message: string) => console.error(message));

  function alive(): boolean {
    return !window.isDestroyed() && !window.webContents.isDestroyed();
  }

  function isOurPage(frame: IpcFrame | null): boolean {
    if (!frame) return false;
    const main = window.webContents.mainFrame;
    // Electron may hand out a fresh wrapper object for the same frame; the token identifies it.
    const sameFrame = frame === main || (frame.processId === main.processId && frame.frameToken === main.frameToken);
    return sameFrame && isAppUrl(frame.url);
  }

  function trusted(event: IpcInvokeEvent): boolean {
    try {
      return alive() && event.sender === window.webContents && isOurPage(event.senderFrame);
    } catch {
      // Reading a frame that was disposed mid-call throws; such a sender is not trusted.
      return false;
    }
  }

  const channels: string[] = [];
  for (const channel of REQUEST_CHANNELS) {
    const ipcChannel = IPC_PREFIX + channel;
    ipcMain.handle(ipcChannel, async (event, payload) => {
      if (!trusted(event)) {
        log(`[kubedrift] refused ${channel}: the request did not come from the Kubedrift window`);
        return err('forbidden', `${channel} was refused: the request did not come from the Kubedrift window`);
      }
      try {
        return await engine.dispatch(channel, payload);
      } catch (error) {
        return err('internal', `${channel} failed`, error instanceof Error ? error.message : String(error));
      }
    });
    channels.push(ipcChannel);
  }

  ipcMain.handle(REPLAY_CHANNEL, async (event, stream) => {
    if (!trusted(event) || !isStreamChannel(stream)) return undefined;
    return engine.hub.last(stream);
  });
  channels.push(REPLAY_CHANNEL);

  // `webContents.send` queues without limit and reports no backlog, so `cluster:frames` has no
  // per-window backpressure here. The frame stream is the defence: it coalesces per uid, widens
  // its flush window under load and emits in slices (electron/engine/stream/batcher.ts), so what
  // is queued is bounded by the cluster's size, not by how long the page has been busy. A
  // destroyed window or webContents (closed, crashed and torn down) gets nothing; its next page
  // asks for a snapshot.
  const stopListening = engine.hub.listen((stream, payload) => {
    if (!alive()) return;
    const contents = window.webContents;
    // Cluster data goes only to our page, never to whatever else the frame might show.
    if (!isAppUrl(contents.mainFrame.url)) return;
    contents.send(IPC_PREFIX + stream, payload);
  });

  let disposed = false;
  return () => {
    if (disposed) return;
    disposed = true;
    stopListening();
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
