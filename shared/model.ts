/**
 * Data shapes that cross the IPC contract. Each is a runtime schema with its inferred type, so
 * both ends agree on one definition and the receiving engine side can check every payload.
 */
import { z } from 'zod';
import { AccessibleNamespacesByContextSchema } from './access.ts';
import { UserStatusRulesSchema } from './contracts/status-rules.ts';
import { KindExclusionListSchema } from './kind-exclusions.ts';

/** Name of the built-in simulated cluster's context; it is always offered. */
export const DEMO_CONTEXT = 'kubedrift-demo';
/** The same simulated cluster as user "dev", who may only read namespaces shop and payments (and list namespaces). */
export const DEMO_DEV_CONTEXT = 'kubedrift-demo-dev';
/** The namespace of the restricted demo context (its kubeconfig context's `namespace`). */
export const DEMO_DEV_CONTEXT_NAMESPACE = 'shop';
/** Every built-in demo context, in the order the picker offers them. */
export const DEMO_CONTEXTS: readonly string[] = [DEMO_CONTEXT, DEMO_DEV_CONTEXT];

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
  /** A context no kubeconfig has that a history source records (the source's name): its history only, no live view. */
  recordedBy: z.string().optional(),
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

/** Most contexts recorded in the background at once (each has its own informers and store). */
export const MAX_BACKGROUND_CONTEXTS = 20;

/** History retention limits the settings accept (days; bytes: 64 MiB .. 1 TiB). */
export const HISTORY_RETENTION_DAYS = { min: 1, max: 365 } as const;
export const HISTORY_MAX_BYTES = { min: 64 * 1024 ** 2, max: 1024 ** 4 } as const;
/**
 * How long a shared store's writer may be silent before a recorder of another history file takes
 * its context over (seconds; the claim is renewed every third of it, so less means more traffic).
 */
export const HISTORY_TAKEOVER_SECONDS = { min: 5, max: 3_600, default: 30 } as const;

export const SettingsSchema = z.object({
  theme: ThemeSchema,
  lastContext: z.string().nullable(),
  /** Record desired vs actual history (default true). */
  historyRecording: z.boolean().optional(),
  /** Keep history this many days (default 14). */
  historyRetentionDays: z.number().int().min(HISTORY_RETENTION_DAYS.min).max(HISTORY_RETENTION_DAYS.max).optional(),
  /** Keep each context's history under this many bytes (default 1 GiB). */
  historyMaxBytes: z.number().int().min(HISTORY_MAX_BYTES.min).max(HISTORY_MAX_BYTES.max).optional(),
  /**
   * Where history is kept: this computer's SQLite files (absent, '' or 'sqlite'), or a PostgreSQL
   * database that recorders share (a postgres:// connection string; its password may instead come
   * from PGPASSWORD or ~/.pgpass).
   */
  historyStore: z
    .string()
    .max(2_048)
    .refine((value) => value.trim() === '' || value.trim() === 'sqlite' || /^postgres(ql)?:\/\//i.test(value.trim()), { error: 'the history store must be "sqlite" or a connection string such as postgres://user@host:5432/kubedrift' })
    .optional(),
  /** A shared store's writer silent this many seconds is taken over by another recorder (default 30; postgres:// stores only). */
  historyTakeoverSeconds: z
    .number({ error: 'the takeover time must be a number of seconds' })
    .int({ error: 'the takeover time must be a whole number of seconds' })
    .min(HISTORY_TAKEOVER_SECONDS.min, { error: `the takeover time must be at least ${HISTORY_TAKEOVER_SECONDS.min} seconds` })
    .max(HISTORY_TAKEOVER_SECONDS.max, { error: `the takeover time can be at most ${HISTORY_TAKEOVER_SECONDS.max} seconds (one hour)` })
    .optional(),
  /** The desktop app checks for a newer release and offers it (default true; it never installs without asking). */
  updateChecks: z.boolean().optional(),
  /** Each context's kind exclusion rules, by context name; a context absent here has DEFAULT_KIND_EXCLUSIONS. */
  kindExclusions: z.record(z.string(), KindExclusionListSchema).optional(),
  /** Namespaces each context's user added by hand (Cluster screen), by context name: a source of namespaces when listing them is forbidden. */
  accessibleNamespaces: AccessibleNamespacesByContextSchema.optional(),
  /** The user's status rules (condition -> state per kind), read before the well-known ones. */
  statusRules: UserStatusRulesSchema.optional(),
  /** Contexts whose history is recorded all the time, also while another one is selected. */
  backgroundContexts: z.array(z.string().min(1).max(253)).max(MAX_BACKGROUND_CONTEXTS, { error: `at most ${MAX_BACKGROUND_CONTEXTS} contexts can record in the background` }).optional(),
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
