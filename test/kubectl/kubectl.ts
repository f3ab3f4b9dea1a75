/**
 * Runs the machine's real kubectl: the google-cloud-sdk dispatcher at /usr/bin/kubectl, which
 * asks the server's /version and execs the kubectl 1.27–1.33 build of that minor version.
 * Always asynchronous (the simulated API server answers from the test's own event loop) and
 * always bounded in time: a kubectl that outlives its timeout is killed with its process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The dispatcher the tests run. */
export const KUBECTL = '/usr/bin/kubectl';

/** Why the kubectl suites are skipped, or undefined when kubectl is there. */
export const kubectlMissing: string | undefined = existsSync(KUBECTL) ? undefined : `${KUBECTL} is not installed on this machine`;

/** Where one test's kubectl keeps its state: its own HOME, discovery cache and kubeconfig. */
export interface KubectlOptions {
  kubeconfig: string;
  /** HOME for kubectl; its discovery and OpenAPI cache go to `<home>/cache`. */
  home: string;
  /** Written to kubectl's standard input (for `-f -`). */
  input?: string;
  /** Killed after this long (default 30 s); the result then has code -1. */
  timeoutMs?: number;
}

/** What a finished kubectl printed and its exit code (-1 when it was killed). */
export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

function start(args: readonly string[], options: KubectlOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: options.home };
  // The developer's own cluster settings must not leak in.
  delete env['KUBECONFIG'];
  delete env['KUBECTL_EXTERNAL_DIFF'];
  const child = spawn(KUBECTL, ['--kubeconfig', options.kubeconfig, '--cache-dir', join(options.home, 'cache'), ...args], {
    env,
    // Its own process group, so a timeout kills whatever it started too.
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin?.end(options.input ?? '');
  return child;
}

function kill(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone between the check and the kill.
  }
}

/** Runs `kubectl <args>` to completion (or its timeout). */
export function kubectl(args: readonly string[], options: KubectlOptions): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = start(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => kill(child), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** A kubectl still running (`get -w`), whose output is read as it comes. */
export interface KubectlStream {
  /** Everything printed on stdout so far. */
  readonly stdout: () => string;
  /** Resolves with stdout once `done(stdout)` holds; rejects after `timeoutMs` or if kubectl exits first. */
  until(done: (stdout: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Kills kubectl (if still running) and resolves with its final output. */
  stop(): Promise<KubectlResult>;
}

/** Starts `kubectl <args>` and lets the test read its output incrementally. */
export function kubectlStream(args: readonly string[], options: KubectlOptions): KubectlStream {
  const child = start(args, options);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    wake();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.on('error', (error) => (stderr += `spawn failed: ${error.message}`));
  const timer = setTimeout(() => kill(child), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let exited = false;
  const closed = new Promise<KubectlResult>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      exited = true;
      resolve({ code: code ?? -1, stdout, stderr });
      wake();
    });
  });
  return {
    stdout: () => stdout,
    until(done, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (done(stdout)) finish(() => resolve(stdout));
          else if (exited) finish(() => reject(new Error(`kubectl exited before the expected output.\nstdout:\n${stdout}\nstderr:\n${stderr}`)));
        };
        const giveUp = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for kubectl output.\nstdout:\n${stdout}\nstderr:\n${stderr}`))), timeoutMs);
        const finish = (settle: () => void) => {
          clearTimeout(giveUp);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    stop() {
      kill(child);
      return closed;
    },
  };
}
