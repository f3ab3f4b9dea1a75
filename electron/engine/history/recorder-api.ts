/**
 * The recorder's interface (recorder.ts implements it): what it reads of earlier sessions, its
 * options, and what the session (session.ts) calls on it.
 */
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { CacheChange } from '../stream/cache.ts';
import type { ScalePaths } from './custom-sample.ts';
import type { HeadlineCause } from './episode-causes.ts';
import type { OpenStretch } from './left-view.ts';
import type { Batch, EpisodeRecord, RolloutRecord } from './records.ts';
import type { SampleValues } from './sample-codec.ts';

/** What earlier sessions left in the database. */
export interface RecorderHistory {
  /** The last recorded sample of a workload, read when it is first seen this session. */
  previous(uid: string): { at: number; values: SampleValues } | undefined;
  openEpisodes: Map<string, EpisodeRecord>;
  openRollouts: Map<string, RolloutRecord>;
  nextEpisodeId: number;
  /** The workloads that left the view and were not seen again (an open unobserved stretch). */
  unobserved?: readonly OpenStretch[];
}

export interface RecorderOptions {
  now(): number;
  history: RecorderHistory;
  heartbeatMs?: number;
  gapMs?: number;
  maxPendingDeltas?: number;
  /** Where a custom kind's scale subresource reads replicas, when its CRD says (else spec.replicas / status.replicas). */
  scalePathsOf?: (kind: string) => ScalePaths | undefined;
  /** The user's status rules (Settings), read at each change so an edit applies from then on. */
  userRules?: () => readonly UserStatusRule[];
}

export interface Recorder {
  onChange(change: CacheChange): void;
  /** Queues a heartbeat sample for every workload whose last sample is older than the heartbeat. */
  heartbeat(): void;
  /** The cache holds the whole cluster: close what earlier sessions left open for workloads that are gone. */
  synced(): void;
  /**
   * The connection to the cluster is lost (nothing is observed from now on) or answers again
   * (observing resumes with the lists that follow: see `listed`).
   */
  connection(lost: boolean): void;
  /**
   * Every kind is listed (again): after a lost connection, the workloads the relist left
   * unchanged are observed now (a still-drifting one opens a new episode after a gap).
   */
  listed(): void;
  /**
   * `kind` was listed in `namespace` (or cluster-wide): a workload out of view there that the
   * list did not bring back was deleted meanwhile (left-view.ts `listed`).
   */
  listedIn(kind: string, namespace: string | undefined): void;
  /** Queues the current state of every workload again (after writes were lost). */
  resync(): void;
  /** Everything queued since the last call. */
  take(): Batch;
  /** Whether object changes were dropped since the last call (the state log needs a keyframe). */
  takeLostDeltas(): boolean;
  /**
   * Object changes are queued for the state log from now on; call as the session's first
   * keyframe captures the cache (until then, no change is queued: the keyframe holds the state).
   */
  startStateLog(): void;
  /**
   * The cause finder's headline cause of each drifting workload now, by uid (all of them: a
   * workload left out has none). Open episodes keep the ones they had not seen yet.
   */
  noteCauses(headlines: ReadonlyMap<string, readonly HeadlineCause[]>, at: number): void;
  /** Workloads being tracked (live). */
  size(): number;
}
