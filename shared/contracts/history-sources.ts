/**
 * History sources (merged into shared/contract.ts): headless recorders (`kubedrift record
 * --listen`) whose history the app reads over the same contract, carried by the browser shell's
 * WebSocket framing, and merges with its own. A source is a URL and a bearer token; the token is
 * kept by the engine only and never crosses this contract back to the renderer.
 */
import { z } from 'zod';

/**
 * The WebSocket subprotocol of a recorder's history (sent by the app, required by the recorder):
 * a recorder from another protocol version refuses it with a message that names its own.
 */
export const HISTORY_SOURCE_PROTOCOL = 'kubedrift.history.v1';
/** The response header a recorder puts on every refusal, so the app can tell a recorder from any other server. */
export const HISTORY_SOURCE_PROTOCOL_HEADER = 'x-kubedrift-protocol';
/** The query parameter that binds a recorder connection to one recorded context. */
export const HISTORY_SOURCE_CONTEXT_PARAM = 'context';

/**
 * Why a source failed:
 * - `unreachable`: nothing answered at the URL (refused, DNS, TLS, timeout);
 * - `unauthorized`: the recorder refused the token (wrong, or rotated away: expired);
 * - `protocol`: a recorder of another protocol version;
 * - `not-a-recorder`: something answered, but not a Kubedrift recorder;
 * - `invalid-answer`: the recorder answered with something the contract does not allow.
 */
export const HistorySourceErrorCodeSchema = z.enum(['unreachable', 'unauthorized', 'protocol', 'not-a-recorder', 'invalid-answer']);
export type HistorySourceErrorCode = z.infer<typeof HistorySourceErrorCodeSchema>;

export const HistorySourceErrorSchema = z.object({ at: z.number(), code: HistorySourceErrorCodeSchema, message: z.string() });
export type HistorySourceError = z.infer<typeof HistorySourceErrorSchema>;

/** A context a recorder records, with its API server when the recorder's kubeconfig names one. */
export const RecordedContextSchema = z.object({ name: z.string(), server: z.string().optional() });
export type RecordedContext = z.infer<typeof RecordedContextSchema>;

export const HistorySourceStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  /** `checking`: the first answer has not come yet; `connected`: the last check succeeded. */
  state: z.enum(['checking', 'connected', 'error']),
  /** The contexts the recorder records (as of the last successful check). */
  contexts: z.array(RecordedContextSchema),
  /** When the source last answered. */
  checkedAt: z.number().nullable(),
  /** The last failure; cleared by the next success. */
  lastError: HistorySourceErrorSchema.nullable(),
});
export type HistorySourceStatus = z.infer<typeof HistorySourceStatusSchema>;

export const HistorySourceListSchema = z.object({ sources: z.array(HistorySourceStatusSchema) });
export type HistorySourceList = z.infer<typeof HistorySourceListSchema>;

/** Most history sources one app keeps. */
export const MAX_HISTORY_SOURCES = 20;

/** `http(s)://` or `ws(s)://`, with or without the `/ws` path. */
export const HistorySourceUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      return ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, { error: 'the URL must start with http://, https://, ws:// or wss:// (the recorder\'s --listen address)' })
  // The URL is shown and logged; a password or token in it would be too (the token has its own field).
  .refine((value) => {
    try {
      const url = new URL(value);
      return !url.username && !url.password && !url.search;
    } catch {
      return true;
    }
  }, { error: 'the URL must not carry a user, password or query: put the recorder\'s token in the token field' });

export const HistorySourceAddSchema = z.strictObject({
  name: z.string().trim().min(1, { error: 'give the source a name' }).max(80),
  url: HistorySourceUrlSchema,
  token: z.string().trim().min(1, { error: 'the recorder\'s token is required' }).max(4096),
});
export type HistorySourceAdd = z.infer<typeof HistorySourceAddSchema>;

/**
 * How one source took part in a history answer: `merged` (its history is in the answer), or
 * `error` (it failed; the answer holds the rest, and `message` says why).
 */
export const HistorySourceUseSchema = z.object({ name: z.string(), state: z.enum(['merged', 'error']), message: z.string().optional() });
export type HistorySourceUse = z.infer<typeof HistorySourceUseSchema>;

export const historySourcesRequests = {
  /**
   * The contexts this engine records (the selected one and the background ones; a recorder: its
   * `--context`s). The app asks a recorder this to learn which contexts it can merge.
   */
  'history:recorded': { request: z.object({}).strict(), response: z.object({ contexts: z.array(RecordedContextSchema) }) },
  /** Every history source and how it is doing. */
  'history:sources': { request: z.object({}).strict(), response: HistorySourceListSchema },
  /** Adds a source (checked at once; a failing one is kept, with its error). */
  'history:source-add': { request: HistorySourceAddSchema, response: HistorySourceListSchema },
  'history:source-remove': { request: z.object({ id: z.string().min(1).max(100) }).strict(), response: HistorySourceListSchema },
} as const;

export const historySourcesStreams = {
  /** A source was added, removed, connected or failed. */
  'history:sources': HistorySourceListSchema,
} as const;
