/**
 * Background recording (merged into shared/contract.ts): the contexts Settings chose to record all
 * the time, each with a lean recorder of its own while it is not the selected context. The
 * selected context is recorded by the history feature (`history:status`), so it is listed here
 * as `selected`, never recorded twice.
 */
import { z } from 'zod';

/**
 * - `starting`: reading credentials and reaching the API server;
 * - `recording`: informers run and history is written;
 * - `retrying`: the last attempt failed (see `lastError`); the next one is at `retryAt`;
 * - `selected`: the context is selected, so the app's own recording covers it.
 */
export const BackgroundStateSchema = z.enum(['starting', 'recording', 'retrying', 'selected']);
export type BackgroundState = z.infer<typeof BackgroundStateSchema>;

export const BackgroundContextStatusSchema = z.object({
  context: z.string(),
  state: BackgroundStateSchema,
  /** Since when this recorder writes history (ms since the epoch); null while not recording. */
  recordingSince: z.number().nullable(),
  /** The last failure, kept after recovery so the user can see what happened. */
  lastError: z.object({ at: z.number(), message: z.string() }).nullable(),
  /** When the next attempt runs (`retrying`). */
  retryAt: z.number().nullable(),
  /**
   * What its history store says while it runs, when something is wrong there: "Recording on this
   * computer only: …" (the shared store is unreachable, or another recorder writes this context),
   * or why recording is paused or failed (disk full). Absent when all is well.
   */
  notice: z.string().optional(),
});
export type BackgroundContextStatus = z.infer<typeof BackgroundContextStatusSchema>;

export const BackgroundStatusSchema = z.object({ contexts: z.array(BackgroundContextStatusSchema) });
export type BackgroundStatus = z.infer<typeof BackgroundStatusSchema>;

export const backgroundRequests = {
  /** Every context chosen for background recording and how its recorder is doing. */
  'history:background': { request: z.object({}).strict(), response: BackgroundStatusSchema },
} as const;

export const backgroundStreams = {
  /** A background recorder started, failed, recovered or handed over to the selected context. */
  'history:background': BackgroundStatusSchema,
} as const;
