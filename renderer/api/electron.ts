/** The contract over Electron IPC, through the preload's narrow `window.kubedrift` bridge. */
import type { KubedriftApi, PreloadBridge } from '../../shared/contract.ts';
import { err, type Result } from '../../shared/result.ts';

export function createElectronApi(bridge: PreloadBridge): KubedriftApi {
  return {
    async request(channel: string, payload: unknown) {
      try {
        return (await bridge.request(channel, payload)) as Result<unknown>;
      } catch (error) {
        return err('transport', `IPC to the engine failed: ${(error as Error).message}`);
      }
    },
    subscribe(stream: string, listener: (payload: unknown) => void) {
      return bridge.subscribe(stream, listener);
    },
  } as KubedriftApi;
}
