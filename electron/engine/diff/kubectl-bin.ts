/**
 * kubectl as a helper program: found on PATH (the login-shell PATH the engine adopted), run with
 * a time limit and an output cap, never through a shell.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';

/** The first executable `kubectl` on PATH, or undefined. */
export async function findKubectl(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const names = process.platform === 'win32' ? ['kubectl.exe', 'kubectl'] : ['kubectl'];
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      const found = await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      );
      if (found) return candidate;
    }
  }
  return undefined;
}

export interface RunResult {
  /** null when the program could not be started or was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  /** Why it did not run to completion (not found, timed out). */
  failure?: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs: number;
  /** Each stream is cut at this many bytes. */
  maxBytes: number;
}

/** Runs `file args` to completion, killing it (and its process group) after `timeoutMs`. */
export function runProgram(file: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const out = { stdout: '', stderr: '', truncated: false };
    const collect = (key: 'stdout' | 'stderr') => (chunk: string) => {
      const room = options.maxBytes - out[key].length;
      if (room <= 0) {
        out.truncated = true;
        return;
      }
      if (chunk.length > room) out.truncated = true;
      out[key] += chunk.slice(0, room);
    };
    child.stdout.setEncoding('utf8').on('data', collect('stdout'));
    child.stderr.setEncoding('utf8').on('data', collect('stderr'));
    let failure: string | undefined;
    const timer = setTimeout(() => {
      failure = `stopped after ${Math.round(options.timeoutMs / 1000)} s`;
      try {
        if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, ...out, failure: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: failure ? null : code, ...out, ...(failure ? { failure } : {}) });
    });
  });
}
