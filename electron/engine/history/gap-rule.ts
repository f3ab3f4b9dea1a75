/**
 * The one rule for time nobody observed a workload, whatever stopped the observing (the app
 * closed, the connection to the cluster lost, its namespace no longer readable): a stretch no
 * longer than GAP_MS is bridged (the recorder carries on as if nothing happened: an open episode
 * continues), a longer one is a gap, and whatever the workload had open (its drift episode, its
 * rollout) is closed at the last moment it was observed, so an episode never spans time nobody
 * watched. The recorder (recorder.ts), the workloads out of view (left-view.ts) and the lost
 * connection (connection-gap.ts) all apply it through these two functions.
 */
import type { EpisodeRecord, RolloutRecord } from './records.ts';

/** What a tracked workload may hold open across a stretch nobody observed. */
export interface OpenWork {
  episode: EpisodeRecord | null;
  rollout: RolloutRecord | null;
}

/** Where closed episodes and rollouts are written (the recorder's batch). */
export interface OpenWorkWrites {
  episode(episode: EpisodeRecord): void;
  rollout(rollout: RolloutRecord): void;
}

/** Whether observing that stopped at `stoppedAt` and goes on at `at` bridges the stretch (no gap). */
export function bridges(stoppedAt: number, at: number, gapMs: number): boolean {
  return at - stoppedAt <= gapMs;
}

/** Closes what `work` had open at `stoppedAt`, the last moment it was observed (never before it began). */
export function closeAtStop(work: OpenWork, stoppedAt: number, write: OpenWorkWrites): void {
  if (work.episode) write.episode(Object.assign(work.episode, { end: Math.max(work.episode.start, stoppedAt) }));
  if (work.rollout) write.rollout(Object.assign(work.rollout, { end: Math.max(work.rollout.start, stoppedAt) }));
  work.episode = null;
  work.rollout = null;
}
