/** Runs the real `kubedrift` command in a child process, as a user's shell would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../electron/bin/kubedrift.mjs', import.meta.url));

export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running `kubedrift` subcommand and resolves with the first match of `ready`. */
function startUntilReady(args: string[], ready: RegExp, env: Record<string, string | undefined>): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`kubedrift ${args[0]} printed no ready line within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kubedrift ${args[0]} exited with ${code}:\n${output}`));
    });
  });
}

/** Starts `kubedrift serve` and resolves with the URL from its listening line. */
export function startServe(args: string[], env: Record<string, string | undefined> = {}) {
  return startUntilReady(['serve', '--no-open', ...args], /^Kubedrift listening on (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)$/m, env);
}

/** Starts `kubedrift sim` and resolves with the API server URL from its listening line. */
export function startSim(args: string[], env: Record<string, string | undefined> = {}) {
  return startUntilReady(['sim', ...args], /^simcluster listening on (https?:\/\/127\.0\.0\.1:\d+)$/m, env);
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
