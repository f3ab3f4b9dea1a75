/**
 * What discovery found, as the Cluster screen shows it: every discovered kind with how it is
 * watched (in full, as metadata, or not and why) and its object count, the group versions the
 * server could not serve, and the progress of a discovery still under way.
 */
import { z } from 'zod';
import type { KindRef } from './kinds.ts';

/** A KindRef as the contract checks it (see shared/kinds.ts). */
export const KindRefSchema = z.object({
  group: z.string(),
  version: z.string().min(1),
  kind: z.string().min(1),
  plural: z.string().min(1),
  namespaced: z.boolean(),
}) satisfies z.ZodType<KindRef>;

/**
 * How a kind is watched:
 * - `full`: whole objects (kinds that carry status or whose content the views read);
 * - `metadata`: PartialObjectMetadata only (graph nodes: ConfigMaps, Secrets, ...), so their
 *   contents, Secret values above all, never reach the engine;
 * - `excluded`: not watched, by the context's exclusion rules or as a duplicate view;
 * - `forbidden`: the user may not list or watch it (set by access checks);
 * - `unavailable`: its group version is down or not served (with the server's message).
 */
export const KindModeSchema = z.enum(['full', 'metadata', 'excluded', 'forbidden', 'unavailable']);
export type KindMode = z.infer<typeof KindModeSchema>;

/** One discovered kind. */
export const KindEntrySchema = z.object({
  /** `plural` or `plural.group` (see shared/kinds.ts). */
  key: z.string().min(1),
  /** Group, preferred version, kind, plural, scope. */
  ref: KindRefSchema,
  /** Every version that serves it, the preferred one first. */
  versions: z.array(z.string()).min(1),
  /** The verbs of the preferred version. */
  verbs: z.array(z.string()),
  listable: z.boolean(),
  watchable: z.boolean(),
  subresources: z.object({ status: z.boolean(), scale: z.boolean() }),
  shortNames: z.array(z.string()),
  categories: z.array(z.string()),
  /** Served by a CustomResourceDefinition or an aggregated API, not by Kubernetes itself. */
  custom: z.boolean(),
  mode: KindModeSchema,
  /** Why a kind is excluded, forbidden or unavailable; why it is watched as metadata only. */
  message: z.string().optional(),
  /** Objects the informer holds; null until one reports. */
  count: z.number().int().nonnegative().nullable(),
});
export type KindEntry = z.infer<typeof KindEntrySchema>;

/** A group version the server could not serve (an APIService down): only it is affected. */
export const UnavailableGroupVersionSchema = z.object({
  group: z.string(),
  version: z.string(),
  /** The server's own words (a 503's Status message), or why discovery calls it stale. */
  message: z.string(),
});
export type UnavailableGroupVersion = z.infer<typeof UnavailableGroupVersionSchema>;

/** How far a discovery run is: group versions read of those to read. */
export const DiscoveryProgressSchema = z.object({
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type DiscoveryProgress = z.infer<typeof DiscoveryProgressSchema>;

/** The registry's whole state, for the Cluster screen. */
export const DiscoveryStateSchema = z.object({
  kinds: z.array(KindEntrySchema),
  unavailable: z.array(UnavailableGroupVersionSchema),
  /** Set while a discovery runs. */
  progress: DiscoveryProgressSchema.nullable(),
  /** When the last discovery finished (ms since the epoch); null before the first. */
  refreshedAt: z.number().nullable(),
  /** The last discovery's failure when it could not ask the server at all; kinds stay as they were. */
  error: z.string().optional(),
});
export type DiscoveryState = z.infer<typeof DiscoveryStateSchema>;

/** What the Cluster screen shows of discovery: the selected context's registry, if it has one. */
export const ClusterDiscoverySchema = z.object({
  context: z.string().nullable(),
  /** The same epoch as `cluster:health`: a new one drops what the renderer had. */
  epoch: z.string(),
  /** Null before discovery first ran, and for an opened snapshot (no server to ask). */
  state: DiscoveryStateSchema.nullable(),
});
export type ClusterDiscovery = z.infer<typeof ClusterDiscoverySchema>;
