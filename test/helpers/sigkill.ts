/**
 * The kill -9 tests' machinery: run a recording process, kill it with SIGKILL a set time after
 * it says it is ready, and reopen what it wrote. Shared by the history store's own kill test
 * (a child recording into a store) and the `kubedrift record` one (the real command).
 */
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { openHistoryDb } from '../../electron/engine/history/db.ts';

export interface KillRun {
  /** When SIGKILL was sent (ms since the epoch). */
  killedAt: number;
  stdout: string;
  stderr: string;
}

export interface KillOptions {
  /** Arguments to node (the script first). */
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** The stdout line that says it records now; the clock to the kill starts there. */
  ready: RegExp;
  /** How long it runs after `ready` before SIGKILL. */
  runMs: number;
  /** Called with every stdout line; `killed`: the line came after the kill was sent. */
  onLine?(line: string, killed: boolean): void;
  /** Called once at `ready` (wait for the first write, start changing the cluster); the clock to the kill starts when it resolves. */
  onReady?(): Promise<void> | void;
}

/** Runs the process until SIGKILL; rejects if it exits by itself or never gets ready. */
export function runUntilKilled(options: KillOptions): Promise<KillRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, options.args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let killedAt = 0;
    let stdout = '';
    let stderr = '';
    let buffered = '';
    let ready = false;
    const never = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!ready && options.ready.test(line)) {
          ready = true;
          Promise.resolve(options.onReady?.()).then(
            () =>
              setTimeout(() => {
                killedAt = Date.now();
                child.kill('SIGKILL');
              }, options.runMs),
            (error: unknown) => {
              child.kill('SIGKILL');
              reject(error instanceof Error ? error : new Error(String(error)));
            },
          );
        }
        options.onLine?.(line, killedAt !== 0);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(never);
      if (signal !== 'SIGKILL' || !killedAt) reject(new Error(`the process exited by itself (${code ?? signal}):\n${stdout}\n${stderr}`));
      else resolve({ killedAt, stdout, stderr });
    });
  });
}

/** Opens a killed recorder's database as the next start would: it must need no recovery and be intact. */
export function reopenIntact(file: string): ReturnType<typeof openHistoryDb>['db'] {
  const { db, recovered } = openHistoryDb(file);
  expect(recovered).toBeUndefined();
  expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
  return db;
}
