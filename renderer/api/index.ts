/**
 * The renderer's only way to the engine. Picks the transport once at start-up: the Electron
 * preload bridge when present, else the browser shell's WebSocket.
 */
import { ref, type Ref } from 'vue';
import type { KubedriftApi, PreloadBridge } from '../../shared/contract.ts';
import { createElectronApi } from './electron.ts';
import { createWebSocketApi, socketUrl, type LinkState } from './websocket.ts';

declare global {
  interface Window {
    kubedrift?: PreloadBridge;
  }
}

export type { LinkState };

/** State of the link to the engine, for the status bar. Always 'open' under Electron. */
export const link: Ref<{ state: LinkState; detail?: string }> = ref({ state: 'connecting' });

function pickTransport(): KubedriftApi {
  if (window.kubedrift) {
    link.value = { state: 'open' };
    return createElectronApi(window.kubedrift);
  }
  return createWebSocketApi({
    url: socketUrl(window.location),
    onState: (state, detail) => {
      link.value = detail === undefined ? { state } : { state, detail };
    },
  });
}

let instance: KubedriftApi | null = null;

export function api(): KubedriftApi {
  instance ??= pickTransport();
  return instance;
}

/** For tests: run the renderer against a given transport. */
export function setApi(next: KubedriftApi): void {
  instance = next;
  link.value = { state: 'open' };
}
