/**
 * What the Diagnostics screen shows: the PATH the engine runs with (and where it came from), the
 * exec credential plugins the kubeconfig users call and which binary each would run, and the
 * kubeconfig files that were read. These answer "why does my `aws`/`gke-gcloud-auth-plugin`
 * context fail when the app is started from the dock?" (lensapp/lens#878).
 */
import { z } from 'zod';
import { KubeconfigSourceSchema } from './model.ts';

/** The PATH exec plugins are spawned with. */
export const PathDiagnosticsSchema = z.object({
  /** The whole PATH value, entries separated by the platform's delimiter. */
  value: z.string(),
  /** `login-shell`: merged from the user's login shell; `inherited`: as the app was started. */
  source: z.enum(['login-shell', 'inherited']),
  /** The shell that was asked (absent when none was). */
  shell: z.string().optional(),
  /** Why the login shell's PATH is not in use. */
  error: z.string().optional(),
});
export type PathDiagnostics = z.infer<typeof PathDiagnosticsSchema>;

/** One kubeconfig user whose credentials come from an exec plugin. */
export const ExecPluginInfoSchema = z.object({
  /** The kubeconfig user entry's name. */
  user: z.string(),
  /** The kubeconfig file that defines the user. */
  source: z.string(),
  /** The contexts that use this user, sorted. */
  contexts: z.array(z.string()),
  /** `exec.command` as written in the kubeconfig. */
  command: z.string(),
  /** The file that would run; null when nothing on PATH matches. */
  resolved: z.string().nullable(),
  /** `ok`: found and executable; otherwise why it would not start. */
  status: z.enum(['ok', 'not-found', 'not-executable', 'no-command']),
  apiVersion: z.string().optional(),
  /** `exec.args`, with the values of secret-looking flags replaced by `<redacted>`. */
  args: z.array(z.string()),
  /** Names of the variables `exec.env` sets (values are never sent). */
  env: z.array(z.string()),
  interactiveMode: z.string().optional(),
});
export type ExecPluginInfo = z.infer<typeof ExecPluginInfoSchema>;

export const DiagnosticsSchema = z.object({
  path: PathDiagnosticsSchema,
  execPlugins: z.array(ExecPluginInfoSchema),
  kubeconfigSources: z.array(KubeconfigSourceSchema),
});
export type Diagnostics = z.infer<typeof DiagnosticsSchema>;
