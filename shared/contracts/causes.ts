/**
 * The causes part of the IPC contract (merged into shared/contract.ts): why a drifting object
 * does not converge, as the engine's cause finder (electron/engine/causes/) states it — one
 * sentence in the cluster's own words, the objects that show it and the ownership chain to them.
 * `causes:for` answers for one object; `causes:drifting` for every drifting workload, and
 * `causes:changed` pushes the same list again (debounced) whenever the live cluster changes it.
 */
import { z } from 'zod';

/** What keeps an object from converging (the finder's codes). */
export const CAUSE_CODES = [
  'image-pull',
  'invalid-image',
  'crash-loop',
  'container-waiting',
  'pod-failed',
  'unschedulable',
  'node-not-ready',
  'create-refused',
  'readiness-probe',
  'pvc-pending',
  'hpa-metrics',
  'hpa-target',
  'rollout-paused',
  'progress-deadline',
  'job-backoff-limit',
  'job-failed',
  'condition',
  'not-ready',
  'not-in-cache',
] as const;
export const CauseCodeSchema = z.enum(CAUSE_CODES);

/** An object a cause links to. */
export const ObjectLinkSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  uid: z.string(),
});
export type CauseObjectLink = z.infer<typeof ObjectLinkSchema>;

/** One object showing a cause and what it shows (the kubelet's message, a condition...). */
export const EvidenceSchema = ObjectLinkSchema.extend({ detail: z.string() });
export type CauseEvidence = z.infer<typeof EvidenceSchema>;

/** Why an object does not converge. */
export interface CauseInfo {
  code: z.infer<typeof CauseCodeSchema>;
  /** One sentence, quoting the cluster's words verbatim. */
  sentence: string;
  evidence: CauseEvidence[];
  /** Since when (ms since the epoch), when the cluster says. */
  since?: number | undefined;
  /** The ownership path from the object asked about down to the object the cause sits on. */
  chain: CauseObjectLink[];
  /** Leaf causes under a controller's verdict (progress deadline, failed Job, HPA). */
  underneath?: CauseInfo[] | undefined;
}

export const CauseSchema: z.ZodType<CauseInfo> = z.lazy(() =>
  z.object({
    code: CauseCodeSchema,
    sentence: z.string(),
    evidence: z.array(EvidenceSchema),
    since: z.number().optional(),
    chain: z.array(ObjectLinkSchema),
    underneath: z.array(CauseSchema).optional(),
  }),
);

/** The causes of one object, the headline first (empty: nothing keeps it from converging). */
export const CauseReportSchema = z.object({ target: ObjectLinkSchema, causes: z.array(CauseSchema) });
export type CauseReportInfo = z.infer<typeof CauseReportSchema>;

/** Every drifting workload's causes in the selected context, as of `at`. */
export const DriftingCausesSchema = z.object({
  /** The selected context, or null before one is chosen. */
  context: z.string().nullable(),
  /** Bumped on every recomputation that changed something. */
  revision: z.number().int(),
  /** When the causes were found (ms since the epoch). */
  at: z.number(),
  reports: z.array(CauseReportSchema),
});
export type DriftingCauses = z.infer<typeof DriftingCausesSchema>;

export const causesRequests = {
  /** Why one live object (by uid, any kind) does not converge. */
  'causes:for': {
    request: z.object({ uid: z.string().min(1).max(128) }).strict(),
    response: CauseReportSchema,
  },
  /** The causes of every drifting workload now. */
  'causes:drifting': { request: z.object({}).strict(), response: DriftingCausesSchema },
} as const;

export const causesStreams = {
  /** The drifting workloads' causes changed (at most one push per second while the cluster changes). */
  'causes:changed': DriftingCausesSchema,
} as const;
