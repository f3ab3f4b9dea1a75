/**
 * Finds the manifests under the paths a user chose: `.yaml`/`.yml`/`.json` files, recursively;
 * a folder with a kustomization is one unit (rendered by kustomize, never read file by file);
 * a folder with `Chart.yaml` is a Helm chart, whose templates are not YAML until rendered, so it
 * is reported and skipped. Hidden folders and node_modules are not descended into.
 */
import { constants } from 'node:fs';
import { access, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DiffNotice } from '../../../../shared/contracts/diff.ts';

export const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;
export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;
const SKIPPED_FOLDERS = new Set(['node_modules']);
/** More files than this under one path is a mistake (a home folder chosen by accident). */
export const MAX_FILES = 20_000;

export type Source = { type: 'file'; file: string } | { type: 'kustomization'; dir: string; file: string };

export interface Walked {
  sources: Source[];
  helmCharts: string[];
  notices: DiffNotice[];
}

const isManifestFile = (name: string) => MANIFEST_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

export function helmNotice(dir: string): DiffNotice {
  return {
    level: 'warning',
    path: dir,
    message: 'Helm chart skipped: its templates only become manifests when rendered. Render it with "helm template" into a folder and diff that folder.',
  };
}

async function walkFolder(dir: string, out: Walked, seen: Set<string>): Promise<void> {
  const real = await realpath(dir);
  if (seen.has(real)) return;
  seen.add(real);
  const entries = await readdir(dir, { withFileTypes: true });
  const names = new Set(entries.map((entry) => entry.name));
  const kustomization = KUSTOMIZATION_FILES.find((name) => names.has(name));
  if (kustomization) {
    out.sources.push({ type: 'kustomization', dir, file: path.join(dir, kustomization) });
    return;
  }
  if (names.has('Chart.yaml')) {
    out.helmCharts.push(dir);
    out.notices.push(helmNotice(dir));
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (out.sources.length >= MAX_FILES) return;
    const full = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const target = await stat(full).catch(() => undefined);
      isDir = target?.isDirectory() ?? false;
      isFile = target?.isFile() ?? false;
    }
    if (isDir && !entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) await walkFolder(full, out, seen);
    else if (isFile && isManifestFile(entry.name)) out.sources.push({ type: 'file', file: full });
  }
}

/** The sources under each path, in a stable order. Paths must exist (see inspectPath). */
export async function walkPaths(paths: readonly string[]): Promise<Walked> {
  const out: Walked = { sources: [], helmCharts: [], notices: [] };
  const seen = new Set<string>();
  for (const given of paths) {
    const full = path.resolve(given);
    const info = await stat(full).catch(() => undefined);
    if (!info) {
      out.notices.push({ level: 'warning', path: full, message: 'This path does not exist (any more).' });
      continue;
    }
    if (info.isDirectory()) {
      const before = out.sources.length + out.helmCharts.length;
      await walkFolder(full, out, seen).catch((error: unknown) => out.notices.push({ level: 'warning', path: full, message: `Could not read this folder: ${(error as Error).message}` }));
      if (out.sources.length + out.helmCharts.length === before) out.notices.push({ level: 'warning', path: full, message: 'No .yaml, .yml or .json files in this folder.' });
      continue;
    }
    const base = path.basename(full);
    if ((KUSTOMIZATION_FILES as readonly string[]).includes(base)) out.sources.push({ type: 'kustomization', dir: path.dirname(full), file: full });
    else if (base === 'Chart.yaml') {
      out.helmCharts.push(path.dirname(full));
      out.notices.push(helmNotice(path.dirname(full)));
    } else if (isManifestFile(base)) out.sources.push({ type: 'file', file: full });
    else out.notices.push({ level: 'warning', path: full, message: 'Not a manifest file: Kubedrift reads .yaml, .yml and .json files.' });
  }
  if (out.sources.length >= MAX_FILES) out.notices.push({ level: 'warning', path: paths.join(', '), message: `Stopped after ${MAX_FILES} files: choose the folder that holds the manifests, not a parent of it.` });
  return out;
}

/** Whether the current process may read `file`. */
export async function readable(file: string): Promise<boolean> {
  return access(file, constants.R_OK).then(
    () => true,
    () => false,
  );
}
