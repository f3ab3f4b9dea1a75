/**
 * The access part of the IPC contract (merged into shared/contract.ts): what the selected
 * context's user may see, as the engine's access checks found it (shared/access.ts), for the
 * status bar, the banner and the screens whose data a hidden kind holds; and "Check again".
 */
import { z } from 'zod';
import { AccessSummarySchema } from '../access.ts';

const Empty = z.object({}).strict();

/** The selected context's access; `summary` is null before the first check and for snapshots. */
export const ClusterAccessSchema = z.object({
  context: z.string().nullable(),
  /** The live cluster's epoch: a new context starts a new one. */
  epoch: z.string(),
  summary: AccessSummarySchema.nullable(),
});
export type ClusterAccess = z.infer<typeof ClusterAccessSchema>;

export const accessRequests = {
  /** The selected context's access as last checked. */
  'cluster:access': { request: Empty, response: ClusterAccessSchema },
  /** Checks access again now ("Check again"); answers when the check has finished. */
  'cluster:access-recheck': { request: Empty, response: ClusterAccessSchema },
} as const;

export const accessStreams = {
  /** Every finished access check of the selected context (and a context switch). */
  'cluster:access': ClusterAccessSchema,
} as const;
