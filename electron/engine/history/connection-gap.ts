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
  /** Whether the connection is lost and not listed again yet (no heartbeat for workloads not seen since). */
  active(): boolean;
  /** Lost at `at`: the workloads `uids` are unobserved from then on. Nothing when already lost. */
  lose(at: number, uids: Iterable<string>): void;
  /** The cluster answers again (the lists follow; `end` once they are done). */
  back(): void;
  /** Whether `uid` was not observed since the loss. */
  stale(uid: string): boolean;
  /**
   * `work` (the workload `uid`) observed at `at`: if not observed since the loss, its open episode
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
  let lostAt: number | null = null;
  let answering = false;
  const unseen = new Set<string>();

  return {
    active: () => lostAt !== null,
    lose(at, uids) {
      if (lostAt !== null) {
        // Lost again before every kind was listed: the first loss still dates the gap.
        answering = false;
        return;
      }
      lostAt = at;
      answering = false;
      for (const uid of uids) unseen.add(uid);
    },
    back() {
      if (lostAt !== null) answering = true;
    },
    stale: (uid) => unseen.has(uid),
    seen(uid, work, at) {
      if (lostAt === null || !unseen.delete(uid)) return 'none';
      if (bridges(lostAt, at, gapMs)) return 'bridged';
      closeAtStop(work, lostAt, write);
      return 'after-gap';
    },
    expire(at, workOf) {
      if (lostAt === null || bridges(lostAt, at, gapMs)) return;
      for (const uid of unseen) {
        const work = workOf(uid);
        if (work) closeAtStop(work, lostAt, write);
      }
    },
    end(at, workOf) {
      if (lostAt === null || !answering) return [];
      const bridged = bridges(lostAt, at, gapMs);
      const out: Array<{ uid: string; resumption: Resumption }> = [];
      for (const uid of unseen) {
        const work = workOf(uid);
        if (!work) continue;
        if (!bridged) closeAtStop(work, lostAt, write);
        out.push({ uid, resumption: bridged ? 'bridged' : 'after-gap' });
      }
      unseen.clear();
      lostAt = null;
      answering = false;
      return out;
    },
  };
}
