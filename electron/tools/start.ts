/**
 * `npm start`: builds the renderer and the Electron bundles, then opens the desktop app, or the
 * browser shell when Electron's binary is missing (its download is blocked on some networks and
 * CI machines), so `npm start` always ends with a running Kubedrift.
 *
 *   node electron/tools/start.ts [flags passed on to the app, e.g. --context NAME]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stop as stopEsbuild } from 'esbuild';
import { buildElectron } from './build-electron.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `require('electron')` may download the binary first; past this, treat it as missing. */
export const ELECTRON_PROBE_TIMEOUT_MS = 120_000;

/** The Electron package's own words when its binary is missing; quoted back to the user. */
const NOT_INSTALLED = 'Electron failed to install correctly';

export type ElectronProbe = { ok: true; binary: string } | { ok: false; reason: string };

/** What the probe child process reported. */
export interface ProbeOutput {
  status: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Reads the outcome of `require('electron')` run in a child process: the binary's path on the
 * last stdout line (electron's index.js may print download progress before it), or why not.
 */
export function interpretElectronProbe(output: ProbeOutput, exists: (file: string) => boolean): ElectronProbe {
  if (output.timedOut) return { ok: false, reason: 'locating Electron timed out' };
  const binary = output.stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (output.status === 0 && binary !== '') {
    return exists(binary) ? { ok: true, binary } : { ok: false, reason: `${binary} does not exist` };
  }
  if (output.stderr.includes(NOT_INSTALLED)) return { ok: false, reason: NOT_INSTALLED };
  const errorLine = output.stderr.split('\n').find((line) => /^\w*Error\b/.test(line.trim()));
  return { ok: false, reason: errorLine?.trim() ?? `require('electron') exited with status ${String(output.status)}` };
}

export interface LaunchPlan {
  command: string;
  args: string[];
  /** Environment variables removed for the child. */
  unsetEnv: string[];
  /** One line for the user, when the plan is not what they asked for. */
  notice?: string;
}

export interface PlanLaunchInput {
  probe: ElectronProbe;
  projectRoot: string;
  /** The Node that runs the browser shell: this very process's (Node 22). */
  nodePath: string;
  /** Arguments after `npm start --`, passed to whichever shell opens. */
  forwardArgs: readonly string[];
}

/** Decides between the desktop app and the browser shell. Pure. */
export function planLaunch(input: PlanLaunchInput): LaunchPlan {
  if (input.probe.ok) {
    // Set in a shell by other tools, it would make the binary start as plain Node instead.
    return { command: input.probe.binary, args: [input.projectRoot, ...input.forwardArgs], unsetEnv: ['ELECTRON_RUN_AS_NODE'] };
  }
  return {
    command: input.nodePath,
    args: [path.join(input.projectRoot, 'electron', 'bin', 'kubedrift.mjs'), 'serve', ...input.forwardArgs],
    unsetEnv: [],
    notice:
      `Electron's binary is not installed (${input.probe.reason}); install it with "npx install-electron". ` +
      'Opening the browser shell instead.',
  };
}

/** The exit code a shell reports for a child: its own, or 128 + signal number when killed. */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal ? os.constants.signals[signal] : undefined;
  return number === undefined ? 1 : 128 + number;
}

function probeElectron(projectRoot: string): ElectronProbe {
  const child = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: ELECTRON_PROBE_TIMEOUT_MS,
  });
  const timedOut = (child.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  return interpretElectronProbe({ status: child.status, stdout: child.stdout ?? '', stderr: child.stderr ?? '', timedOut }, existsSync);
}

function buildRenderer(projectRoot: string): number {
  const vite = path.join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: projectRoot, stdio: 'inherit' });
  return exitCodeOf(child.status, child.signal);
}

/**
 * Runs the chosen shell and resolves with its exit code. On POSIX the child gets its own process
 * group, so a Ctrl+C reaches it once, through us, instead of twice (from the terminal and from
 * us), which would cut short the browser shell's orderly shutdown.
 */
function runChild(plan: LaunchPlan, projectRoot: string): Promise<number> {
  const env = { ...process.env };
  for (const name of plan.unsetEnv) delete env[name];
  const child = spawn(plan.command, plan.args, { cwd: projectRoot, env, stdio: 'inherit', detached: process.platform !== 'win32' });
  // SIGHUP too: a closed terminal hangs up our group only, and the child must not outlive it.
  const signals: NodeJS.Signals[] = process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forwarders = signals.map((signal) => {
    const forward = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    process.on(signal, forward);
    return () => process.off(signal, forward);
  });
  return new Promise((resolve) => {
    const finish = (code: number) => {
      for (const stop of forwarders) stop();
      resolve(code);
    };
    child.on('error', (error) => {
      console.error(`could not start ${plan.command}: ${error.message}`);
      finish(1);
    });
    child.on('exit', (code, signal) => finish(exitCodeOf(code, signal)));
  });
}

async function start(argv: readonly string[]): Promise<number> {
  const rendererStatus = buildRenderer(PROJECT_ROOT);
  if (rendererStatus !== 0) {
    console.error('npm start: the renderer build failed (see above).');
    return rendererStatus;
  }
  try {
    await buildElectron();
  } catch (error) {
    console.error(`npm start: the Electron build failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    // esbuild keeps a service process for further builds; there are none, so it need not idle
    // alongside the app.
    await stopEsbuild();
  }
  const plan = planLaunch({ probe: probeElectron(PROJECT_ROOT), projectRoot: PROJECT_ROOT, nodePath: process.execPath, forwardArgs: argv });
  if (plan.notice) console.log(plan.notice);
  return runChild(plan, PROJECT_ROOT);
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) process.exitCode = await start(process.argv.slice(2));
