/**
 * The user's login-shell PATH. An app started from a desktop launcher (Dock, GNOME, KDE) inherits
 * the session's minimal PATH, not the one the user's shell profile builds, so exec credential
 * plugins (`aws`, `gke-gcloud-auth-plugin`, `kubelogin`) that work in a terminal are "not found"
 * in the app (lensapp/lens#878, #5676, headlamp#1885). Like VS Code and Lens, ask the login shell
 * once at start-up, and never let a slow or broken profile hang or break the start.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

/** How long the login shell may take (profiles that run nvm, conda, pyenv can be slow). */
export const LOGIN_SHELL_TIMEOUT_MS = 5_000;
/** After the shell exits, how long to wait for its stdout to close (a background agent may keep it open). */
const EXIT_DRAIN_MS = 50;
/** Profiles can print a lot; nothing legitimate comes near this. */
const MAX_OUTPUT_BYTES = 1_000_000;

const START_MARK = '__KD_START__';
const END_MARK = '__KD_END__';
/**
 * `printenv PATH` rather than `$PATH` interpolation: it is an external command, so it reads the
 * same in bash, zsh, fish and csh (fish lists and csh's `$path` would otherwise differ), and the
 * marks around it frame the value however much the profile prints before or after.
 */
const PRINT_PATH = `printf '%s' ${START_MARK}; printenv PATH; printf '%s' ${END_MARK}`;

export interface RunOutput {
  stdout: string;
  code: number | null;
  stderr?: string;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  /** Aborted when the time is up: the runner must stop the process. */
  signal: AbortSignal;
}

/** Runs a command to completion; the default spawns it detached from any terminal. */
export type RunCommand = (command: string, args: string[], options: RunOptions) => Promise<RunOutput>;

export interface LoginShellPathOptions {
  /** The shell to ask; default `env.SHELL`. */
  shell?: string;
  /** The environment the app was started with; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  timeoutMs?: number;
  run?: RunCommand;
}

export interface ResolvedPath {
  path: string;
  source: 'login-shell' | 'inherited';
  shell?: string;
  error?: string;
}

/** csh and tcsh refuse `-l` combined with other flags; their interactive mode reads the same files. */
function shellArgs(shell: string): string[] {
  const name = path.basename(shell);
  return name === 'csh' || name === 'tcsh' ? ['-ic', PRINT_PATH] : ['-ilc', PRINT_PATH];
}

/** The PATH between the marks, or null when the output has no complete frame. */
export function parseFramedPath(stdout: string): string | null {
  const end = stdout.lastIndexOf(END_MARK);
  if (end < 0) return null;
  const start = stdout.lastIndexOf(START_MARK, end);
  if (start < 0) return null;
  return stdout.slice(start + START_MARK.length, end).replace(/\r?\n$/, '');
}

/** Login-shell entries first, then the inherited ones it lacks; empty entries dropped. */
export function mergePathLists(first: string, second: string, delimiter = ':'): string {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const entry of [...first.split(delimiter), ...second.split(delimiter)]) {
    if (entry === '' || seen.has(entry)) continue;
    seen.add(entry);
    merged.push(entry);
  }
  return merged.join(delimiter);
}

function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/**
 * Asks `shell -ilc` for its PATH and merges it with the inherited one. Never throws and never
 * waits longer than `timeoutMs`: on any failure the inherited PATH stays, with the reason.
 */
export async function resolveLoginShellPath(options: LoginShellPathOptions = {}): Promise<ResolvedPath> {
  const env = options.env ?? process.env;
  const inherited = env['PATH'] ?? '';
  if ((options.platform ?? process.platform) === 'win32') {
    // Windows apps get the user's PATH from the registry, whatever launched them.
    return { path: inherited, source: 'inherited' };
  }
  const shell = options.shell ?? env['SHELL'];
  if (!shell) return { path: inherited, source: 'inherited', error: 'SHELL is not set, so there is no login shell to ask' };
  const timeoutMs = options.timeoutMs ?? LOGIN_SHELL_TIMEOUT_MS;
  const run = options.run ?? runDetached;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the abort so the race reports the timeout, not the runner's "stopped".
      reject(new Error(`${shell} did not answer within ${timeoutMs} ms (kept the inherited PATH)`));
      controller.abort();
    }, timeoutMs);
  });
  const failed = (error: string): ResolvedPath => ({ path: inherited, source: 'inherited', shell, error });
  try {
    const output = await Promise.race([run(shell, shellArgs(shell), { env, signal: controller.signal }), timedOut]);
    const found = parseFramedPath(output.stdout);
    if (found === null) {
      const stderr = output.stderr ? `: ${oneLine(output.stderr)}` : '';
      return failed(`${shell} exited with code ${output.code ?? 'none'} without printing its PATH${stderr}`);
    }
    if (found.trim() === '') return failed(`${shell} printed an empty PATH`);
    return { path: mergePathLists(found, inherited), source: 'login-shell', shell };
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Spawns the shell in its own session (no controlling terminal, stdin closed) so an interactive
 * profile cannot grab the terminal the app was started from or wait for input; on abort the
 * whole process group is killed, profiles' children included.
 */
export const runDetached: RunCommand = (command, args, options) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let settled = false;
    let drain: NodeJS.Timeout | undefined;
    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(drain);
      options.signal.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ stdout, code, stderr });
    };
    const onAbort = (): void => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }
      if (!settled) {
        settled = true;
        reject(new Error('stopped'));
      }
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT_BYTES) stdout += chunk;
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT_BYTES) stderr += chunk;
    });
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      reject(new Error(`cannot start ${command}: ${error.message}`));
    });
    child.on('exit', (code) => {
      drain = setTimeout(() => finish(code), EXIT_DRAIN_MS);
    });
    child.on('close', (code) => finish(code));
  });
