/**
 * Headless Chromium for the live-pipeline benchmark, driven over the DevTools protocol with
 * nothing but the Page and Runtime domains (HeapProfiler for one heap reading after the sync,
 * Input for mouse clicks). Playwright enables the Network domain on every page
 * it drives, and Chromium then mirrors each WebSocket message to the driver as a DevTools event:
 * every byte the app receives crosses the DevTools pipe a second time and is parsed once more in
 * the driver, which runs in the engine's process. At 80 MB of frames that doubled the sync time
 * and charged the engine for work no user's browser does. This page is what a user has: the app
 * and its WebSocket, with no observer on the wire.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CHROMIUM_ARGS, chromiumBinary } from '../e2e/harness.ts';
import { waitForQuiet } from './quiet.ts';

/** A page of the benchmark's browser. */
export interface BenchPage {
  /** Runs `source` in every document of this page before the document's own scripts. */
  addInitScript(source: string): Promise<void>;
  /** Navigates and resolves once the page has loaded. */
  goto(url: string): Promise<void>;
  /** Runs `fn(arg)` in the page (as source text, like Playwright) and returns its JSON result. */
  evaluate<R, A = undefined>(fn: (arg: A) => R, arg?: A): Promise<Awaited<R>>;
  /** The page's JavaScript heap in bytes after a full garbage collection. */
  heapUsedAfterGc(): Promise<number>;
  /**
   * Clicks the middle of the element `selector` finds with the mouse, as a user does: a trusted
   * event that the browser stamps when it is sent, and that waits, as input does, for whatever
   * task the page is running.
   */
  mouseClick(selector: string): Promise<void>;
  close(): Promise<void>;
}

/** The benchmark's browser process. */
export interface BenchBrowser {
  newPage(viewport: { width: number; height: number }): Promise<BenchPage>;
  /** Resolves once Chromium's processes have finished starting up (see quiet.ts). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

interface CdpMessage {
  id?: number;
  method?: string;
  sessionId?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** How long Chromium may take to exit after Browser.close before it is killed. */
const CLOSE_TIMEOUT_MS = 5_000;

/** The DevTools protocol over Chromium's pipe: NUL-terminated JSON both ways (fd 3 in, fd 4 out). */
function connect(child: ChildProcess) {
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  const waiters = new Set<{ method: string; sessionId: string | undefined; resolve: () => void }>();
  let nextId = 1;
  let rest: Buffer = Buffer.alloc(0);
  output.on('data', (chunk: Buffer) => {
    rest = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    for (let end = rest.indexOf(0); end !== -1; end = rest.indexOf(0)) {
      const message = JSON.parse(rest.toString('utf8', 0, end)) as CdpMessage;
      rest = rest.subarray(end + 1);
      if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(`DevTools: ${message.error.message}`));
        else waiter?.resolve(message.result ?? {});
      } else {
        for (const waiter of waiters) {
          if (waiter.method !== message.method || waiter.sessionId !== message.sessionId) continue;
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
    }
  });
  const failAll = (reason: string): void => {
    for (const waiter of pending.values()) waiter.reject(new Error(reason));
    pending.clear();
  };
  child.once('exit', () => failAll('Chromium exited'));
  // Writing to a browser that never started (or died) fails its pipe with EPIPE.
  input.on('error', (error) => failAll(`Chromium's DevTools pipe: ${error.message}`));
  return {
    send(method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
      });
    },
    /** Resolves at the next `method` event of `sessionId`; register before causing it. */
    next(method: string, sessionId?: string): Promise<void> {
      return new Promise((resolve) => waiters.add({ method, sessionId, resolve }));
    },
  };
}

/** Launches headless Chromium (the e2e harness's binary and flags) with a throwaway profile. */
export async function launchBenchBrowser(): Promise<BenchBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'kubedrift-bench-chromium-'));
  const { executablePath, env } = await chromiumBinary();
  const child = spawn(executablePath, [...CHROMIUM_ARGS, '--remote-debugging-pipe', '--no-startup-window', '--hide-scrollbars', '--mute-audio', `--user-data-dir=${profile}`], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A browser that cannot start (spawn ENOENT, EACCES) fails this scenario with its reason;
  // unhandled, the 'error' event would end the whole bench and lose every result measured.
  const failedToStart = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`could not start Chromium at ${executablePath}: ${error.message}`))),
  );
  failedToStart.catch(() => undefined);
  const cdp = connect(child);
  await Promise.race([cdp.send('Browser.getVersion'), failedToStart]);
  return {
    async newPage({ width, height }) {
      const { targetId } = (await cdp.send('Target.createTarget', { url: 'about:blank', width, height })) as { targetId: string };
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      await cdp.send('Page.enable', {}, sessionId);
      return {
        async addInitScript(source) {
          await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source }, sessionId);
        },
        async goto(url) {
          const loaded = cdp.next('Page.loadEventFired', sessionId);
          const answer = (await cdp.send('Page.navigate', { url }, sessionId)) as { errorText?: string };
          if (answer.errorText) throw new Error(`could not open ${url}: ${answer.errorText}`);
          await loaded;
        },
        evaluate: (async (fn: (arg: never) => unknown, arg?: unknown) => {
          const expression = `(${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)})`;
          const answer = (await cdp.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId)) as {
            result: { value?: unknown };
            exceptionDetails?: { text: string; exception?: { description?: string } };
          };
          if (answer.exceptionDetails) throw new Error(`in the page: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
          return answer.result.value;
        }) as BenchPage['evaluate'],
        async heapUsedAfterGc() {
          await cdp.send('HeapProfiler.enable', {}, sessionId);
          await cdp.send('HeapProfiler.collectGarbage', {}, sessionId);
          await cdp.send('HeapProfiler.disable', {}, sessionId);
          const { usedSize } = (await cdp.send('Runtime.getHeapUsage', {}, sessionId)) as { usedSize: number };
          return usedSize;
        },
        async mouseClick(selector) {
          const expression = `(() => { const box = document.querySelector(${JSON.stringify(selector)})?.getBoundingClientRect(); return box ? { x: box.x + box.width / 2, y: box.y + box.height / 2 } : null; })()`;
          const answer = (await cdp.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)) as { result: { value?: { x: number; y: number } | null } };
          const at = answer.result.value;
          if (!at) throw new Error(`no element matches ${selector}`);
          // Both sent at once, as a hand does not wait for the page: each is stamped when sent.
          await Promise.all(
            ['mousePressed', 'mouseReleased'].map((type) => cdp.send('Input.dispatchMouseEvent', { type, x: at.x, y: at.y, button: 'left', buttons: type === 'mousePressed' ? 1 : 0, clickCount: 1 }, sessionId)),
          );
        },
        async close() {
          await cdp.send('Target.closeTarget', { targetId });
        },
      };
    },
    settle: () => (child.pid === undefined ? Promise.resolve() : waitForQuiet(child.pid)),
    async close() {
      const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
      await cdp.send('Browser.close').catch(() => child.kill('SIGKILL'));
      await exited;
      clearTimeout(timer);
      await rm(profile, { recursive: true, force: true });
    },
  };
}
