/**
 * Data shapes that cross the IPC contract. Each is a runtime schema with its inferred type, so
 * both ends agree on one definition and the receiving engine side can check every payload.
 */
import { z } from 'zod';

/** Name of the built-in simulated cluster's context; it is always offered. */
export const DEMO_CONTEXT = 'kubedrift-demo';

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  runtime: z.object({ node: z.string(), electron: z.string().optional() }),
  shell: z.enum(['desktop', 'browser', 'test']),
  dataDir: z.string(),
  startedAt: z.number(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

/** One kubeconfig file that was looked at, and what became of it. */
export const KubeconfigSourceSchema = z.object({
  path: z.string(),
  state: z.enum(['loaded', 'missing', 'error']),
  message: z.string().optional(),
  line: z.number().int().optional(),
});
export type KubeconfigSource = z.infer<typeof KubeconfigSourceSchema>;

export const ContextInfoSchema = z.object({
  name: z.string(),
  cluster: z.string(),
  user: z.string(),
  namespace: z.string().optional(),
  server: z.string().optional(),
  source: z.string(),
  demo: z.boolean(),
  /** Why this context cannot be used as written (missing cluster or user entry). */
  problem: z.string().optional(),
  /** An opened snapshot file shown as a context: offline, read-only (editing actions disabled). */
  snapshot: z.object({ file: z.string(), takenAt: z.number(), readOnly: z.boolean() }).optional(),
});
export type ContextInfo = z.infer<typeof ContextInfoSchema>;

export const ContextListSchema = z.object({
  contexts: z.array(ContextInfoSchema),
  /** The context the app is showing; null before the user picks one. */
  selected: z.string().nullable(),
  /** current-context as the kubeconfig files declare it. */
  kubeconfigCurrent: z.string().nullable(),
  sources: z.array(KubeconfigSourceSchema),
});
export type ContextList = z.infer<typeof ContextListSchema>;

export const ThemeSchema = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof ThemeSchema>;

export const SettingsSchema = z.object({
  theme: ThemeSchema,
  lastContext: z.string().nullable(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const ConnectionStateSchema = z.enum(['idle', 'connecting', 'connected', 'error']);
export type ConnectionState = z.infer<typeof ConnectionStateSchema>;

/** What the status bar shows about the selected context's API server. */
export const ConnectionStatusSchema = z.object({
  context: z.string().nullable(),
  state: ConnectionStateSchema,
  server: z.string().optional(),
  serverVersion: z.string().optional(),
  message: z.string().optional(),
  since: z.number(),
});
export type ConnectionStatus = z.infer<typeof ConnectionStatusSchema>;
