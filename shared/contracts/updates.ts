/**
 * The updates part of the IPC contract (merged into shared/contract.ts): what the desktop app's
 * last update check found, as a quiet status for the Settings screen. A check that fails (the
 * machine is offline, the release server answers 5xx) is reported here and in the log, never in
 * a modal error. Only the desktop app emits it; the browser shell and the tests never do, and
 * the screen says that only the desktop app updates itself.
 */
import { z } from 'zod';

/**
 * - `checking`: a check is running;
 * - `up-to-date`: the newest release is the running one;
 * - `available`: a newer release was found and the user is being asked;
 * - `downloading` / `downloaded`: the user said yes; `downloaded` waits for "Restart to install?";
 * - `skipped`: the user declined `version`; it is not offered again (newer releases are);
 * - `failed`: the check or the download failed; `message` says why.
 */
export const UPDATE_STATES = ['checking', 'up-to-date', 'available', 'downloading', 'downloaded', 'skipped', 'failed'] as const;
export const UpdateStateSchema = z.enum(UPDATE_STATES);
export type UpdateState = z.infer<typeof UpdateStateSchema>;

export const UpdateStatusSchema = z.object({
  state: UpdateStateSchema,
  /** The release this status is about (absent while checking, when up to date, or when failed). */
  version: z.string().max(100).optional(),
  /** Why a check failed, in one line. */
  message: z.string().max(1000).optional(),
  /** When this status was reached, ms since the epoch. */
  at: z.number(),
});
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

export const updatesRequests = {} as const;

export const updatesStreams = {
  /** The desktop app's update checks (never emitted by the browser shell). */
  'updates:status': UpdateStatusSchema,
} as const;
