/**
 * The object the preload exposes as `window.kubedrift`: two functions over the contract's
 * channels and nothing else. Unknown channels stop here, before any IPC happens, and the page
 * never receives Electron's event objects (they carry `sender`, a way back into IPC).
 */
import { IPC_PREFIX, isRequestChannel, isStreamChannel, type PreloadBridge } from '../../shared/contract.ts';
import type { Err, ErrorCode } from '../../shared/result.ts';

/** The global the bridge is exposed under: `window.kubedrift`. */
export const BRIDGE_KEY = 'kubedrift';

/**
 * Asks the main process for a stream's last payload, so a subscriber that arrives after the
 * engine's first emit (the window loads after `engine.start()`) still starts from the current
 * state, as it does over the browser shell's WebSocket. Has no colon after the prefix, so no
 * contract channel (`domain:verb`) can collide with it.
 */
export const REPLAY_CHANNEL = `${IPC_PREFIX}$last`;

/**
 * `err()` of shared/result.ts, restated so the preload bundle needs no zod (result.ts builds its
 * schemas on load); the `Err` type keeps the two shapes equal.
 */
function failure(code: ErrorCode, message: string, detail?: string): Err {
  return detail === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, detail } };
}

/** The parts of `ipcRenderer` the bridge uses. */
export interface BridgeIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface BridgeOptions {
  log?: (message: string, error: unknown) => void;
}

/** Builds the bridge over `ipcRenderer`; preload.ts exposes the result. */
export function createBridge(ipc: BridgeIpc, options: BridgeOptions = {}): PreloadBridge {
  const log = options.log ?? ((message: string, error: unknown) => console.error(message, error));

  async function request(channel: string, payload: unknown): Promise<unknown> {
    if (!isRequestChannel(channel)) {
      return failure('unknown-channel', `Unknown request channel: ${String(channel).slice(0, 80)}`);
    }
    try {
      return await ipc.invoke(IPC_PREFIX + channel, payload);
    } catch (error) {
      // Reached when the payload cannot be cloned or the main process has no handler (yet);
      // the renderer still gets a Result, as the contract promises.
      return failure('transport', `${channel} could not reach the engine`, error instanceof Error ? error.message : String(error));
    }
  }

  function subscribe(stream: string, listener: (payload: unknown) => void): () => void {
    if (!isStreamChannel(stream)) throw new Error(`Unknown stream: ${String(stream).slice(0, 80)}`);
    if (typeof listener !== 'function') throw new TypeError(`subscribe(${stream}) needs a listener function`);
    const channel = IPC_PREFIX + stream;
    let active = true;
    let sawLiveEvent = false;
    const forward = (_event: unknown, payload: unknown): void => {
      sawLiveEvent = true;
      listener(payload);
    };
    ipc.on(channel, forward);
    ipc
      .invoke(REPLAY_CHANNEL, stream)
      .then((last) => {
        // A live event that overtook the reply is newer than it; replaying would go back in time.
        if (active && !sawLiveEvent && last !== undefined) listener(last);
      })
      .catch((error: unknown) => log(`[kubedrift] replay of ${stream} failed`, error));
    return () => {
      if (!active) return;
      active = false;
      ipc.removeListener(channel, forward);
    };
  }

  return { request, subscribe };
}
