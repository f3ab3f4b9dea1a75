/**
 * Which binary each kubeconfig exec credential plugin would run, found the way the spawn that
 * client-node does finds it (execvp: a bare name is looked up on PATH, a name with a slash is
 * taken as a path). Shown on the Diagnostics screen so "plugin not found" has a visible cause.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { ExecPluginInfo } from '../../../shared/diagnostics.ts';
import type { MergedKubeconfig } from './kubeconfig.ts';

/** A flag whose name ends in one of these words carries a credential. */
const SECRET_FLAG = /(?:^|[-_.])(?:token|secret|password|passwd|pwd|apikey|api[-_]key|key|credentials?)$/i;
const REDACTED = '<redacted>';

export interface DescribeExecPluginsOptions {
  platform?: NodeJS.Platform;
  /** What a path with a slash is relative to: the engine's working directory, as for spawn. */
  cwd?: string;
  /** Windows only: the extensions a bare name may carry (`PATHEXT`). */
  pathExt?: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The values of secret-looking flags replaced, in both `--flag value` and `--flag=value` forms. */
export function redactArgs(args: readonly string[]): string[] {
  const result: string[] = [];
  let redactNext = false;
  for (const arg of args) {
    if (redactNext && !arg.startsWith('-')) {
      result.push(REDACTED);
      redactNext = false;
      continue;
    }
    redactNext = false;
    const flag = /^--?([^=]+)(=.*)?$/.exec(arg);
    if (flag && SECRET_FLAG.test(flag[1] ?? '')) {
      if (flag[2] !== undefined) result.push(`${arg.slice(0, arg.indexOf('='))}=${REDACTED}`);
      else {
        result.push(arg);
        redactNext = true;
      }
      continue;
    }
    result.push(arg);
  }
  return result;
}

function isExecutableFile(file: string, platform: NodeJS.Platform): 'ok' | 'not-executable' | 'missing' {
  try {
    if (!statSync(file).isFile()) return 'missing';
  } catch {
    return 'missing';
  }
  if (platform === 'win32') return 'ok';
  try {
    accessSync(file, constants.X_OK);
    return 'ok';
  } catch {
    return 'not-executable';
  }
}

/** The file execvp would run for `command` with this PATH, or the first non-executable match. */
export function lookUpCommand(
  command: string,
  searchPath: string,
  options: DescribeExecPluginsOptions = {},
): { resolved: string | null; status: 'ok' | 'not-found' | 'not-executable' } {
  const platform = options.platform ?? process.platform;
  const names =
    platform === 'win32' && path.extname(command) === ''
      ? (options.pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).map((ext) => command + ext.toLowerCase())
      : [command];
  const hasSeparator = command.includes('/') || (platform === 'win32' && command.includes('\\'));
  const directories = hasSeparator ? [options.cwd ?? process.cwd()] : searchPath.split(platform === 'win32' ? ';' : ':').filter(Boolean);
  let blocked: string | null = null;
  for (const directory of directories) {
    for (const name of names) {
      const candidate = path.resolve(directory, name);
      const state = isExecutableFile(candidate, platform);
      if (state === 'ok') return { resolved: candidate, status: 'ok' };
      if (state === 'not-executable') blocked ??= candidate;
    }
  }
  return blocked ? { resolved: blocked, status: 'not-executable' } : { resolved: null, status: 'not-found' };
}

/**
 * One entry per kubeconfig user with an `exec` plugin. Secrets stay out: flag values that look
 * like credentials are redacted and only the names of `exec.env` variables are listed. An
 * `exec.env` PATH is honoured because client-node spawns the plugin with that environment.
 */
export function describeExecPlugins(merged: MergedKubeconfig, searchPath: string, options: DescribeExecPluginsOptions = {}): ExecPluginInfo[] {
  const result: ExecPluginInfo[] = [];
  for (const user of merged.users.values()) {
    const exec = user.body['exec'];
    if (!isObject(exec)) continue;
    const command = typeof exec['command'] === 'string' ? exec['command'] : '';
    const envEntries = Array.isArray(exec['env']) ? exec['env'].filter(isObject) : [];
    const envNames = envEntries.map((entry) => entry['name']).filter((name): name is string => typeof name === 'string');
    const envPath = envEntries.find((entry) => entry['name'] === 'PATH')?.['value'];
    const args = Array.isArray(exec['args']) ? exec['args'].map((arg) => String(arg)) : [];
    const contexts = [...merged.contexts.values()]
      .filter((context) => context.body['user'] === user.name)
      .map((context) => context.name)
      .sort((a, b) => a.localeCompare(b));
    const lookup = command === '' ? { resolved: null, status: 'no-command' as const } : lookUpCommand(command, typeof envPath === 'string' ? envPath : searchPath, options);
    const info: ExecPluginInfo = {
      user: user.name,
      source: user.source,
      contexts,
      command,
      resolved: lookup.resolved,
      status: lookup.status,
      args: redactArgs(args),
      env: envNames,
    };
    if (typeof exec['apiVersion'] === 'string') info.apiVersion = exec['apiVersion'];
    if (typeof exec['interactiveMode'] === 'string') info.interactiveMode = exec['interactiveMode'];
    result.push(info);
  }
  return result.sort((a, b) => a.user.localeCompare(b.user));
}
