/**
 * Loads kubeconfig files the way kubectl does: an explicit file, else `$KUBECONFIG` as a list
 * merged in order (the first file to set a name wins, current-context from the first file that
 * sets it), else `~/.kube/config`. Every file's fate is reported so the UI can say exactly what
 * went wrong (missing file, unreadable, invalid YAML with its line).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { ContextInfo, KubeconfigSource } from '../../../shared/model.ts';

type Json = Record<string, unknown>;

export interface NamedEntry {
  name: string;
  /** The entry's body (`cluster`, `user` or `context` object), relative paths made absolute. */
  body: Json;
  source: string;
}

export interface MergedKubeconfig {
  clusters: Map<string, NamedEntry>;
  users: Map<string, NamedEntry>;
  contexts: Map<string, NamedEntry>;
  currentContext: string | null;
  sources: KubeconfigSource[];
}

export interface ResolveOptions {
  /** `--kubeconfig FILE`: only this file, and it must exist. */
  explicit?: string | undefined;
  env: Record<string, string | undefined>;
  homeDir: string;
  platform?: NodeJS.Platform;
}

/** The files kubectl would read, in merge order. */
export function resolveKubeconfigPaths(options: ResolveOptions): { paths: string[]; explicit: boolean } {
  if (options.explicit) return { paths: [path.resolve(options.explicit)], explicit: true };
  const list = options.env['KUBECONFIG'];
  if (list !== undefined && list.trim() !== '') {
    const separator = (options.platform ?? process.platform) === 'win32' ? ';' : ':';
    const seen = new Set<string>();
    const paths: string[] = [];
    for (const entry of list.split(separator)) {
      if (entry.trim() === '') continue;
      const resolved = path.resolve(entry);
      if (seen.has(resolved)) continue;
      seen.add(resolved);
      paths.push(resolved);
    }
    return { paths, explicit: false };
  }
  return { paths: [path.join(options.homeDir, '.kube', 'config')], explicit: false };
}

const PATH_KEYS: Record<'clusters' | 'users', string[]> = {
  clusters: ['certificate-authority'],
  users: ['client-certificate', 'client-key', 'tokenFile'],
};

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function absolutise(body: Json, keys: string[], dir: string): Json {
  const copy: Json = { ...body };
  for (const key of keys) {
    const value = copy[key];
    if (typeof value === 'string' && value !== '' && !path.isAbsolute(value)) copy[key] = path.resolve(dir, value);
  }
  return copy;
}

/** Parses one kubeconfig text; throws a KubeconfigParseError carrying the line of the fault. */
export function parseKubeconfig(text: string): Json {
  const doc = parseDocument(text);
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0].line;
    throw new KubeconfigParseError(`invalid YAML: ${(first.message.split('\n')[0] ?? '').replace(/:$/, '')}`, line);
  }
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return {};
  if (!isObject(value)) throw new KubeconfigParseError('not a kubeconfig: the top level is not a mapping', 1);
  for (const key of ['clusters', 'users', 'contexts'] as const) {
    const list = value[key];
    if (list !== undefined && list !== null && !Array.isArray(list)) {
      throw new KubeconfigParseError(`not a kubeconfig: "${key}" must be a list`);
    }
  }
  return value;
}

export class KubeconfigParseError extends Error {
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(message);
    this.name = 'KubeconfigParseError';
    this.line = line;
  }
}

/** Reads and merges the files; never throws: each file's problem lands in `sources`. */
export async function loadKubeconfigs(paths: string[], options: { explicit?: boolean } = {}): Promise<MergedKubeconfig> {
  const merged: MergedKubeconfig = {
    clusters: new Map(),
    users: new Map(),
    contexts: new Map(),
    currentContext: null,
    sources: [],
  };
  for (const file of paths) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        const message = options.explicit ? 'file not found' : 'not found (skipped)';
        merged.sources.push({ path: file, state: 'missing', message });
      } else {
        merged.sources.push({ path: file, state: 'error', message: `cannot read: ${code ?? String(error)}` });
      }
      continue;
    }
    let config: Json;
    try {
      config = parseKubeconfig(text);
    } catch (error) {
      const parseError = error as KubeconfigParseError;
      const source: KubeconfigSource = { path: file, state: 'error', message: parseError.message };
      if (parseError.line !== undefined) source.line = parseError.line;
      merged.sources.push(source);
      continue;
    }
    mergeInto(merged, config, file);
    merged.sources.push({ path: file, state: 'loaded' });
  }
  return merged;
}

function mergeInto(merged: MergedKubeconfig, config: Json, file: string): void {
  const dir = path.dirname(file);
  const sections = [
    ['clusters', 'cluster', merged.clusters],
    ['users', 'user', merged.users],
    ['contexts', 'context', merged.contexts],
  ] as const;
  for (const [listKey, bodyKey, target] of sections) {
    const list = config[listKey];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (!isObject(item) || typeof item['name'] !== 'string' || item['name'] === '') continue;
      if (target.has(item['name'])) continue;
      const rawBody = isObject(item[bodyKey]) ? (item[bodyKey] as Json) : {};
      const body = listKey === 'contexts' ? rawBody : absolutise(rawBody, PATH_KEYS[listKey], dir);
      target.set(item['name'], { name: item['name'], body, source: file });
    }
  }
  const current = config['current-context'];
  if (merged.currentContext === null && typeof current === 'string' && current !== '') merged.currentContext = current;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The contexts as the picker shows them, each with the problem that would stop it working. */
export function describeContexts(merged: MergedKubeconfig): ContextInfo[] {
  const result: ContextInfo[] = [];
  for (const context of merged.contexts.values()) {
    const clusterName = str(context.body['cluster']) ?? '';
    const userName = str(context.body['user']) ?? '';
    const cluster = merged.clusters.get(clusterName);
    const problems: string[] = [];
    if (!clusterName) problems.push('names no cluster');
    else if (!cluster) problems.push(`cluster "${clusterName}" is not defined in any kubeconfig file`);
    if (userName && !merged.users.has(userName)) problems.push(`user "${userName}" is not defined in any kubeconfig file`);
    const info: ContextInfo = {
      name: context.name,
      cluster: clusterName,
      user: userName,
      source: context.source,
      demo: false,
    };
    const namespace = str(context.body['namespace']);
    if (namespace) info.namespace = namespace;
    const server = cluster ? str(cluster.body['server']) : undefined;
    if (server) info.server = server;
    else if (cluster) problems.push(`cluster "${clusterName}" has no server`);
    if (problems.length > 0) info.problem = `Context "${context.name}" ${problems.join('; ')}`;
    result.push(info);
  }
  return result.sort((a, b) => a.name.localeCompare(b.name));
}

/** One self-contained kubeconfig (JSON) for a single context, as client libraries load it. */
export function singleContextConfig(merged: MergedKubeconfig, contextName: string): Json {
  const context = merged.contexts.get(contextName);
  if (!context) throw new Error(`context "${contextName}" not found`);
  const clusterName = str(context.body['cluster']) ?? '';
  const userName = str(context.body['user']) ?? '';
  const cluster = merged.clusters.get(clusterName);
  const user = merged.users.get(userName);
  return {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': contextName,
    contexts: [{ name: contextName, context: context.body }],
    clusters: cluster ? [{ name: clusterName, cluster: cluster.body }] : [],
    users: [{ name: userName || 'anonymous', user: user ? user.body : {} }],
  };
}
