/**
 * What the live cluster engine streams to the renderer: slim objects, per-kind health, and the
 * frames of the snapshot-then-deltas subscription protocol.
 */
import { z } from 'zod';
import { BUILTIN_KEYS, type BuiltinKindKey } from './builtin-kinds.ts';
import { KIND_KEY_PATTERN } from './kinds.ts';

/**
 * The kinds the engine watches, by kind key (shared/kinds.ts); both Event APIs arrive as `events`
 * (one object per uid, see builtin-kinds.ts).
 */
export const WATCHED_KINDS: readonly BuiltinKindKey[] = [
  BUILTIN_KEYS.Namespace,
  BUILTIN_KEYS.Node,
  BUILTIN_KEYS.Pod,
  BUILTIN_KEYS.Service,
  BUILTIN_KEYS.Deployment,
  BUILTIN_KEYS.ReplicaSet,
  BUILTIN_KEYS.StatefulSet,
  BUILTIN_KEYS.DaemonSet,
  BUILTIN_KEYS.Job,
  BUILTIN_KEYS.CronJob,
  BUILTIN_KEYS.HorizontalPodAutoscaler,
  BUILTIN_KEYS.Event,
];

/** A kind key: `plural` for the core group, `plural.group` otherwise (`pods`, `deployments.apps`). */
export const KindKeySchema = z.string().regex(KIND_KEY_PATTERN, { error: 'a kind key is "plural" or "plural.group", such as "pods" or "deployments.apps"' });
/** A kind key, as the cache, the frame stream, history and the renderer's stores name kinds. */
export type KindKey = string;

/**
 * A Kubernetes object as it leaves the engine: its usual JSON shape minus managedFields, the
 * last-applied annotation, Secret data and fields no view uses.
 */
export const SlimObjectSchema = z
  .object({
    apiVersion: z.string(),
    /** The object's Kubernetes kind, as sent (`Deployment`); its kind key travels beside it. */
    kind: z.string(),
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
  /** The kind key. */
  kind: KindKeySchema,
  state: KindHealthStateSchema,
  /** Objects listed so far (syncing) or cached (live). */
  count: z.number().int().nonnegative(),
  /** Since when the kind is in this state (ms since the epoch). */
  since: z.number(),
  /** The last error, for reconnecting / forbidden / unavailable. */
  message: z.string().optional(),
  /**
   * Set while a live kind's watch events wait to be applied longer than a couple of seconds
   * (overload): how far behind the cache is, in ms. The kind is catching up, not stuck.
   */
  lagMs: z.number().nonnegative().optional(),
});
export type KindHealth = z.infer<typeof KindHealthSchema>;

export const ClusterHealthSchema = z.object({
  context: z.string().nullable(),
  /** Changes whenever the engine starts over (context switch): the renderer drops what it had. */
  epoch: z.string(),
  kinds: z.array(KindHealthSchema),
});
export type ClusterHealth = z.infer<typeof ClusterHealthSchema>;

/** One object by kind key and uid (a uid is unique across kinds; the key says which bucket holds it). */
export const ObjectRefSchema = z.object({ kind: KindKeySchema, uid: z.string() });
export type ObjectRef = z.infer<typeof ObjectRefSchema>;

/**
 * Frames of the `cluster:frames` stream. A snapshot (begin, chunks, end) carries the whole cache
 * at `seq`; deltas follow with seq + 1, + 2, ... A renderer that sees a gap asks for a resync.
 * Every frame stays under 64 KB of JSON.
 *
 * Objects keep their own `apiVersion` and `kind`; the kind key of `objects[i]` (`upserts[i]`) is
 * `kinds[i]`, so the renderer files an object without knowing the cluster's kinds.
 */
export const ClusterFrameSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('snapshot-begin'), epoch: z.string(), context: z.string().nullable(), seq: z.number().int(), total: z.number().int() }),
    z.object({
      type: z.literal('snapshot-chunk'),
      epoch: z.string(),
      seq: z.number().int(),
      objects: z.array(SlimObjectSchema),
      kinds: z.array(KindKeySchema),
      sent: z.number().int(),
      total: z.number().int(),
    }),
    z.object({ type: z.literal('snapshot-end'), epoch: z.string(), seq: z.number().int() }),
    z.object({ type: z.literal('delta'), epoch: z.string(), seq: z.number().int(), upserts: z.array(SlimObjectSchema), kinds: z.array(KindKeySchema), deletes: z.array(ObjectRefSchema) }),
  ])
  .superRefine((frame, ctx) => {
    const objects = frame.type === 'snapshot-chunk' ? frame.objects : frame.type === 'delta' ? frame.upserts : undefined;
    if (objects && (frame.type === 'snapshot-chunk' || frame.type === 'delta') && frame.kinds.length !== objects.length) {
      ctx.addIssue({ code: 'custom', path: ['kinds'], message: `a ${frame.type} frame needs one kind key per object: ${objects.length} objects, ${frame.kinds.length} kind keys` });
    }
  });
export type ClusterFrame = z.infer<typeof ClusterFrameSchema>;

/** Largest JSON size of one frame on either transport. */
export const MAX_FRAME_BYTES = 64 * 1024;
