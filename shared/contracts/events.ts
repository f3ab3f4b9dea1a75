/**
 * The events part of the IPC contract (merged into shared/contract.ts): Kubernetes Events of both
 * APIs merged per reporting controller, the reconciles inferred from generation bumps, and "who
 * acted" on a workload during a window. Answers are pages and summaries, never the whole set, so
 * every message stays small. Times are ms since the epoch.
 */
import { z } from 'zod';

export const EventTypeSchema = z.enum(['Normal', 'Warning']);
export type EventType = z.infer<typeof EventTypeSchema>;

/** The object an Event is about (`involvedObject` / `regarding`). */
export const EventObjectSchema = z.object({
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  uid: z.string().optional(),
  /** `spec.containers{web}` for container events. */
  fieldPath: z.string().optional(),
});
export type EventObject = z.infer<typeof EventObjectSchema>;

/** One occurrence (or series of repeats) of an Event, however many APIs showed it. */
export const EventRowSchema = z.object({
  /** The uid of the Event object (the first one, when two were merged). */
  id: z.string(),
  type: EventTypeSchema,
  reason: z.string(),
  message: z.string(),
  /** Who reported it: reportingController / reportingComponent / source.component. */
  controller: z.string(),
  /** reportingInstance or source.host (the node, for kubelet events). */
  instance: z.string().optional(),
  object: EventObjectSchema,
  first: z.number(),
  last: z.number(),
  /** Occurrences: series.count / count (1 for a single occurrence). */
  count: z.number().int().positive(),
  /** The API server no longer has it (Events expire after an hour); Kubedrift kept it. */
  expired: z.boolean(),
});
export type EventRow = z.infer<typeof EventRowSchema>;

/** Reconcile lag statistics over a set of completed reconciles (ms; null when there are none). */
export const LagStatsSchema = z.object({
  samples: z.number().int().nonnegative(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  max: z.number().nullable(),
});
export type LagStats = z.infer<typeof LagStatsSchema>;

export const ReasonCountSchema = z.object({ reason: z.string(), type: EventTypeSchema, count: z.number() });
export type ReasonCount = z.infer<typeof ReasonCountSchema>;

/** One reporting controller over the asked range. */
export const ControllerSummarySchema = z.object({
  name: z.string(),
  /** Distinct Events (after merging) that occurred in the range. */
  events: z.number().int().nonnegative(),
  /** Occurrences in the range, repeats included (a count spread over first..last). */
  occurrences: z.number(),
  warnings: z.number(),
  /** warnings / occurrences (0 when there are none). */
  warningRatio: z.number(),
  /** Occurrences per bucket (oldest first): the sparkline. */
  rate: z.array(z.number()),
  warningRate: z.array(z.number()),
  /** Most frequent reasons first, at most 8. */
  reasons: z.array(ReasonCountSchema),
  /** Its inferred reconciles that completed in the range. */
  lag: LagStatsSchema,
  /** Its reconciles not caught up after the stuck threshold, now. */
  stuck: z.number().int().nonnegative(),
  /** Its reconciles in progress (not yet stuck), now. */
  pending: z.number().int().nonnegative(),
  lastEventAt: z.number().nullable(),
});
export type ControllerSummary = z.infer<typeof ControllerSummarySchema>;

const Range = {
  /** Default: an hour before `to`. */
  from: z.number().optional(),
  /** Default: now. */
  to: z.number().optional(),
};

export const ControllersResultSchema = z.object({
  from: z.number(),
  to: z.number(),
  bucketMs: z.number(),
  controllers: z.array(ControllerSummarySchema),
  /** Merged Events held (all times); oldest kept event time. */
  totalEvents: z.number().int().nonnegative(),
  since: z.number().nullable(),
  /** A reconcile counts as stuck after this long without observedGeneration catching up. */
  stuckAfterMs: z.number(),
});
export type ControllersResult = z.infer<typeof ControllersResultSchema>;

export const EventListQuerySchema = z
  .object({
    ...Range,
    controller: z.string().max(253).optional(),
    reason: z.string().max(253).optional(),
    type: EventTypeSchema.optional(),
    namespace: z.string().max(253).optional(),
    /** Matches `Kind/name`, the name or the uid, case-insensitively (a substring). */
    object: z.string().max(300).optional(),
    offset: z.number().int().nonnegative(),
    /** Rows per page; messages can be long, so pages stay small. */
    limit: z.number().int().positive().max(200),
  })
  .strict();
export type EventListQuery = z.infer<typeof EventListQuerySchema>;

const Facet = z.array(z.object({ value: z.string(), count: z.number().int() }));

export const EventListSchema = z.object({
  /** Matches of the whole query, newest first; `events` is the page. */
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  events: z.array(EventRowSchema),
  /** What the filters can pick from, within the controller and range (before the other filters). */
  facets: z.object({ reasons: Facet, namespaces: Facet, types: Facet }),
});
export type EventList = z.infer<typeof EventListSchema>;

export const EventsWorkloadSchema = z.object({ kind: z.string(), namespace: z.string().optional(), name: z.string(), uid: z.string() });
export type EventsWorkload = z.infer<typeof EventsWorkloadSchema>;

/** One inferred reconcile: metadata.generation was bumped, status.observedGeneration followed (or not yet). */
export const ReconcileSchema = z.object({
  workload: EventsWorkloadSchema,
  controller: z.string(),
  generation: z.number().int(),
  /** When Kubedrift saw the bump. */
  start: z.number(),
  /** false: the bump happened before Kubedrift was watching (start is when it first saw it). */
  startKnown: z.boolean(),
  /** When observedGeneration caught up; null while it has not. */
  end: z.number().nullable(),
  /** end - start, or now - start while ongoing. */
  lagMs: z.number(),
  stuck: z.boolean(),
});
export type Reconcile = z.infer<typeof ReconcileSchema>;

export const ReconcileQuerySchema = z
  .object({
    ...Range,
    controller: z.string().max(253).optional(),
    uid: z.string().max(128).optional(),
    /** Default 500. */
    limit: z.number().int().positive().max(1_000).optional(),
  })
  .strict();

export const ReconcileListSchema = z.object({
  /** Ongoing first (stuck first among them), then newest first. */
  reconciles: z.array(ReconcileSchema),
  total: z.number().int().nonnegative(),
  lag: LagStatsSchema,
});
export type ReconcileList = z.infer<typeof ReconcileListSchema>;

/** One controller action on the workload or a descendant (an Event), in a causal timeline. */
export const ActionSchema = z.object({
  at: z.number(),
  id: z.string(),
  controller: z.string(),
  type: EventTypeSchema,
  reason: z.string(),
  message: z.string(),
  object: EventObjectSchema,
  /** 0 the workload, 1 its children (ReplicaSets, Pods of a StatefulSet), 2 grandchildren; HPAs acting on it are 0. */
  depth: z.number().int().nonnegative(),
  count: z.number().int().positive(),
});
export type Action = z.infer<typeof ActionSchema>;

export const ActionsQuerySchema = z
  .object({
    uid: z.string().min(1).max(128),
    from: z.number(),
    to: z.number(),
    /** Default 400. */
    limit: z.number().int().positive().max(500).optional(),
  })
  .strict();

export const ActionsResultSchema = z.object({
  workload: EventsWorkloadSchema.nullable(),
  from: z.number(),
  to: z.number(),
  /** Oldest first. */
  actions: z.array(ActionSchema),
  truncated: z.boolean(),
  /** The workload's reconciles that started in the window: the observe step before the actions. */
  reconciles: z.array(ReconcileSchema),
});
export type ActionsResult = z.infer<typeof ActionsResultSchema>;

export const eventsRequests = {
  /** Every reporting controller over a range: counts, sparkline, reasons, Warning ratio, reconcile lag, stuck. */
  'events:controllers': {
    request: z.object({ ...Range, buckets: z.number().int().min(4).max(120).optional() }).strict(),
    response: ControllersResultSchema,
  },
  /** A page of merged Events, filtered, newest first, with the values the filters offer. */
  'events:list': { request: EventListQuerySchema, response: EventListSchema },
  /** Inferred reconciles of one controller or one workload. */
  'events:reconciles': { request: ReconcileQuerySchema, response: ReconcileListSchema },
  /** Who acted on a workload and its descendants during a window, oldest first. */
  'events:actions': { request: ActionsQuerySchema, response: ActionsResultSchema },
} as const;

export const EventsChangedSchema = z.object({
  /** Bumped whenever Events or reconciles changed (at most about once a second). */
  revision: z.number().int(),
  context: z.string().nullable(),
});
export type EventsChanged = z.infer<typeof EventsChangedSchema>;

export const eventsStreams = {
  /** Something the events screens show changed: ask again. Throttled. */
  'events:changed': EventsChangedSchema,
} as const;
