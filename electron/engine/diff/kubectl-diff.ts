/**
 * "Run kubectl diff": the real `kubectl diff` on the same paths with the same context, for
 * parity. The context's client configuration goes to a private temporary kubeconfig (mode 0600,
 * removed afterwards); plain manifests go in one `kubectl diff -f` call, each kustomization in a
 * `kubectl diff -k` call of its own (kubectl takes one or the other). The exit code is the worst
 * of the calls: 0 no differences, 1 differences, > 1 an error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KubectlDiffResult } from '../../../shared/contracts/diff.ts';
import { runProgram } from './kubectl-bin.ts';
import { walkPaths } from './load/walk.ts';

const TIMEOUT_MS = 120_000;
const MAX_OUTPUT_BYTES = 256 * 1024;

export interface KubectlDiffOptions {
  kubectl: string;
  config: object;
  paths: readonly string[];
  /** kubectl's discovery cache (defaults to kubectl's own, under HOME). */
  cacheDir?: string;
  now?: () => number;
}

function worstCode(codes: Array<number | null>): number | null {
  if (codes.some((code) => code === null)) return null;
  const numbers = codes as number[];
  return numbers.some((code) => code > 1) ? Math.max(...numbers) : Math.max(0, ...numbers);
}

export async function runKubectlDiff(options: KubectlDiffOptions): Promise<KubectlDiffResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const walked = await walkPaths(options.paths);
  const files = walked.sources.flatMap((source) => (source.type === 'file' ? [source.file] : []));
  const kustomizations = walked.sources.flatMap((source) => (source.type === 'kustomization' ? [source.dir] : []));
  const calls: string[][] = [];
  if (files.length) calls.push(['diff', ...files.flatMap((file) => ['-f', file])]);
  for (const dir of kustomizations) calls.push(['diff', '-k', dir]);
  const shown = calls
    .map((args) => {
      const flags = args.slice(1);
      const visible = flags.length > 8 ? [...flags.slice(0, 6), `… (${(flags.length - 6) / 2} more files)`] : flags;
      return `kubectl diff ${visible.join(' ')}`;
    })
    .join(' ; ');
  if (calls.length === 0) return { command: shown || 'kubectl diff', exitCode: null, stdout: '', stderr: 'No manifests to diff under the chosen paths.', durationMs: now() - started, truncated: false };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kubedrift-kubectl-'));
  try {
    const kubeconfig = path.join(dir, 'kubeconfig');
    await writeFile(kubeconfig, JSON.stringify(options.config), { mode: 0o600 });
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env['KUBECONFIG'];
    // Another diff program would print something else than the unified diff shown here.
    delete env['KUBECTL_EXTERNAL_DIFF'];
    const common = ['--kubeconfig', kubeconfig, ...(options.cacheDir ? ['--cache-dir', options.cacheDir] : [])];
    const results = [];
    for (const args of calls) results.push(await runProgram(options.kubectl, [...common, ...args], { env, timeoutMs: TIMEOUT_MS, maxBytes: MAX_OUTPUT_BYTES }));
    const failure = results.find((result) => result.failure)?.failure;
    return {
      command: `${shown}  (with a temporary kubeconfig of this context)`,
      exitCode: worstCode(results.map((result) => result.code)),
      stdout: results.map((result) => result.stdout).join(''),
      stderr: results.map((result) => result.stderr).join('') + (failure ? `kubectl ${failure}\n` : ''),
      durationMs: now() - started,
      truncated: results.some((result) => result.truncated),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
