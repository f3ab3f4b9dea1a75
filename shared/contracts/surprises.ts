/**
 * The surprises part of the IPC contract (merged into shared/contract.ts): the four ways the
 * level-triggered reconcile loop surprises people, as the engine's detector
 * (electron/engine/surprises/) sees them happen in the live cluster's watch stream:
 * - `recreated`: a pod that was deleted came back, made by its owner's controller;
 * - `fight`: two managers set one field back and forth (managedFields says who);
 * - `no-rollout`: a workload was updated, but its pod template did not change (or it is paused);
 * - `stalled`: a rollout the controller gave up on (Progressing=False), and since when.
 * `surprises:recent` answers with the context's recent ones; `surprises:changed` pushes the list
 * again whenever one is added or updated.
 */
import { z } from 'zod';
import { KindKeySchema } from '../cluster.ts';

export const SURPRISE_TYPES = ['recreated', 'fight', 'no-rollout', 'stalled'] as const;
export const SurpriseTypeSchema = z.enum(SURPRISE_TYPES);
export type SurpriseType = z.infer<typeof SurpriseTypeSchema>;

/** An object a surprise names: by kind key and uid, with what a user reads. */
export const SurpriseObjectSchema = z.object({
  kind: KindKeySchema,
  /** The object's Kubernetes kind (`Deployment`). */
  objectKind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  uid: z.string(),
});
export type SurpriseObject = z.infer<typeof SurpriseObjectSchema>;

/** One write in a fight: who set the field to what, and when. */
export const FieldWriteSchema = z.object({
  manager: z.string(),
  /** `scale`, `status`: the subresource it wrote through, if any. */
  subresource: z.string().optional(),
  value: z.string(),
  at: z.number(),
});
export type FieldWrite = z.infer<typeof FieldWriteSchema>;

export const SurpriseSchema = z.object({
  /** Stable for one surprise: a fight that goes on updates the same one. */
  id: z.string(),
  type: SurpriseTypeSchema,
  /** When it happened (ms since the epoch); for a fight, its last write. */
  at: z.number(),
  /** The object it is about (the recreated pod, the fought-over or updated workload). */
  object: SurpriseObjectSchema,
  /** The workload whose timeline shows it (a pod's owning Deployment, or the object itself). */
  workload: SurpriseObjectSchema,
  /** One sentence, in the cluster's words. */
  message: z.string(),
  /** The controller that acted (recreated: `replicaset-controller`). */
  actor: z.string().optional(),
  /** How long the controller took to act (recreated), in ms. */
  delayMs: z.number().optional(),
  /** fight: the field path (`spec.replicas`) and the writes, oldest first. */
  field: z.string().optional(),
  writes: z.array(FieldWriteSchema).optional(),
  /** stalled: since when the controller reports it gave up. */
  since: z.number().optional(),
});
export type Surprise = z.infer<typeof SurpriseSchema>;

export const RecentSurprisesSchema = z.object({
  context: z.string().nullable(),
  /** Newest first. */
  surprises: z.array(SurpriseSchema),
});
export type RecentSurprises = z.infer<typeof RecentSurprisesSchema>;

export const surprisesRequests = {
  /** The selected context's recent surprises, newest first. */
  'surprises:recent': { request: z.object({}).strict(), response: RecentSurprisesSchema },
} as const;

export const surprisesStreams = {
  /** A surprise was added or updated (the whole recent list again). */
  'surprises:changed': RecentSurprisesSchema,
} as const;
