/**
 * The Events the feature knows, merged: one entry per occurrence however many Event objects
 * show it. The cache already holds one object per uid (both APIs show the same stored object
 * under the same uid); what it cannot see is the same occurrence written twice, by the legacy
 * and the events.k8s.io recorder, so entries are keyed by the record's fingerprint and hold every
 * uid that showed it (count = the largest, not the sum: it is one occurrence seen twice).
 *
 * Events the API server deletes (they expire after an hour) are kept, marked expired: the rate
 * of a controller's events over the afternoon should not forget everything but the last hour.
 * Memory stays bounded: past `maxEvents` the least recently active entries go first.
 */
import type { EventRecord } from './normalize.ts';

/** One occurrence: the first record's description, with first/last/count merged over all. */
export interface MergedEvent {
  /** The first record's uid. */
  id: string;
  record: EventRecord;
  members: Array<{ record: EventRecord; expired: boolean }>;
  first: number;
  last: number;
  count: number;
  /** Every Event object showing it is gone from the API server. */
  expired: boolean;
}

export interface EventStore {
  upsert(record: EventRecord): void;
  /** The API server deleted the Event object `uid`: keep it, marked expired. */
  expire(uid: string): void;
  /** Forget everything (context switch). */
  clear(): void;
  values(): IterableIterator<MergedEvent>;
  size(): number;
  /** The oldest kept event time, or null when there is none. */
  since(): number | null;
}

/** Enough for a busy hour of a large cluster; each entry costs ~0.3 KB besides its strings. */
export const DEFAULT_MAX_EVENTS = 100_000;

function remerge(entry: MergedEvent): void {
  const [head] = entry.members;
  if (!head) return;
  entry.record = head.record;
  entry.id = head.record.uid;
  let first = Infinity;
  let last = -Infinity;
  let count = 1;
  let expired = true;
  for (const member of entry.members) {
    first = Math.min(first, member.record.first);
    last = Math.max(last, member.record.last);
    count = Math.max(count, member.record.count);
    expired &&= member.expired;
  }
  entry.first = first;
  entry.last = last;
  entry.count = count;
  entry.expired = expired;
}

export function createEventStore(options: { maxEvents?: number } = {}): EventStore {
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const byFingerprint = new Map<string, MergedEvent>();
  const byUid = new Map<string, MergedEvent>();

  function detach(uid: string): void {
    const entry = byUid.get(uid);
    if (!entry) return;
    byUid.delete(uid);
    entry.members = entry.members.filter((member) => member.record.uid !== uid);
    if (entry.members.length === 0) byFingerprint.delete(entry.record.fingerprint);
    else remerge(entry);
  }

  /** Drops the least recently active entries down to the limit, in one sort per ~10% overflow. */
  function evict(): void {
    if (byFingerprint.size <= maxEvents + Math.max(1, Math.floor(maxEvents / 10))) return;
    const oldest = [...byFingerprint.values()].sort((a, b) => a.last - b.last);
    for (const entry of oldest.slice(0, oldest.length - maxEvents)) {
      byFingerprint.delete(entry.record.fingerprint);
      for (const member of entry.members) byUid.delete(member.record.uid);
    }
  }

  return {
    upsert(record) {
      const current = byUid.get(record.uid);
      if (current && current.record.fingerprint === record.fingerprint) {
        const member = current.members.find((m) => m.record.uid === record.uid);
        if (member) {
          member.record = record;
          member.expired = false;
          remerge(current);
          return;
        }
      }
      detach(record.uid);
      let entry = byFingerprint.get(record.fingerprint);
      if (entry) {
        entry.members.push({ record, expired: false });
        remerge(entry);
      } else {
        entry = { id: record.uid, record, members: [{ record, expired: false }], first: record.first, last: record.last, count: record.count, expired: false };
        byFingerprint.set(record.fingerprint, entry);
      }
      byUid.set(record.uid, entry);
      evict();
    },
    expire(uid) {
      const entry = byUid.get(uid);
      if (!entry) return;
      for (const member of entry.members) if (member.record.uid === uid) member.expired = true;
      remerge(entry);
    },
    clear() {
      byFingerprint.clear();
      byUid.clear();
    },
    values: () => byFingerprint.values(),
    size: () => byFingerprint.size,
    since() {
      let oldest: number | null = null;
      for (const entry of byFingerprint.values()) if (oldest === null || entry.first < oldest) oldest = entry.first;
      return oldest;
    },
  };
}
