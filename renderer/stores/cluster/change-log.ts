/**
 * Which objects each recent batch changed, per kind. A live table that re-derives every few
 * frames asks what changed since the revision it last saw and patches its sorted rows, instead
 * of walking 50,000 objects again. A snapshot or clear, or a gap longer than the log, answers
 * null: start over.
 */
import type { KindKey } from '../../../shared/cluster.ts';

/** About two seconds of frames; a table slower than that rebuilds, which it can then afford. */
export const CHANGE_LOG_BATCHES = 120;

interface Entry {
  revision: number;
  /** null: the batch replaced the kind wholesale. */
  uids: ReadonlySet<string> | null;
}

export interface ChangeLog {
  record(kind: KindKey, revision: number, uids: ReadonlySet<string> | null): void;
  /** uids changed after `revision` up to `current`, or null when that cannot be told. */
  since(kind: KindKey, revision: number, current: number): Set<string> | null;
}

export function createChangeLog(limit: number = CHANGE_LOG_BATCHES): ChangeLog {
  const logs = new Map<KindKey, Entry[]>();
  return {
    record(kind, revision, uids) {
      let log = logs.get(kind);
      if (!log) {
        log = [];
        logs.set(kind, log);
      }
      log.push({ revision, uids });
      if (log.length > limit) log.splice(0, log.length - limit);
    },
    since(kind, revision, current) {
      const out = new Set<string>();
      if (revision === current) return out;
      const log = logs.get(kind) ?? [];
      const first = log.findIndex((entry) => entry.revision > revision);
      // The log must reach back to the first revision the caller has not seen.
      if (first < 0 || log[first]?.revision !== revision + 1) return null;
      for (let i = first; i < log.length; i += 1) {
        const uids = (log[i] as Entry).uids;
        if (uids === null) return null;
        for (const uid of uids) out.add(uid);
      }
      return out;
    },
  };
}
