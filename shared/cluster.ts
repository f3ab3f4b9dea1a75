/**
 * What the live cluster engine streams to the renderer: slim objects, per-kind health, and the
 * frames of the snapshot-then-deltas subscription protocol.
 */
import { z } from 'zod';

/** The kinds the engine watches; both Event APIs arrive as `Event` (one object per uid). */
export const WATCHED_KINDS = [
  'Namespace',
  'Node',
  'Pod',
  'Service',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'HorizontalPodAutoscaler',
  'Event',
] as const;
export const KindSchema = z.enum(WATCHED_KINDS);
export type Kind = z.infer<typeof KindSchema>;

/**
 * A Kubernetes object as it leaves the engine: its usual JSON shape minus managedFields, the
 * last-applied annotation, Secret data and fields no view uses.
 */
export const SlimObjectSchema = z
  .object({
    apiVersion: z.string(),
    kind: KindSchema,
    metadata: z
      .object({
        uid: z.string(),
        name: z.string(),
        namespace: z.string().optional(),
        resourceVersion: z.string(),
        creationTimestamp: z.string().optional(),
        generation: z.number().optional(),
        deletionTimestamp: z.string().optional(),
        labels: z.record(z.string(), z.string()).optional(),
        annotations: z.record(z.string(), z.string()).optional(),
        ownerReferences: z
          .array(z.object({ apiVersion: z.string(), kind: z.string(), name: z.string(), uid: z.string(), controller: z.boolean().optional() }).loose())
          .optional(),
      })
      .loose(),
  })
  .loose();
export type SlimObject = z.infer<typeof SlimObjectSchema>;

export const KindHealthStateSchema = z.enum(['syncing', 'live', 'reconnecting', 'forbidden', 'unavailable']);
export type KindHealthState = z.infer<typeof KindHealthStateSchema>;

export const KindHealthSchema = z.object({
  kind: KindSchema,
  state: KindHealthStateSchema,
  /** Objects listed so far (syncing) or cached (live). */
  count: z.number().int().nonnegative(),
  /** Since when the kind is in this state (ms since the epoch). */
  since: z.number(),
  /** The last error, for reconnecting / forbidden / unavailable. */
  message: z.string().optional(),
});
export type KindHealth = z.infer<typeof KindHealthSchema>;

export const ClusterHealthSchema = z.object({
  context: z.string().nullable(),
  /** Changes whenever the engine starts over (context switch): the renderer drops what it had. */
  epoch: z.string(),
  kinds: z.array(KindHealthSchema),
});
export type ClusterHealth = z.infer<typeof ClusterHealthSchema>;

export const ObjectRefSchema = z.object({ kind: KindSchema, uid: z.string() });
export type ObjectRef = z.infer<typeof ObjectRefSchema>;

/**
 * Frames of the `cluster:frames` stream. A snapshot (begin, chunks, end) carries the whole cache
 * at `seq`; deltas follow with seq + 1, + 2, ... A renderer that sees a gap asks for a resync.
 * Every frame stays under 64 KB of JSON.
 */
export const ClusterFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot-begin'), epoch: z.string(), context: z.string().nullable(), seq: z.number().int(), total: z.number().int() }),
  z.object({ type: z.literal('snapshot-chunk'), epoch: z.string(), seq: z.number().int(), objects: z.array(SlimObjectSchema), sent: z.number().int(), total: z.number().int() }),
  z.object({ type: z.literal('snapshot-end'), epoch: z.string(), seq: z.number().int() }),
  z.object({ type: z.literal('delta'), epoch: z.string(), seq: z.number().int(), upserts: z.array(SlimObjectSchema), deletes: z.array(ObjectRefSchema) }),
]);
export type ClusterFrame = z.infer<typeof ClusterFrameSchema>;

/** Largest JSON size of one frame on either transport. */
export const MAX_FRAME_BYTES = 64 * 1024;
