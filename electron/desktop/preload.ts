/**
 * The window's preload, bundled to one CommonJS file because sandboxed preloads cannot load
 * modules. It exposes the bridge and nothing else.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_KEY, createBridge } from './preload-bridge.ts';

contextBridge.exposeInMainWorld(BRIDGE_KEY, createBridge(ipcRenderer));
