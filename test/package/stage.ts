/**
 * Builds what `npm run dist` packages and packs it with electron-builder's `--dir` target, all
 * inside a temporary directory, without downloading Electron: the project's packaging inputs
 * (package.json, lock file, electron-builder.yml, resources/, node_modules/) are staged beside a
 * fresh build of out/, and `electronDist` points at a stand-in Electron made here.
 */
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, linkSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectron } from '../../electron/tools/build-electron.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Longest a packaging step may take; a download attempt that hangs instead of failing ends here. */
export const STEP_TIMEOUT_MS = 180_000;

/**
 * Where any download would go: a port nothing listens on, so an attempt fails at once with
 * ECONNREFUSED instead of waiting on a network this machine may not have.
 */
const CLOSED_URL = 'http://127.0.0.1:9/';

/** The files electron-builder reads from the project, besides out/ (built) and node_modules/ (linked). */
const STAGED_FILES = ['package.json', 'package-lock.json', 'electron-builder.yml'];

/**
 * Copies a tree as hard links (instant for node_modules' ~26,000 files), falling back to a copy
 * across file systems. Symlinks are recreated as they are.
 */
export function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs a Node script as a child process; kills it and says so when it outlives `timeoutMs`. */
export function runNode(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? STEP_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} did not finish in ${timeoutMs / 1000} s (a download attempt?); output so far:\n${output}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Stages the project's packaging inputs under `dir` and builds out/ there (`npm run build`'s two steps). */
export async function stageProject(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const file of STAGED_FILES) copyFileSync(path.join(PROJECT_ROOT, file), path.join(dir, file));
  linkTree(path.join(PROJECT_ROOT, 'resources'), path.join(dir, 'resources'));
  linkTree(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const vite = path.join(PROJECT_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const renderer = await runNode([vite, 'build', '--logLevel', 'warn', '--emptyOutDir', '--outDir', path.join(dir, 'out', 'renderer')], {
    cwd: PROJECT_ROOT,
  });
  if (renderer.code !== 0) throw new Error(`the renderer build failed:\n${renderer.output}`);
  await buildElectron({ outDir: path.join(dir, 'out') });
}

/**
 * A stand-in for an unpacked Electron release, as electron-builder copies one for a linux
 * `--dir` target: the `electron` executable (renamed to the app's), Electron's LICENSE, the
 * version file and resources/ (where app.asar goes). The executable only prints a line.
 */
export function makeElectronStandIn(dir: string, version: string): void {
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  writeFileSync(path.join(dir, 'electron'), '#!/bin/sh\necho "stand-in for Electron: no app runs here"\n');
  chmodSync(path.join(dir, 'electron'), 0o755);
  writeFileSync(path.join(dir, 'LICENSE'), 'Stand-in for the MIT license text Electron ships.\n');
  writeFileSync(path.join(dir, 'version'), `${version}\n`);
}

/** electron-builder's name for this machine's architecture. */
function builderArch(): string {
  const known: Record<string, string> = { x64: 'x64', arm64: 'arm64', ia32: 'ia32', arm: 'armv7l' };
  const arch = known[process.arch];
  if (!arch) throw new Error(`electron-builder has no linux target for the architecture ${process.arch}`);
  return arch;
}

/**
 * Runs electron-builder's linux `--dir` target in `projectDir` against `electronDist`, writing to
 * `outputDir`. Every download URL electron-builder and @electron/get know of is pointed at a
 * closed port, so an attempt to download fails quickly and visibly.
 */
export async function packDir(options: { projectDir: string; electronDist: string; outputDir: string }): Promise<RunResult> {
  const cli = path.join(options.projectDir, 'node_modules', 'electron-builder', 'cli.js');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ELECTRON_MIRROR: CLOSED_URL,
    ELECTRON_BUILDER_BINARIES_MIRROR: CLOSED_URL,
    npm_config_disturl: CLOSED_URL,
    HTTP_PROXY: CLOSED_URL,
    HTTPS_PROXY: CLOSED_URL,
    http_proxy: CLOSED_URL,
    https_proxy: CLOSED_URL,
    NO_PROXY: '',
    no_proxy: '',
    CSC_IDENTITY_AUTO_DISCOVERY: 'false',
  };
  return runNode(
    [
      cli,
      '--linux',
      'dir',
      `--${builderArch()}`,
      '--publish',
      'never',
      `--config.electronDist=${options.electronDist}`,
      `--config.directories.output=${options.outputDir}`,
    ],
    { cwd: options.projectDir, env },
  );
}
