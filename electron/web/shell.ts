/**
 * The browser shell as one thing: an engine and the web server that carries its contract, wired
 * together (the server's backlog paces the engine's snapshots). `kubedrift serve` runs it, and so
 * do the end-to-end tests that need to look inside the engine while a browser drives the page.
 */
import { createEngine, type Engine, type EngineOptions } from '../engine/engine.ts';
import { startWebServer, type WebServer } from './server.ts';

/** Options of `startBrowserShell`. */
export interface BrowserShellOptions {
  /** Everything but the shell kind, which is always `browser` here. */
  engine: Omit<EngineOptions, 'shell'>;
  /** The renderer build to serve (its index.html). */
  staticDir: string;
  /** Loopback address to bind (default 127.0.0.1). */
  host?: string;
  /** Port to listen on (default 0: any free port). */
  port?: number;
}

/** A running browser shell. */
export interface BrowserShell {
  readonly engine: Engine;
  readonly server: WebServer;
  /** The page address with its per-run token. */
  readonly url: string;
  /** Closes the server, then disposes the engine (and the demo cluster it started). */
  close(): Promise<void>;
}

/**
 * Starts the engine, then the web server. When the server cannot listen, the engine is disposed
 * and the listen error (`syscall: 'listen'`, e.g. EADDRINUSE) is rethrown as it came.
 */
export async function startBrowserShell(options: BrowserShellOptions): Promise<BrowserShell> {
  const engine = createEngine({ ...options.engine, shell: 'browser' });
  await engine.start();
  let server: WebServer;
  try {
    server = await startWebServer({
      engine,
      staticDir: options.staticDir,
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
    });
  } catch (error) {
    await engine.dispose();
    throw error;
  }
  engine.setFramesBacklog(() => server.framesBacklog());
  return {
    engine,
    server,
    url: server.url,
    async close() {
      await server.close();
      await engine.dispose();
    },
  };
}
