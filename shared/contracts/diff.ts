/**
 * The diff part of the IPC contract (merged into shared/contract.ts): local manifests compared
 * with the live cluster. A run answers with a summary; its rows come in pages and one object's
 * full diff on request, so every message stays small. The state stream `diff:changed` carries
 * progress while a run works and the summary when it is done (a watched folder re-runs it).
 */
import { z } from 'zod';

export const DIFF_STATUSES = ['InSync', 'OutOfSync', 'Missing', 'Error'] as const;
export const DiffStatusSchema = z.enum(DIFF_STATUSES);
export type DiffStatus = z.infer<typeof DiffStatusSchema>;

/**
 * An ignore rule in Argo CD's `ignoreDifferences` shape: which objects (group and kind, optionally
 * one name and namespace) and which of their fields (JSON pointers, jq path expressions, or every
 * field a field manager owns).
 */
export const IgnoreRuleSchema = z
  .object({
    group: z.string().max(253),
    kind: z.string().min(1).max(100),
    name: z.string().max(253).optional(),
    namespace: z.string().max(63).optional(),
    jsonPointers: z.array(z.string().min(1).max(500)).max(50).optional(),
    jqPathExpressions: z.array(z.string().min(1).max(500)).max(50).optional(),
    managedFieldsManagers: z.array(z.string().min(1).max(128)).max(20).optional(),
  })
  .strict();
export type IgnoreRule = z.infer<typeof IgnoreRuleSchema>;

/** What the engine found at a manifest path. */
export const PathInfoSchema = z.object({
  path: z.string(),
  /** Usable: exists, readable and holds at least one manifest file or kustomization. */
  ok: z.boolean(),
  type: z.enum(['folder', 'file', 'missing']),
  files: z.number().int().nonnegative(),
  kustomizations: z.number().int().nonnegative(),
  helmCharts: z.number().int().nonnegative(),
  /** One sentence: what was found, or why the path cannot be used. */
  message: z.string(),
});
export type PathInfo = z.infer<typeof PathInfoSchema>;

/** What a native picker chooses: a folder of manifests or one manifest file. */
export const DiffPathKindSchema = z.enum(['folder', 'file']);
export type DiffPathKind = z.infer<typeof DiffPathKindSchema>;

/** The selected context's manifest paths and ignore rules (persisted per context). */
export const DiffConfigSchema = z.object({
  context: z.string().nullable(),
  paths: z.array(PathInfoSchema),
  ignores: z.array(IgnoreRuleSchema),
  /** Whether `kubectl` is on PATH (kustomizations, "run kubectl diff"). */
  kubectl: z.boolean(),
  /** Whether the engine can open a native folder/file picker (the desktop app; the browser shell takes typed paths only). */
  picker: z.boolean(),
  /**
   * On the demo context only: the demo cluster's own manifests shipped with the app, with a few
   * deliberate differences from what it runs, so one click shows what Diff does.
   */
  demoManifests: z.string().optional(),
});
export type DiffConfig = z.infer<typeof DiffConfigSchema>;

export const DiffCountsSchema = z.object({
  InSync: z.number().int().nonnegative(),
  OutOfSync: z.number().int().nonnegative(),
  Missing: z.number().int().nonnegative(),
  Error: z.number().int().nonnegative(),
});
export type DiffCounts = z.infer<typeof DiffCountsSchema>;

/** Something about the input that is not an object's row (a Helm chart skipped, an empty file). */
export const DiffNoticeSchema = z.object({
  level: z.enum(['info', 'warning']),
  path: z.string(),
  message: z.string(),
});
export type DiffNotice = z.infer<typeof DiffNoticeSchema>;

export const DiffSummarySchema = z.object({
  runId: z.string(),
  context: z.string(),
  startedAt: z.number(),
  durationMs: z.number(),
  counts: DiffCountsSchema,
  total: z.number().int().nonnegative(),
  /** Objects compared client-side because the server refused the dry run (403). */
  approximate: z.number().int().nonnegative(),
  notices: z.array(DiffNoticeSchema).max(100),
});
export type DiffSummary = z.infer<typeof DiffSummarySchema>;

/** Where an object (or a bad document) came from. */
export const DiffSourceSchema = z.object({ file: z.string(), line: z.number().int().positive() });
export type DiffSource = z.infer<typeof DiffSourceSchema>;

/** One object of a run, as the result list shows it. */
export const DiffRowSchema = z.object({
  /** Stable within a run: `group/Kind/namespace/name`, or `error:file:line` for a bad document. */
  id: z.string(),
  status: DiffStatusSchema,
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  source: DiffSourceSchema,
  /** Why it is an Error, or a note on a Missing / approximate object. */
  reason: z.string().optional(),
  /** Differing fields (after ignore rules). */
  changed: z.number().int().nonnegative(),
  /** Differing fields hidden by ignore rules. */
  ignored: z.number().int().nonnegative(),
  approximate: z.boolean(),
  /** Up to five differing field paths, for the list. */
  fields: z.array(z.string()).max(5),
});
export type DiffRow = z.infer<typeof DiffRowSchema>;

export const DiffRowsPageSchema = z.object({
  runId: z.string(),
  offset: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  rows: z.array(DiffRowSchema),
});
export type DiffRowsPage = z.infer<typeof DiffRowsPageSchema>;

export const OWNER_KINDS = ['hpa', 'controller', 'kubectl', 'kubedrift', 'manager', 'defaulted', 'file'] as const;
export const OwnerKindSchema = z.enum(OWNER_KINDS);
export type OwnerKind = z.infer<typeof OwnerKindSchema>;

/** Who owns a differing field's live value, and that in words. */
export const FieldOwnerSchema = z.object({
  kind: OwnerKindSchema,
  /** The field manager from managedFields, when one owns the field. */
  manager: z.string().optional(),
  text: z.string(),
});
export type FieldOwner = z.infer<typeof FieldOwnerSchema>;

/** One differing field of an object. */
export const FieldDiffSchema = z.object({
  /** Readable path: `spec.template.spec.containers[name=web].image`. */
  path: z.string(),
  op: z.enum(['changed', 'added', 'removed']),
  /** The live and the predicted value as short YAML-ish text (Secret values masked). */
  live: z.string().optional(),
  predicted: z.string().optional(),
  owner: FieldOwnerSchema,
  /** The rule "ignore this field" would add (scoped to this object). */
  ignore: IgnoreRuleSchema,
});
export type FieldDiff = z.infer<typeof FieldDiffSchema>;

/** Runs of a line diff between the live and the predicted YAML: [op, line count]. */
export const EditRunSchema = z.tuple([z.enum(['=', '-', '+']), z.number().int().positive()]);
export type EditRun = z.infer<typeof EditRunSchema>;

/** One object's full diff. Texts are YAML with sorted keys, Secret values masked. */
export const ObjectDiffSchema = z.object({
  row: DiffRowSchema,
  /** null when the object is not in the cluster (or could not be read). */
  live: z.string().nullable(),
  /** null when the engine could not predict the object (an Error row). */
  predicted: z.string().nullable(),
  edits: z.array(EditRunSchema),
  /** kubectl-style unified diff (`diff -u -N .../LIVE-... .../MERGED-...`). */
  unified: z.string(),
  fields: z.array(FieldDiffSchema),
  /** The texts were too large to send: `live` and `predicted` are null, `unified` (cut at the limit) is all there is. */
  truncated: z.boolean(),
});
export type ObjectDiff = z.infer<typeof ObjectDiffSchema>;

export const KubectlDiffResultSchema = z.object({
  /** The command line, as a user could type it (the temporary kubeconfig shown as such). */
  command: z.string(),
  /** 0 no differences, 1 differences, > 1 error; null when kubectl could not be started. */
  exitCode: z.number().int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  durationMs: z.number(),
  /** Output was cut at the size limit. */
  truncated: z.boolean(),
});
export type KubectlDiffResult = z.infer<typeof KubectlDiffResultSchema>;

/** The diff's state for the selected context: replayed to late subscribers. */
export const DiffStateSchema = z.object({
  context: z.string().nullable(),
  state: z.enum(['idle', 'running', 'done', 'error']),
  /** What started the run. */
  trigger: z.enum(['manual', 'files', 'ignore']).optional(),
  phase: z.enum(['loading', 'discovery', 'comparing']).optional(),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  summary: DiffSummarySchema.optional(),
  message: z.string().optional(),
});
export type DiffState = z.infer<typeof DiffStateSchema>;

const Empty = z.object({}).strict();
const PathString = z.string().min(1).max(4096);
const RunRef = { runId: z.string().min(1).max(64) };

export const diffRequests = {
  /** The selected context's manifest paths (each re-inspected) and ignore rules. */
  'diff:config': { request: Empty, response: DiffConfigSchema },
  /** Checks one path without saving it: exists, readable, what it holds. */
  'diff:inspect': { request: z.object({ path: PathString }).strict(), response: PathInfoSchema },
  /**
   * Opens the desktop app's native folder or file picker; `path` is null when the user cancelled.
   * Refused (`unavailable`) where there is no native picker (the browser shell): `diff:config`'s
   * `picker` says which, so the screen offers the button only where it works.
   */
  'diff:choose-path': { request: z.object({ kind: DiffPathKindSchema }).strict(), response: z.object({ path: z.string().nullable() }) },
  /** Replaces the context's manifest paths; refuses a path that does not exist or cannot be read. */
  'diff:paths': { request: z.object({ paths: z.array(PathString).max(20) }).strict(), response: DiffConfigSchema },
  /** Diffs every manifest under the paths against the cluster; progress on `diff:changed`. */
  'diff:run': { request: Empty, response: DiffSummarySchema },
  'diff:rows': {
    request: z.object({ ...RunRef, offset: z.number().int().nonnegative(), limit: z.number().int().positive().max(1000) }).strict(),
    response: DiffRowsPageSchema,
  },
  'diff:object': { request: z.object({ ...RunRef, id: z.string().min(1).max(1200) }).strict(), response: ObjectDiffSchema },
  /** Adds an ignore rule (merged into an existing rule for the same objects) and re-evaluates the last run. */
  'diff:ignore': { request: z.object({ rule: IgnoreRuleSchema }).strict(), response: DiffConfigSchema },
  'diff:unignore': { request: z.object({ index: z.number().int().nonnegative() }).strict(), response: DiffConfigSchema },
  /** The ignore rules as Argo CD `spec.ignoreDifferences` YAML. */
  'diff:export': { request: Empty, response: z.object({ yaml: z.string() }) },
  /** Runs `kubectl diff` on the same paths with the same context. */
  'diff:kubectl': { request: Empty, response: KubectlDiffResultSchema },
} as const;

export const diffStreams = {
  'diff:changed': DiffStateSchema,
} as const;
