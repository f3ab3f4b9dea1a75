/**
 * Workloads that left the view without being deleted: the user's permissions no longer let the
 * app read their namespace (a RoleBinding revoked), so the cache dropped them with `left: true`
 * (stream/cache.ts isLeave). The history must not call them deleted, nor claim anything about the
 * time nobody could see them:
 *
 * - When one leaves, a last sample marks the moment it was last known, an unobserved stretch opens
 *   for it (the `unobserved` table; the charts hatch it like a coverage gap, unobserved.ts) and its
 *   open episode and rollout are parked here, still open.
 * - Back within GAP_MS (a recheck that found the access again at once): it goes on as if nothing
 *   happened, as after a short recording gap; the stretch is too short to be a gap.
 * - Gone longer: its episode and rollout close at the moment it left (an episode never spans
 *   time nobody watched); when it comes back it starts afresh, with the same uid and the stretch
 *   in between closed where it reappeared.
 * - Not there when its namespace is listed again (the access returned; `listed`): it was deleted
 *   while nobody could see it. The stretch closes where the list came and is marked `gone`, and
 *   the workload is recorded deleted as of then: when within the stretch is unknown, and nothing
 *   says otherwise (the timeline reads "deleted while not observed, between A and B").
 */
import { bridges, closeAtStop } from './gap-rule.ts';
import type { EpisodeRecord, RolloutRecord } from './records.ts';

/** Where a workload is: what a list must cover to say whether it is still there. */
export interface OpenStretch {
  uid: string;
  kind: string;
  namespace: string;
}

/** What this module needs of a tracked workload. */
export interface ParkedWorkload {
  ref: OpenStretch;
  episode: EpisodeRecord | null;
  rollout: RolloutRecord | null;
}

/** One change to a workload's unobserved stretches, applied in order by the writer. */
export interface UnobservedRecord {
  uid: string;
  at: number;
  /** `start`: it left the view at `at`; `end`: it is observed again from `at` (closes any open stretch). */
  op: 'start' | 'end';
  /** With `end`: it was not there when its namespace was listed again at `at` (deleted meanwhile). */
  gone?: true;
}

/** How the left workloads write into the recorder's batch. */
export interface LeftViewWrites<T extends ParkedWorkload> {
  sample(t: T, at: number): void;
  episode(episode: EpisodeRecord): void;
  rollout(rollout: RolloutRecord): void;
  unobserved(record: UnobservedRecord): void;
  /** `uid` was found gone at `at` (deleted while out of view): recorded deleted as of then. */
  gone(uid: string, at: number): void;
}

export interface LeftView<T extends ParkedWorkload> {
  /** `t` left the view at `at`: its last sample, the stretch's start, and parked. */
  leave(t: T, at: number): void;
  /**
   * A workload seen again at `at`: the parked workload to go on with when it left less than
   * GAP_MS ago (its stretch closed), else undefined (whatever it had open is closed; it begins
   * afresh, and beginning closes the stretch).
   */
  resume(uid: string, at: number): T | undefined;
  /** Whether `uid` has an unobserved stretch still open (left earlier, maybe in an earlier session). */
  unseen(uid: string): boolean;
  /**
   * `kind` was listed at `at` (in `namespace`, or cluster-wide): the workloads it covers whose
   * stretch is still open are not there (a workload that is was seen before the list ended).
   * Their stretches close as `gone`; returns how many.
   */
  listed(kind: string, namespace: string | undefined, at: number): number;
  /** Closes the episodes and rollouts of workloads gone longer than GAP_MS at `at`. */
  expire(at: number): void;
  /** Queues again what the parked workloads hold open (after writes were lost). */
  requeue(): void;
  size(): number;
}

/** Options of createLeftView. */
export interface LeftViewOptions<T extends ParkedWorkload> {
  gapMs: number;
  write: LeftViewWrites<T>;
  /** The workloads whose unobserved stretch earlier sessions left open. */
  open?: Iterable<OpenStretch>;
}

export function createLeftView<T extends ParkedWorkload>(options: LeftViewOptions<T>): LeftView<T> {
  const { gapMs, write } = options;
  const parked = new Map<string, { t: T; at: number }>();
  /** Workloads with an open stretch, by uid: parked ones, and those that never came back since. */
  const open = new Map<string, OpenStretch>();
  for (const stretch of options.open ?? []) open.set(stretch.uid, stretch);

  /** Closes what `t` had open at the moment it left. */
  const close = (t: T, at: number): void => closeAtStop(t, at, write);

  return {
    leave(t, at) {
      write.sample(t, at);
      write.unobserved({ uid: t.ref.uid, at, op: 'start' });
      parked.set(t.ref.uid, { t, at });
      open.set(t.ref.uid, { uid: t.ref.uid, kind: t.ref.kind, namespace: t.ref.namespace });
    },
    resume(uid, at) {
      if (!open.delete(uid)) return undefined;
      write.unobserved({ uid, at, op: 'end' });
      const entry = parked.get(uid);
      if (!entry) return undefined;
      parked.delete(uid);
      if (bridges(entry.at, at, gapMs)) return entry.t;
      close(entry.t, entry.at);
      return undefined;
    },
    unseen: (uid) => open.has(uid),
    listed(kind, namespace, at) {
      let gone = 0;
      for (const [uid, where] of open) {
        if (where.kind !== kind || (namespace !== undefined && where.namespace !== namespace)) continue;
        open.delete(uid);
        const entry = parked.get(uid);
        if (entry) close(entry.t, entry.at);
        parked.delete(uid);
        write.unobserved({ uid, at, op: 'end', gone: true });
        write.gone(uid, at);
        gone += 1;
      }
      return gone;
    },
    expire(at) {
      for (const [uid, entry] of parked) {
        if (bridges(entry.at, at, gapMs)) continue;
        close(entry.t, entry.at);
        parked.delete(uid);
      }
    },
    requeue() {
      for (const { t, at } of parked.values()) {
        write.unobserved({ uid: t.ref.uid, at, op: 'start' });
        if (t.episode) write.episode(t.episode);
        if (t.rollout) write.rollout(t.rollout);
      }
    },
    size: () => parked.size,
  };
}
