/**
 * The snapshot part of the IPC contract (merged into shared/contract.ts) and the snapshot file
 * format itself. A snapshot (`.kubedrift.json.gz`) is what the cluster looked like at a time T:
 * slim objects, Events, the recorded samples and drift episodes of a window before T and the
 * ownership graph, with the context's name and server but never a credential. The zod schema
 * below is the format's source of truth; resources/snapshot.schema.json is generated from it
 * (a test fails when the two drift apart). Times are ms since the epoch.
 */
import { z } from 'zod';
import { SlimObjectSchema } from '../cluster.ts';
import { DiffRowSchema, DiffSummarySchema } from './diff.ts';
import { GraphEdgeSchema, GraphNodeSchema } from './graph.ts';
import { SnapshotKindSchema } from './snapshot-kinds.ts';
import { EpisodeSchema, HistoryEventSchema, PointSchema, RolloutSchema, SeriesNameSchema, WorkloadRefSchema } from './history.ts';

/** `kind` of every snapshot file: tells a snapshot from any other gzipped JSON. */
export const SNAPSHOT_KIND = 'KubedriftSnapshot';
/**
 * The format version this build writes and the newest it reads. Bump on any breaking change.
 * 2: kinds of recorded workloads are kind keys (`deployments.apps`); version 1 files, which named
 * them `Deployment`, are upgraded on opening (electron/engine/snapshot/legacy.ts).
 * 3: a kind table (snapshot-kinds.ts) names the kind key of every apiVersion and kind the file
 * holds, so custom resources open without the cluster; older files get one of built-in kinds.
 */
export const SNAPSHOT_SCHEMA_VERSION = 3;
export const SNAPSHOT_EXTENSION = '.kubedrift.json.gz';

/** What an export covers: the whole cluster, one namespace, or chosen objects (by uid). */
export const SnapshotScopeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('cluster') }).strict(),
  z.object({ type: z.literal('namespace'), namespace: z.string().min(1).max(253) }).strict(),
  z.object({ type: z.literal('selection'), uids: z.array(z.string().min(1).max(128)).min(1).max(10_000) }).strict(),
]);
export type SnapshotScope = z.infer<typeof SnapshotScopeSchema>;

export const TimeWindowSchema = z.object({ from: z.number(), to: z.number() }).strict();
export type TimeWindow = z.infer<typeof TimeWindowSchema>;

/**
 * One workload's recorded history over the window, as the timeline draws it (`history:series`):
 * each series downsampled, with its rollouts and Warning markers.
 */
export const SnapshotWorkloadHistorySchema = z.object({
  workload: WorkloadRefSchema,
  series: z.array(z.object({ name: SeriesNameSchema, points: z.array(PointSchema) })),
  rawSamples: z.number().int(),
  rollouts: z.array(RolloutSchema),
  warnings: z.array(HistoryEventSchema),
});
export type SnapshotWorkloadHistory = z.infer<typeof SnapshotWorkloadHistorySchema>;

/** The recorded history of the window before T: per-workload series, episodes, drift count. */
export const SnapshotHistorySchema = z.object({
  window: TimeWindowSchema,
  /** The oldest moment the recorder still kept when the snapshot was taken. */
  since: z.number().nullable(),
  workloads: z.array(SnapshotWorkloadHistorySchema),
  /** Drift episodes overlapping the window, each with its Events. */
  episodes: z.array(EpisodeSchema),
  /** The number of drifting workloads over the window, as steps. */
  driftCount: z.array(PointSchema),
});
export type SnapshotHistory = z.infer<typeof SnapshotHistorySchema>;

/** The ownership graph at T, as the graph view got it (`graph:get`). */
export const SnapshotGraphSchema = z.object({
  nodes: z.array(GraphNodeSchema),
  edges: z.array(GraphEdgeSchema),
  truncated: z.boolean(),
  message: z.string().optional(),
});
export type SnapshotGraph = z.infer<typeof SnapshotGraphSchema>;

/** The last diff of the context against its manifests, when one had run: summary and rows. */
export const SnapshotDiffSchema = z.object({
  summary: DiffSummarySchema,
  rows: z.array(DiffRowSchema),
  /** More rows than a snapshot keeps (MAX_SNAPSHOT_DIFF_ROWS, differing ones first). */
  truncated: z.boolean(),
});
export type SnapshotDiff = z.infer<typeof SnapshotDiffSchema>;
export const MAX_SNAPSHOT_DIFF_ROWS = 5_000;

/** The snapshot file's content (gzipped JSON). */
/** A restricted view: the namespaces visible and the kinds hidden by the user's permissions, and the status bar's line for them. */
export const SnapshotViewSchema = z.object({
  namespaces: z.array(z.string()),
  /** Plural kind names: `Nodes`. */
  hiddenKinds: z.array(z.string()),
  /** `Namespaces shop, payments · Nodes hidden by your permissions`. */
  text: z.string(),
});
export type SnapshotView = z.infer<typeof SnapshotViewSchema>;

export const SnapshotFileSchema = z
  .object({
    schemaVersion: z.literal(SNAPSHOT_SCHEMA_VERSION),
    kind: z.literal(SNAPSHOT_KIND),
    /** When the file was written. */
    createdAt: z.number(),
    /** The moment the objects show (T). */
    takenAt: z.number(),
    /** T was "now" (the live cache), not a past time rebuilt from history. */
    live: z.boolean(),
    generator: z.object({ name: z.literal('Kubedrift'), version: z.string() }),
    /**
     * Where it came from: the context's name and API server, never a user or a credential; `view`
     * when the user's permissions restricted what Kubedrift could see (the access checks' line).
     */
    context: z.object({ name: z.string(), server: z.string().optional(), demo: z.boolean(), view: SnapshotViewSchema.optional() }),
    scope: SnapshotScopeSchema,
    /** Slim objects at T, Events excepted, Secrets' data and credential annotations removed. */
    objects: z.array(SlimObjectSchema),
    /** The Event objects the cluster still held at T. */
    events: z.array(SlimObjectSchema),
    /** The kind key, plural and scope of each apiVersion and kind above (snapshot-kinds.ts). */
    kinds: z.array(SnapshotKindSchema),
    /** null when no history was recorded for the context (or the export asked for none). */
    history: SnapshotHistorySchema.nullable(),
    /** null when no graph builder was available. */
    graph: SnapshotGraphSchema.nullable(),
    /** The diff results of the context at export time; null when no diff had run. */
    diff: SnapshotDiffSchema.nullable(),
  })
  .strict();
export type SnapshotFile = z.infer<typeof SnapshotFileSchema>;

export const EXPORT_FORMATS = ['snapshot', 'yaml', 'html'] as const;
export const ExportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

export const ExportRequestSchema = z
  .object({
    format: ExportFormatSchema,
    scope: SnapshotScopeSchema,
    /** The time to show; null = live (the objects as the engine has them now). */
    at: z.number().nullable(),
    /** The history window to include; default: the hour before T. */
    window: TimeWindowSchema.nullable().optional(),
    /** YAML only: keep status and server-set fields (default: manifests kubectl can apply). */
    keepStatus: z.boolean().optional(),
    /**
     * `dialog`: the desktop app asks where to save and writes the file; `download`: the engine
     * keeps the bytes for `snapshot:download` (browser shell, command line).
     */
    destination: z.enum(['dialog', 'download']),
  })
  .strict();
export type ExportRequest = z.infer<typeof ExportRequestSchema>;

export const ExportResultSchema = z.object({
  id: z.string(),
  format: ExportFormatSchema,
  fileName: z.string(),
  mimeType: z.string(),
  bytes: z.number().int(),
  /** Objects in the export (Events excepted). */
  objects: z.number().int(),
  takenAt: z.number(),
  /** Where the desktop app wrote it; absent for downloads. */
  path: z.string().optional(),
  /** The user closed the save dialog: nothing was written. */
  canceled: z.boolean(),
  /** What the export could not include, in words (no history recorded, graph unavailable...). */
  notes: z.array(z.string()),
});
export type ExportResult = z.infer<typeof ExportResultSchema>;

/** Largest piece of an export per download message (raw bytes; base64 on the wire, under 64 KB). */
export const TRANSFER_CHUNK_BYTES = 45 * 1024;
/** Largest piece of an upload per message (the browser shell accepts messages up to 1 MB). */
export const UPLOAD_CHUNK_BYTES = 384 * 1024;

export const DownloadChunkSchema = z.object({
  id: z.string(),
  offset: z.number().int(),
  /** base64 of bytes [offset, offset + n). */
  data: z.string(),
  total: z.number().int(),
  /** null once this was the last piece (the engine then forgets the export). */
  nextOffset: z.number().int().nullable(),
  fileName: z.string(),
  mimeType: z.string(),
});
export type DownloadChunk = z.infer<typeof DownloadChunkSchema>;

/** The context list entry of an opened snapshot, and what the Snapshots screen lists. */
export const OpenedSnapshotSchema = z.object({
  id: z.string(),
  /** Its read-only context: "snapshot: <context> @ <time>". */
  contextName: z.string(),
  /** The file name it was opened from. */
  fileName: z.string(),
  takenAt: z.number(),
  createdAt: z.number(),
  openedAt: z.number(),
  live: z.boolean(),
  source: z.object({ name: z.string(), server: z.string().optional(), demo: z.boolean() }),
  scope: SnapshotScopeSchema,
  kubedriftVersion: z.string(),
  bytes: z.number().int(),
  counts: z.object({
    objects: z.number().int(),
    events: z.number().int(),
    workloads: z.number().int(),
    drifting: z.number().int(),
    episodes: z.number().int(),
    /** Recorded samples behind the snapshot's series. */
    samples: z.number().int(),
  }),
  byKind: z.record(z.string(), z.number().int()),
  window: TimeWindowSchema.nullable(),
});
export type OpenedSnapshot = z.infer<typeof OpenedSnapshotSchema>;

export const SnapshotListSchema = z.object({ snapshots: z.array(OpenedSnapshotSchema) });
export type SnapshotList = z.infer<typeof SnapshotListSchema>;

export const OpenRequestSchema = z.discriminatedUnion('source', [
  /** Desktop: the engine asks where the file is. */
  z.object({ source: z.literal('dialog') }).strict(),
  /** A file the engine can read (command line, a path typed in). */
  z.object({ source: z.literal('path'), path: z.string().min(1).max(4096) }).strict(),
  /** Bytes the browser sent with `snapshot:upload`. */
  z.object({ source: z.literal('upload'), uploadId: z.string().min(1).max(64), fileName: z.string().min(1).max(255).optional() }).strict(),
]);
export type OpenRequest = z.infer<typeof OpenRequestSchema>;

/** Workload numbers compared between two snapshots. */
export const WorkloadStateSchema = z.object({
  desired: z.number().int().nullable(),
  ready: z.number().int().nullable(),
  available: z.number().int().nullable(),
  upToDate: z.number().int().nullable(),
  status: z.string(),
  drifting: z.boolean(),
});
export type WorkloadState = z.infer<typeof WorkloadStateSchema>;

export const ObjectChangeSchema = z.object({
  change: z.enum(['added', 'removed', 'changed']),
  /** The object's own Kubernetes kind, as it carries it (shown beside its name). */
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  /** Changed field paths (`spec.replicas`, `status.readyReplicas`, `metadata.labels.app`...). */
  fields: z.array(z.string()),
});
export type ObjectChange = z.infer<typeof ObjectChangeSchema>;

export const SnapshotComparisonSchema = z.object({
  a: OpenedSnapshotSchema,
  b: OpenedSnapshotSchema,
  totals: z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int(), unchanged: z.number().int() }),
  /** Object changes, workloads first; at most MAX_COMPARE_CHANGES. */
  changes: z.array(ObjectChangeSchema),
  truncated: z.boolean(),
  workloads: z.array(
    z.object({
      /** The workload's Kubernetes kind, as it carries it. */
      kind: z.string(),
      namespace: z.string(),
      name: z.string(),
      before: WorkloadStateSchema.nullable(),
      after: WorkloadStateSchema.nullable(),
      changed: z.array(z.string()),
    }),
  ),
});
export type SnapshotComparison = z.infer<typeof SnapshotComparisonSchema>;
export const MAX_COMPARE_CHANGES = 2_000;

export const SnapshotProgressSchema = z.object({
  id: z.string(),
  format: ExportFormatSchema,
  phase: z.enum(['collecting', 'history', 'graph', 'rendering', 'writing', 'done', 'failed', 'canceled']),
  /** Steps done of `total` (fractional while a step advances); the bar's fraction. */
  done: z.number(),
  total: z.number().int(),
  message: z.string(),
});
export type SnapshotProgress = z.infer<typeof SnapshotProgressSchema>;

const Empty = z.object({}).strict();
const Id = z.string().min(1).max(64);

export const snapshotRequests = {
  /** Builds an export of the selected context (live or at a past time); progress on `snapshot:progress`. */
  'snapshot:export': { request: ExportRequestSchema, response: ExportResultSchema },
  /** One piece of a finished `download` export. */
  'snapshot:download': {
    request: z.object({ id: Id, offset: z.number().int().nonnegative() }).strict(),
    response: DownloadChunkSchema,
  },
  /** One piece of a snapshot file the browser is sending; `offset` 0 starts a new upload. */
  'snapshot:upload': {
    request: z
      .object({ uploadId: Id.optional(), offset: z.number().int().nonnegative(), data: z.string().min(1).max(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4) })
      .strict(),
    response: z.object({ uploadId: z.string(), received: z.number().int() }),
  },
  /** Opens a snapshot file as a read-only context; null when the user closed the dialog. */
  'snapshot:open': { request: OpenRequestSchema, response: z.object({ snapshot: OpenedSnapshotSchema.nullable() }) },
  'snapshot:list': { request: Empty, response: SnapshotListSchema },
  /** Forgets an opened snapshot and its context. */
  'snapshot:close': { request: z.object({ id: Id }).strict(), response: SnapshotListSchema },
  /** What changed from snapshot `a` to snapshot `b`. */
  'snapshot:compare': { request: z.object({ a: Id, b: Id }).strict(), response: SnapshotComparisonSchema },
} as const;

export const snapshotStreams = {
  /** Progress of the export in flight. */
  'snapshot:progress': SnapshotProgressSchema,
  /** The opened snapshots changed (opened, closed). */
  'snapshot:list': SnapshotListSchema,
} as const;
