/**
 * The process environment the cluster clients run in, and the Diagnostics payload that shows it.
 */
import type { Diagnostics, PathDiagnostics } from '../../../shared/diagnostics.ts';
import type { ContextRegistry } from './contexts.ts';
import { describeExecPlugins } from './exec-plugins.ts';
import { resolveLoginShellPath, type LoginShellPathOptions } from './shell-path.ts';

export interface PrepareEnvironmentOptions extends Omit<LoginShellPathOptions, 'env'> {
  /** The environment to read and update; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Resolves the login-shell PATH and makes it the engine's own `PATH`. Call it once in the
 * engine's start, before any connection: client-node spawns exec credential plugins with
 * `process.env` (no env of its own), so this assignment is what lets `aws`,
 * `gke-gcloud-auth-plugin` or `kubelogin` be found when the app was started from a desktop
 * launcher. Never throws; on failure the PATH is left alone and the reason is returned.
 */
export async function prepareEnvironment(options: PrepareEnvironmentOptions = {}): Promise<PathDiagnostics> {
  const env = options.env ?? process.env;
  const resolved = await resolveLoginShellPath({ ...options, env });
  if (resolved.source === 'login-shell') env['PATH'] = resolved.path;
  const diagnostics: PathDiagnostics = { value: resolved.path, source: resolved.source };
  if (resolved.shell !== undefined) diagnostics.shell = resolved.shell;
  if (resolved.error !== undefined) diagnostics.error = resolved.error;
  return diagnostics;
}

/**
 * The `diagnostics:get` answer: the PATH from `prepareEnvironment`, what each exec plugin of the
 * kubeconfig as last read would run with it, and each kubeconfig file's state. Cheap enough to
 * compute per request (a few `stat` calls per plugin), so it always reflects installs made since.
 */
export function diagnosticsSnapshot(options: { path: PathDiagnostics; registry: ContextRegistry }): Diagnostics {
  const merged = options.registry.kubeconfig();
  return {
    path: { ...options.path },
    execPlugins: merged ? describeExecPlugins(merged, options.path.value) : [],
    kubeconfigSources: options.registry.list().sources,
  };
}
