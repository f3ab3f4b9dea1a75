/**
 * The connection to the cluster lost (coverage.ts `connectionLost`: nothing live or listing and
 * something reconnecting): from that moment nothing of the context is observed, so the recorder
 * writes no sample for it (no heartbeat claims a flat line nobody measured) and, once the loss
 * lasts longer than GAP_MS, closes every open episode and rollout at the moment of the loss
 * (gap-rule.ts). The coverage shows the stretch as a `connection-lost` gap.
 *
 * When the cluster answers again, each workload is observed afresh: by the relist's change for it
 * if it changed meanwhile, or, for one the relist found unchanged (the cache says nothing then),
 * when every kind has been listed again (`end`): its values are then known to be current. Either
 * way a workload still drifting after a long loss starts a new episode there.
 */
import { bridges, closeAtStop, type OpenWork, type OpenWorkWrites } from './gap-rule.ts';

/** How a workload's first observation after the loss relates to it. */
export type Resumption = 'none' | 'bridged' | 'after-gap';

export interface ConnectionGap {
  /**
   * Lost at `at`: the workloads `uids` are unobserved from then on (each from the first loss it
   * was not seen after: told again while lost, or lost again before the relist saw it, it keeps
   * that time).
   */
  lose(at: number, uids: Iterable<string>): void;
  /** The cluster answers again (the lists follow; `end` once they are done). */
  back(): void;
  /** Whether `uid` was not observed since a loss. */
  stale(uid: string): boolean;
  /**
   * `work` (the workload `uid`) observed at `at`: if not observed since a loss, its open episode
   * and rollout are closed at the loss when the stretch is a gap. Says which.
   */
  seen(uid: string, work: OpenWork, at: number): Resumption;
  /** Closes, at the loss, what workloads not seen since have open once the loss is longer than GAP_MS. */
  expire(at: number, workOf: (uid: string) => OpenWork | undefined): void;
  /**
   * Every kind is listed at `at`: if the connection came back, the gap ends. Returns the workloads
   * the relist left unchanged (not seen since the loss; what they had open is closed at the loss
   * when it was a gap), to be observed now. Empty otherwise.
   */
  end(at: number, workOf: (uid: string) => OpenWork | undefined): Array<{ uid: string; resumption: Resumption }>;
}

export function createConnectionGap(options: { gapMs: number; write: OpenWorkWrites }): ConnectionGap {
  const { gapMs, write } = options;
  let lost = false;
  let answering = false;
  /** The workloads not observed since a loss, with the moment of that loss. */
  const unseen = new Map<string, number>();

  /** How observing `uid` again at `at` relates to its loss at `since` (closing what a gap ends). */
  function resume(since: number, work: OpenWork, at: number): Resumption {
    if (bridges(since, at, gapMs)) return 'bridged';
    closeAtStop(work, since, write);
    return 'after-gap';
  }

  return {
    lose(at, uids) {
      lost = true;
      answering = false;
      for (const uid of uids) if (!unseen.has(uid)) unseen.set(uid, at);
    },
    back() {
      if (lost) answering = true;
    },
    stale: (uid) => unseen.has(uid),
    seen(uid, work, at) {
      const since = unseen.get(uid);
      if (since === undefined) return 'none';
      unseen.delete(uid);
      return resume(since, work, at);
    },
    expire(at, workOf) {
      for (const [uid, since] of unseen) {
        const work = workOf(uid);
        if (work && !bridges(since, at, gapMs)) closeAtStop(work, since, write);
      }
    },
    end(at, workOf) {
      if (!lost || !answering) return [];
      const out: Array<{ uid: string; resumption: Resumption }> = [];
      for (const [uid, since] of unseen) {
        const work = workOf(uid);
        if (work) out.push({ uid, resumption: resume(since, work, at) });
      }
      unseen.clear();
      lost = false;
      answering = false;
      return out;
    },
  };
}
