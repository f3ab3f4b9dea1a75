/**
 * Loads every manifest under the chosen paths: files parsed, kustomizations rendered with
 * `kubectl kustomize` (when kubectl is on PATH), Helm charts reported as out of scope. Nothing
 * here talks to the cluster; namespaces and kinds are checked later, against discovery.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { PathInfo } from '../../../../shared/contracts/diff.ts';
import { findKubectl, runProgram } from '../kubectl-bin.ts';
import { parseManifestText, type Parsed } from './parse.ts';
import type { LoadResult } from './types.ts';
import { readable, walkPaths, type Source } from './walk.ts';

/** A manifest file larger than this is refused (a log or a dump chosen by mistake). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
const KUSTOMIZE_TIMEOUT_MS = 60_000;

export interface LoadOptions {
  /** kubectl for kustomizations; undefined looks it up on PATH. */
  kubectl?: string | null;
}

async function loadFile(file: string): Promise<Parsed> {
  try {
    const info = await stat(file);
    if (info.size > MAX_FILE_BYTES) return { manifests: [], errors: [{ source: { file, line: 1 }, message: `the file is ${Math.round(info.size / 1048576)} MB; manifests over ${MAX_FILE_BYTES / 1048576} MB are not read` }] };
    const text = await readFile(file, 'utf8');
    return parseManifestText(text, file, { json: file.toLowerCase().endsWith('.json') });
  } catch (error) {
    return { manifests: [], errors: [{ source: { file, line: 1 }, message: `could not read the file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }] };
  }
}

async function loadKustomization(source: Extract<Source, { type: 'kustomization' }>, kubectl: string | undefined): Promise<Parsed> {
  const at = { file: source.file, line: 1 };
  if (!kubectl) {
    return { manifests: [], errors: [{ source: at, message: 'this folder is a kustomization; rendering it needs kubectl ("kubectl kustomize"), which is not on PATH. Install kubectl, or render it yourself ("kustomize build") into a folder and diff that.' }] };
  }
  const result = await runProgram(kubectl, ['kustomize', source.dir], { timeoutMs: KUSTOMIZE_TIMEOUT_MS, maxBytes: MAX_FILE_BYTES });
  if (result.code !== 0) {
    const why = result.failure ?? (result.stderr.trim().split('\n').filter((line) => !line.startsWith('# Warning')).join(' ') || `exit code ${String(result.code)}`);
    return { manifests: [], errors: [{ source: at, message: `"kubectl kustomize" failed: ${why}` }] };
  }
  // Rendered objects have no line of their own in the sources: they point at the kustomization.
  const parsed = parseManifestText(result.stdout, source.file);
  for (const item of [...parsed.manifests, ...parsed.errors]) item.source = at;
  return parsed;
}

/** Loads everything under `paths`. Never throws: problems become error rows and notices. */
export async function loadManifests(paths: readonly string[], options: LoadOptions = {}): Promise<LoadResult> {
  const walked = await walkPaths(paths);
  const needsKubectl = walked.sources.some((source) => source.type === 'kustomization');
  const kubectl = needsKubectl ? (options.kubectl === undefined ? await findKubectl() : (options.kubectl ?? undefined)) : undefined;
  const parsed = await Promise.all(walked.sources.map((source) => (source.type === 'file' ? loadFile(source.file) : loadKustomization(source, kubectl))));
  const result: LoadResult = { manifests: [], errors: [], notices: walked.notices, files: walked.sources.length };
  for (const part of parsed) {
    result.manifests.push(...part.manifests);
    result.errors.push(...part.errors);
  }
  return result;
}

/** Counts what a folder holds without parsing it (for the path field's feedback). */
async function describeFolder(full: string): Promise<PathInfo> {
  const walked = await walkPaths([full]);
  const files = walked.sources.filter((source) => source.type === 'file').length;
  const kustomizations = walked.sources.length - files;
  const helmCharts = walked.helmCharts.length;
  const parts = [`${files} manifest file${files === 1 ? '' : 's'}`];
  if (kustomizations) parts.push(`${kustomizations} kustomization${kustomizations === 1 ? '' : 's'}`);
  if (helmCharts) parts.push(`${helmCharts} Helm chart${helmCharts === 1 ? '' : 's'} (skipped: render with "helm template")`);
  const ok = files + kustomizations > 0;
  const message = ok ? `Folder with ${parts.join(', ')}.` : helmCharts ? `Only Helm charts here (${helmCharts}); they are skipped: render them with "helm template" into a folder and choose that.` : 'No .yaml, .yml or .json files in this folder or below it.';
  return { path: full, ok, type: 'folder', files, kustomizations, helmCharts, message };
}

/** Whether a path can be diffed, and what it holds. */
export async function inspectPath(given: string): Promise<PathInfo> {
  const full = path.resolve(given.replace(/^~(?=$|\/)/, process.env['HOME'] ?? '~'));
  const base = { path: full, files: 0, kustomizations: 0, helmCharts: 0 };
  const info = await stat(full).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) {
    const message = info.code === 'ENOENT' ? 'No such file or folder.' : info.code === 'EACCES' ? 'Permission denied.' : `Cannot be read: ${info.message}`;
    return { ...base, ok: false, type: 'missing', message };
  }
  if (!(await readable(full))) return { ...base, ok: false, type: info.isDirectory() ? 'folder' : 'file', message: 'Permission denied: Kubedrift cannot read it.' };
  if (info.isDirectory()) return describeFolder(full).catch((error: unknown) => ({ ...base, ok: false, type: 'folder' as const, message: `Cannot be read: ${(error as Error).message}` }));
  const walked = await walkPaths([full]);
  const source = walked.sources[0];
  if (!source) return { ...base, ok: false, type: 'file', helmCharts: walked.helmCharts.length, message: walked.notices[0]?.message ?? 'Not a manifest file.' };
  if (source.type === 'kustomization') return { ...base, ok: true, type: 'file', kustomizations: 1, message: 'A kustomization (rendered with "kubectl kustomize").' };
  return { ...base, ok: true, type: 'file', files: 1, message: `A manifest file (${Math.max(1, Math.round(info.size / 1024))} KB).` };
}
