/**
 * The parent's handle on history-sim-child.ts: forks it, waits for its ready message, and stops
 * it by disconnecting.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HistorySimReady } from './history-sim-child.ts';

const CHILD = fileURLToPath(new URL('./history-sim-child.ts', import.meta.url));
/** Seeding thousands of aged namespaces takes seconds; a busy machine, more. */
const READY_TIMEOUT_MS = 180_000;

export interface HistorySim extends Omit<HistorySimReady, 'ready'> {
  stop(): Promise<void>;
}

/** Starts the child with `args` (`['aged', '5000']` or `['demo']`). */
export function startHistorySim(args: string[]): Promise<HistorySim> {
  // --expose-gc: the aged cluster collects its seeded heap once before it reports ready (sim-settle.ts).
  const execArgv = process.execArgv.includes('--expose-gc') ? process.execArgv : [...process.execArgv, '--expose-gc'];
  const child = fork(CHILD, args, { execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the history benchmark's simulated cluster (${args.join(' ')}) was not ready within ${READY_TIMEOUT_MS / 1000} s`));
    }, READY_TIMEOUT_MS);
    child.once('message', (message) => {
      clearTimeout(timer);
      const { ready: _ready, ...rest } = message as HistorySimReady;
      resolve({
        ...rest,
        async stop() {
          if (child.connected) child.disconnect();
          await exited;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the history benchmark's simulated cluster exited with ${code} before it was ready`));
    });
  });
}
