/**
 * The history part of the IPC contract (merged into shared/contract.ts): per-workload samples of
 * desired vs actual over time, drift episodes, the cluster's drift count, the state at a past
 * time and what changed between two times. Times are ms since the epoch.
 */
import { z } from 'zod';
import { BUILTIN_KEYS } from '../builtin-kinds.ts';
import { KindKeySchema, SlimObjectSchema } from '../cluster.ts';
import { HistorySourceUseSchema } from './history-sources.ts';
import { ObjectStateSchema } from './status-rules.ts';

/**
 * The built-in kinds whose desired/actual is recorded with their own counts and rules, by kind
 * key (shared/kinds.ts). Custom resources that carry status are recorded too (by the generic
 * status rule, shared/object-status.ts): a WorkloadRef's kind is any kind key.
 */
export const HISTORY_KINDS = [
  BUILTIN_KEYS.Deployment,
  BUILTIN_KEYS.StatefulSet,
  BUILTIN_KEYS.DaemonSet,
  BUILTIN_KEYS.ReplicaSet,
  BUILTIN_KEYS.Job,
  BUILTIN_KEYS.HorizontalPodAutoscaler,
] as const;
export const HistoryKindSchema = z.enum(HISTORY_KINDS);
export type HistoryKind = z.infer<typeof HistoryKindSchema>;

export const WorkloadRefSchema = z.object({
  /** The kind key: one of HISTORY_KINDS, or a custom resource's (`databases.db.kubedrift.dev`). */
  kind: KindKeySchema,
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  /** The Kubernetes kind (`Database`) of a kind that is not built in: a key alone does not say it. */
  kindName: z.string().optional(),
});
export type WorkloadRef = z.infer<typeof WorkloadRefSchema>;

const Count = z.number().int().nullable();
const ConditionStatus = z.enum(['True', 'False', 'Unknown']).nullable();

/** One recorded state of a workload (null: the field is not set / does not apply to the kind). */
export const SampleSchema = z.object({
  at: z.number(),
  desired: Count,
  current: Count,
  ready: Count,
  available: Count,
  updated: Count,
  unavailable: Count,
  generation: Count,
  observedGeneration: Count,
  availableCondition: ConditionStatus,
  progressingCondition: ConditionStatus,
  progressingReason: z.string().nullable(),
  /**
   * A custom resource's state by the generic status rule (its reason is in `progressingReason`);
   * absent for built-in kinds, whose counts and conditions say it.
   */
  state: ObjectStateSchema.nullable().optional(),
});
export type Sample = z.infer<typeof SampleSchema>;

/** The numeric series a chart can ask for. */
export const SERIES_NAMES = ['desired', 'current', 'ready', 'available', 'updated', 'unavailable', 'generation', 'observedGeneration'] as const;
export const SeriesNameSchema = z.enum(SERIES_NAMES);
export type SeriesName = z.infer<typeof SeriesNameSchema>;

/** A point of a series: [time, value]; value null where the field was unset (a gap). */
export const PointSchema = z.tuple([z.number(), z.number().nullable()]);
export type Point = z.infer<typeof PointSchema>;

/**
 * Why a workload drifted (labels and tones: shared/drift-reasons.ts):
 * - `ready`: ready (HPA: current) differs from desired;
 * - `generation`: the controller has not observed the latest spec yet;
 * - `progressing`: the new spec is still rolling out (updated != desired; a Job retrying after
 *   failed pods) and the controller is still working on it;
 * - `stalled`: the controller gave up: Progressing=False (ProgressDeadlineExceeded), a Job that
 *   failed (BackoffLimitExceeded), an HPA that cannot compute a scale (ScalingActive=False).
 */
export const DriftReasonSchema = z.enum(['ready', 'generation', 'progressing', 'stalled']);
export type DriftReason = z.infer<typeof DriftReasonSchema>;

/** A recorded Event, kept beyond the API server's TTL. */
export const HistoryEventSchema = z.object({
  uid: z.string(),
  at: z.number(),
  type: z.string(),
  reason: z.string(),
  message: z.string(),
  count: z.number().int(),
  source: z.string(),
  object: z.object({ kind: z.string(), namespace: z.string().optional(), name: z.string() }),
});
export type HistoryEvent = z.infer<typeof HistoryEventSchema>;

/** Distinct headline causes an episode keeps (the first ones seen; later ones are dropped). */
export const MAX_EPISODE_CAUSES = 4;

/**
 * A cause that explained an episode, as the cause finder stated it while the episode was open
 * (shared/contracts/causes.ts), kept in history so it reads the same after the pods and Events
 * are gone. `code` is the finder's code (a string here, so a file from a newer build still opens).
 */
export const EpisodeCauseSchema = z.object({
  /** When this cause was first seen during the episode (ms since the epoch). */
  at: z.number(),
  code: z.string(),
  /** The finder's one sentence: "1 pod can't pull registry.example.com/shop/catalog:broken: not found". */
  sentence: z.string(),
  /** The first object that showed it. */
  evidence: z.object({ kind: z.string(), name: z.string() }).optional(),
  /**
   * Found under the cause before it, which is a controller's verdict (the pods' cause under an
   * exceeded progress deadline or a failed Job, an HPA target's cause), noted with it.
   */
  under: z.boolean().optional(),
});
export type EpisodeCause = z.infer<typeof EpisodeCauseSchema>;

/** A stretch of time during which a workload's actual state did not match what was desired. */
export const EpisodeSchema = z.object({
  id: z.number().int(),
  workload: WorkloadRefSchema,
  start: z.number(),
  /** null while ongoing. */
  end: z.number().nullable(),
  durationMs: z.number(),
  /** Largest |desired - ready| seen during the episode. */
  peakGap: z.number().int(),
  reasons: z.array(DriftReasonSchema),
  /** The spec change that started it, if one did. */
  trigger: z.object({ generation: z.number().int(), image: z.string().optional() }).nullable(),
  /** Events of the workload and its children during the episode, Warnings first (details only). */
  events: z.array(HistoryEventSchema).optional(),
  /**
   * For a ReplicaSet run by a Deployment (recorded ownership): that Deployment. Its drift is the
   * Deployment's, so unless ReplicaSets are asked for, the drift count leaves it out and the
   * timeline folds it away — one rule for the headline and the lanes.
   */
  controller: WorkloadRefSchema.optional(),
  /**
   * A custom resource's episode: the worst state the status rule gave it during the episode
   * (failed over drifting over in progress / spec not observed) with the cluster's reason and
   * message for it, as `kubectl describe` shows them.
   */
  status: z.object({ state: ObjectStateSchema, reason: z.string(), message: z.string().optional() }).optional(),
  /**
   * What caused it: the distinct headline causes seen while it was open, in the order first seen
   * (at most MAX_EPISODE_CAUSES; absent when none was found, or recorded before causes were kept).
   */
  causes: z.array(EpisodeCauseSchema).max(MAX_EPISODE_CAUSES).optional(),
  /** The history source (a headless recorder) that recorded it; absent: this app did. */
  recordedBy: z.string().optional(),
});
export type Episode = z.infer<typeof EpisodeSchema>;

/** A rollout: from a generation bump until the controller caught up and the rollout completed. */
export const RolloutSchema = z.object({
  generation: z.number().int(),
  start: z.number(),
  end: z.number().nullable(),
  image: z.string().optional(),
});
export type Rollout = z.infer<typeof RolloutSchema>;

export const HistoryStateSchema = z.enum(['off', 'recording', 'paused', 'error']);
export const HistoryStatusSchema = z.object({
  context: z.string().nullable(),
  state: HistoryStateSchema,
  /** Why recording is paused or failed (disk full, database unreadable...). */
  message: z.string().optional(),
  /** The oldest recorded moment still kept (retention), or null when nothing is recorded. */
  since: z.number().nullable(),
  bytes: z.number().int(),
  samples: z.number().int(),
  episodes: z.number().int(),
});
export type HistoryStatus = z.infer<typeof HistoryStatusSchema>;

/**
 * Why nobody observed a stretch of time (history/coverage.ts): before the first recording
 * (`not-yet`), the app closed, another context selected, recording switched off in Settings,
 * the connection to the cluster lost (every kind reconnecting), or the app stopped without
 * saying (`stopped`: a crash, a kill, a power loss; the last moment it was alive is kept). One
 * workload's gap can also be `access-withdrawn`: recording went on, but the user's permissions no
 * longer let it read the workload's namespace (it left the view; it was not deleted).
 */
export const CoverageGapReasonSchema = z.enum(['not-yet', 'app-closed', 'context-switched', 'recording-off', 'connection-lost', 'stopped', 'access-withdrawn']);
export type CoverageGapReason = z.infer<typeof CoverageGapReasonSchema>;

/** A stretch of the asked range that no session of this context observed: nothing there is known. */
export const CoverageGapSchema = z.object({
  start: z.number(),
  end: z.number(),
  reason: CoverageGapReasonSchema,
  /**
   * A workload's `access-withdrawn` gap only: it was not there when its namespace could be read
   * again, so it was deleted at some unknown moment within the gap (never a time of its own).
   */
  deletedWithin: z.boolean().optional(),
});
export type CoverageGap = z.infer<typeof CoverageGapSchema>;

/**
 * What the cluster still held when the app connected, turned into a history row (backfill.ts):
 * a rollout (a ReplicaSet's revision, a ControllerRevision), a condition's last transition, a
 * container's termination, a Job's run, an object's creation, an Event still within its TTL
 * (from its first to its last time when it repeated). Not observed: inferred. `at` is
 * null when the cluster does not say when (never guessed).
 */
export const InferredFactKindSchema = z.enum(['created', 'rollout', 'condition', 'terminated', 'job-run', 'event']);
export type InferredFactKind = z.infer<typeof InferredFactKindSchema>;
export const InferredFactSchema = z.object({
  /** Deterministic (the object's uid, the fact and its time): reconnecting adds no duplicate. */
  id: z.string(),
  fact: InferredFactKindSchema,
  at: z.number().nullable(),
  /** When it ended (a Job's completion), if it did and the cluster says. */
  end: z.number().nullable(),
  object: z.object({ kind: z.string(), namespace: z.string(), name: z.string(), uid: z.string() }),
  /** The workload it belongs to (the object's topmost controller: a pod's Deployment). */
  workloadUid: z.string(),
  /** One line: "revision 3", "Available → False (MinimumReplicasUnavailable)", ... */
  detail: z.string(),
  /** The history source that inferred it; absent: this app did. */
  recordedBy: z.string().optional(),
});
export type InferredFact = z.infer<typeof InferredFactSchema>;

const Range = { from: z.number(), to: z.number() };

export const SeriesResultSchema = z.object({
  workload: WorkloadRefSchema,
  from: z.number(),
  to: z.number(),
  /** Each series downsampled (LTTB) to at most maxPoints. */
  series: z.array(z.object({ name: SeriesNameSchema, points: z.array(PointSchema) })),
  rawSamples: z.number().int(),
  rollouts: z.array(RolloutSchema),
  warnings: z.array(HistoryEventSchema),
  episodes: z.array(EpisodeSchema),
  since: z.number().nullable(),
  /** The stretches of the range nobody observed (absent: not asked of an older engine). */
  gaps: z.array(CoverageGapSchema).optional(),
  /** Inferred facts about the workload and what it owns, in the range or of unknown time. */
  inferred: z.array(InferredFactSchema).optional(),
  /**
   * Present only when `inferred` was cut (at most 1,000 rows: the rollouts, then the newest of
   * the others, then those of unknown time): how many the range holds. Absent: all of them.
   */
  inferredTotal: z.number().int().nonnegative().optional(),
  /** The history sources asked for this workload, and how each took part (absent: none asked). */
  sources: z.array(HistorySourceUseSchema).optional(),
});
export type SeriesResult = z.infer<typeof SeriesResultSchema>;

export const EpisodeQuerySchema = z
  .object({
    ...Range,
    namespace: z.string().optional(),
    kind: KindKeySchema.optional(),
    ongoingOnly: z.boolean().optional(),
    minDurationMs: z.number().nonnegative().optional(),
    limit: z.number().int().positive().max(20_000).optional(),
  })
  .strict();
export type EpisodeQuery = z.infer<typeof EpisodeQuerySchema>;

export const EpisodeListSchema = z.object({
  from: z.number(),
  to: z.number(),
  episodes: z.array(EpisodeSchema),
  truncated: z.boolean(),
  /**
   * The number of drifting workloads over the range (step series, downsampled). Without a kind
   * filter, ReplicaSets run by a Deployment are not counted apart from it (see `controller`).
   */
  driftCount: z.array(PointSchema),
  since: z.number().nullable(),
  /** The stretches of the range nobody observed: the drift count there is unknown, not zero. */
  gaps: z.array(CoverageGapSchema).optional(),
  /** Stretches single workloads were out of view (`access-withdrawn`), outside `gaps`: hatched on their lanes only. */
  workloadGaps: z.array(CoverageGapSchema.extend({ uid: z.string() })).optional(),
  /** Inferred rollouts in the range (one per workload revision), drawn apart from observed rows. */
  inferred: z.array(InferredFactSchema).optional(),
  /**
   * Present only when `inferred` was cut (it carries at most 1,000 rows: the rollouts, then the
   * newest Events): how many inferred rows the range holds. Absent: `inferred` is all of them.
   */
  inferredTotal: z.number().int().nonnegative().optional(),
  /** The history sources that record this context, and how each took part (absent: none). */
  sources: z.array(HistorySourceUseSchema).optional(),
});
export type EpisodeList = z.infer<typeof EpisodeListSchema>;

export const WorkloadChangeSchema = z.object({
  workload: WorkloadRefSchema,
  before: SampleSchema.nullable(),
  after: SampleSchema.nullable(),
  /** Which fields differ (`desired`, `ready`, ..., `created`, `deleted`). */
  changed: z.array(z.string()),
});
export type WorkloadChange = z.infer<typeof WorkloadChangeSchema>;

export const historyRequests = {
  'history:status': { request: z.object({}).strict(), response: HistoryStatusSchema },
  /** One workload's series over a range, downsampled, with its rollouts, Warning markers and episodes. */
  'history:series': {
    request: z.object({ uid: z.string().min(1), ...Range, maxPoints: z.number().int().min(10).max(5_000).optional() }).strict(),
    response: SeriesResultSchema,
  },
  /** Drift episodes over a range (the swimlane), filtered, with the cluster's drift count. */
  'history:episodes': { request: EpisodeQuerySchema, response: EpisodeListSchema },
  /** One episode with its Events. */
  'history:episode': { request: z.object({ id: z.number().int() }).strict(), response: EpisodeSchema },
  /** The cluster's objects at a past time, a page at a time (messages stay small). */
  'history:state-at': {
    request: z.object({ at: z.number(), offset: z.number().int().nonnegative(), limit: z.number().int().positive().max(2_000) }).strict(),
    response: z.object({
      at: z.number(),
      total: z.number().int(),
      objects: z.array(SlimObjectSchema),
      nextOffset: z.number().int().nullable(),
      /** The history source (a headless recorder) that observed `at` and rebuilt it; absent: this app did. */
      recordedBy: z.string().optional(),
      /** The history sources asked, and how each took part (absent: none asked). */
      sources: z.array(HistorySourceUseSchema).optional(),
    }),
  },
  /** Which workloads changed desired/actual between two times, and how. */
  'history:compare': {
    request: z.object({ t1: z.number(), t2: z.number(), namespace: z.string().optional() }).strict(),
    response: z.object({
      t1: z.number(),
      t2: z.number(),
      changes: z.array(WorkloadChangeSchema),
      /** Which history source observed each moment (its `before` / `after` samples); absent: this app did. */
      recordedBy: z.object({ t1: z.string().optional(), t2: z.string().optional() }).optional(),
      /** The history sources asked, and how each took part (absent: none asked). */
      sources: z.array(HistorySourceUseSchema).optional(),
    }),
  },
} as const;

export const historyStreams = {
  /** Recording state of the selected context (paused on a full disk, history since...). */
  'history:status': HistoryStatusSchema,
} as const;
