/**
 * Changes waiting for the next delta frame, coalesced per uid. The renderer only ever needs each
 * object's latest state, so a uid holds one entry however often it changes; the map is bounded by
 * the number of objects the cache or the renderer holds, never by the rate of change.
 */
import type { KindKey, ObjectRef, SlimObject } from '../../../shared/cluster.ts';
import type { CacheChange } from './cache.ts';
import { hasView } from './view.ts';

/** The latest state of one uid since the renderer last heard about it. */
export interface PendingChange {
  readonly kind: KindKey;
  readonly uid: string;
  /** Whether the renderer holds this uid (from the last snapshot or delta it was sent). */
  readonly known: boolean;
  /** The object's latest version, or null once it is deleted. */
  object: SlimObject | null;
  /** The JSON of the renderer's form of `object` (stream/view.ts) when the cache writer supplied it. */
  json: string | undefined;
}

/** The JSON a frame can send for a change's object as it is, if the writer made it. */
function frameJson(change: Extract<CacheChange, { type: 'upsert' }>): string | undefined {
  return hasView(change.kind) ? change.viewJson : change.json;
}

export class PendingChanges {
  private readonly byUid = new Map<string, PendingChange>();

  /**
   * Folds one cache write in. Latest state wins; a create followed by a delete leaves nothing
   * (the renderer never saw the object); a delete followed by a re-create of the same uid becomes
   * an upsert.
   */
  record(change: CacheChange): void {
    if (change.type === 'upsert') {
      const uid = change.object.metadata.uid;
      const entry = this.byUid.get(uid);
      if (entry) {
        entry.object = change.object;
        entry.json = frameJson(change);
      } else {
        this.byUid.set(uid, { kind: change.kind, uid, known: change.previous !== undefined, object: change.object, json: frameJson(change) });
      }
      return;
    }
    const entry = this.byUid.get(change.ref.uid);
    if (!entry) {
      this.byUid.set(change.ref.uid, { kind: change.ref.kind, uid: change.ref.uid, known: true, object: null, json: undefined });
    } else if (entry.known) {
      entry.object = null;
      entry.json = undefined;
    } else {
      this.byUid.delete(change.ref.uid);
    }
  }

  get size(): number {
    return this.byUid.size;
  }

  /** Entries oldest first; `take` may be called while iterating. */
  entries(): IterableIterator<PendingChange> {
    return this.byUid.values();
  }

  /** Removes an entry once a frame carries it. */
  take(uid: string): void {
    this.byUid.delete(uid);
  }

  /** Forgets everything (a snapshot of the whole cache supersedes it). */
  clear(): void {
    this.byUid.clear();
  }
}

/** The delete reference a frame carries for a deleted entry. */
export function refOf(entry: PendingChange): ObjectRef {
  return { kind: entry.kind, uid: entry.uid };
}
