/**
 * The production dependency closure of an installed project: package.json "dependencies", and
 * what each of those needs at run time, found the way Node finds them (node_modules folders up
 * from the requiring package). This is what an app.asar must carry, and no more.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** The fields of a package.json that identify a package. */
export interface PackageId {
  name: string;
  version: string;
}

interface Manifest extends PackageId {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The installed folder of `name` as seen from `fromDir`, or undefined when none is installed. */
function findInstalled(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * `name@version` of every package in the production closure of the project at `projectDir`.
 * A missing required dependency is an error (the installed tree is broken); a missing optional
 * or optional-peer one is skipped, as npm does on platforms it does not apply to.
 */
export function productionClosure(projectDir: string): Set<string> {
  const root = readManifest(projectDir);
  const seen = new Map<string, string>();
  const queue: Array<{ name: string; from: string; optional: boolean }> = Object.keys(root.dependencies ?? {}).map((name) => ({
    name,
    from: projectDir,
    optional: false,
  }));
  while (queue.length > 0) {
    const next = queue.shift();
    if (!next) break;
    const dir = findInstalled(next.name, next.from);
    if (!dir) {
      if (next.optional) continue;
      throw new Error(`production dependency ${next.name} (needed from ${next.from}) is not installed`);
    }
    if (seen.has(dir)) continue;
    const manifest = readManifest(dir);
    seen.set(dir, `${manifest.name}@${manifest.version}`);
    for (const name of Object.keys(manifest.dependencies ?? {})) queue.push({ name, from: dir, optional: false });
    for (const name of Object.keys(manifest.optionalDependencies ?? {})) queue.push({ name, from: dir, optional: true });
    for (const name of Object.keys(manifest.peerDependencies ?? {})) {
      queue.push({ name, from: dir, optional: manifest.peerDependenciesMeta?.[name]?.optional === true });
    }
  }
  return new Set(seen.values());
}

/** `name@version` of every package folder under an app's node_modules/, given the app's file list. */
export function packagedPackages(files: readonly string[], readJson: (file: string) => PackageId): Set<string> {
  const found = new Set<string>();
  for (const file of files) {
    const parts = file.split('/').filter(Boolean);
    if (parts.at(-1) !== 'package.json') continue;
    const folder = parts.slice(0, -1);
    // A package folder is node_modules/<name> or node_modules/@scope/<name>, at any depth.
    const last = folder.lastIndexOf('node_modules');
    if (last < 0) continue;
    const nameParts = folder.slice(last + 1);
    const isPackageFolder = nameParts.length === 1 || (nameParts.length === 2 && nameParts[0]?.startsWith('@'));
    if (!isPackageFolder) continue;
    const manifest = readJson(file);
    found.add(`${manifest.name}@${manifest.version}`);
  }
  return found;
}
