/**
 * The engine's object cache: slim objects by kind key and uid (the writer names the key: an
 * informer knows its kind, so no object's key is ever worked out from its fields). Informers write to it; the frame
 * stream and queries read it. Writes that change nothing (same resourceVersion) are dropped here,
 * so a relist after a watch failure emits only what actually changed.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { KindKey, ObjectRef, SlimObject } from '../../../shared/cluster.ts';
import { sharePod, ValuePool } from './shared-values.ts';

/**
 * One write to the cache, with the kind key of its object. An upsert carries the version it replaced (undefined for a create), so
 * a listener can tell a create from an update without keeping its own index of uids, and the
 * object's JSON when the writer had it (a list page decoded in the list worker): the history
 * recorder stores that, and the frame stream sends it (or `viewJson`, the JSON of the renderer's
 * form, stream/view.ts) instead of serialising the object again. The cache never keeps either.
 */
export type CacheChange =
  | { type: 'upsert'; kind: KindKey; object: SlimObject; previous: SlimObject | undefined; json?: string; viewJson?: string }
  | { type: 'delete'; kind: KindKey; ref: ObjectRef; object: SlimObject; left?: true };

/**
 * A delete with `left: true` is an object that left the view, not one the cluster deleted: its
 * namespace (or kind) is no longer watched because the user's permissions changed (a RoleBinding
 * revoked). Live views drop it like a delete; the history records that it stopped being observed
 * (history/left-view.ts) instead of marking it deleted.
 */
export const isLeave = (change: CacheChange): boolean => change.type === 'delete' && change.left === true;
export type CacheListener = (change: CacheChange) => void;
/**
 * A kind's list was written whole (cluster-wide, or in one `namespace`): what the list did not
 * hold is not there. The history closes the stretch out of view of a workload that is not
 * (left-view.ts): it was deleted while nobody could see it.
 */
export type ListedListener = (kind: KindKey, namespace: string | undefined) => void;

/** Options of an ObjectCache. */
export interface ObjectCacheOptions {
  /**
   * Its writers hand over objects nobody else holds (an informer's, parsed from the API's JSON):
   * a pod's repeated values are then replaced by shared equal ones (shared-values.ts), and the
   * parts it shares with other pods are frozen. A writer that keeps its objects and goes on
   * changing them (a test's in-process store) must leave this off.
   */
  sharePods?: boolean;
}

export class ObjectCache {
  private readonly byKind = new Map<KindKey, Map<string, SlimObject>>();
  private readonly listeners = new Set<CacheListener>();
  /** Pods' repeated strings and template parts, kept once (shared-values.ts), when sharing. */
  private readonly pool: ValuePool | undefined;
  private readonly listedListeners = new Set<ListedListener>();

  constructor(options: ObjectCacheOptions = {}) {
    this.pool = options.sharePods ? new ValuePool() : undefined;
  }

  private bucket(kind: KindKey): Map<string, SlimObject> {
    let bucket = this.byKind.get(kind);
    if (!bucket) {
      bucket = new Map();
      this.byKind.set(kind, bucket);
    }
    return bucket;
  }

  /**
   * Stores an object; returns false (and tells no one) when the same version is cached. `json`,
   * when given, must be `JSON.stringify(object)`; `viewJson`, `JSON.stringify(viewObject(object))`.
   * With `sharePods`, a pod's repeated values are replaced by shared equal ones (its JSON does
   * not change), so a stored pod's labels, owner references and container resources are frozen.
   */
  upsert(kind: KindKey, object: SlimObject, json?: string, viewJson?: string): boolean {
    const bucket = this.bucket(kind);
    const previous = bucket.get(object.metadata.uid);
    if (previous && previous.metadata.resourceVersion === object.metadata.resourceVersion) return false;
    if (this.pool && kind === BUILTIN_KEYS.Pod) sharePod(object, this.pool);
    bucket.set(object.metadata.uid, object);
    const change: CacheChange = { type: 'upsert', kind, object, previous };
    if (json !== undefined) change.json = json;
    if (viewJson !== undefined) change.viewJson = viewJson;
    this.emit(change);
    return true;
  }

  /** Removes an object; returns false when it was not cached. `left`: it left the view, it was not deleted (see isLeave). */
  delete(kind: KindKey, uid: string, left = false): boolean {
    const bucket = this.bucket(kind);
    const previous = bucket.get(uid);
    if (!previous) return false;
    bucket.delete(uid);
    this.emit({ type: 'delete', kind, ref: { kind, uid }, object: previous, ...(left ? { left: true as const } : {}) });
    return true;
  }

  /**
   * Makes a kind's cached objects equal to a fresh list: upserts what is new or changed,
   * deletes what is gone, and leaves unchanged objects (same resourceVersion) silent.
   */
  replaceKind(kind: KindKey, objects: readonly SlimObject[]): { upserted: number; deleted: number } {
    const seen = new Set<string>();
    let upserted = 0;
    let deleted = 0;
    for (const object of objects) {
      seen.add(object.metadata.uid);
      if (this.upsert(kind, object)) upserted += 1;
    }
    for (const uid of [...this.bucket(kind).keys()]) {
      if (!seen.has(uid) && this.delete(kind, uid)) deleted += 1;
    }
    for (const listener of this.listedListeners) listener(kind, undefined);
    return { upserted, deleted };
  }

  /**
   * `replaceKind` for one namespace's list: a restricted user's kind is listed namespace by
   * namespace into the same bucket, so a relist in one namespace must leave the others' objects.
   */
  replaceNamespace(kind: KindKey, namespace: string, objects: readonly SlimObject[]): { upserted: number; deleted: number } {
    const seen = new Set<string>();
    let upserted = 0;
    for (const object of objects) {
      seen.add(object.metadata.uid);
      if (this.upsert(kind, object)) upserted += 1;
    }
    const deleted = this.retain(kind, (object) => object.metadata.namespace !== namespace || seen.has(object.metadata.uid));
    for (const listener of this.listedListeners) listener(kind, namespace);
    return { upserted, deleted };
  }

  /** Deletes (and announces) a kind's objects that `keep` refuses; returns how many. */
  retain(kind: KindKey, keep: (object: SlimObject) => boolean): number {
    return this.drop(kind, keep, false);
  }

  /**
   * Removes a kind's objects that `keep` refuses as having left the view (their namespace or
   * kind is no longer watched: the user may not read them now), announced as deletes with
   * `left: true`; returns how many.
   */
  leave(kind: KindKey, keep: (object: SlimObject) => boolean): number {
    return this.drop(kind, keep, true);
  }

  private drop(kind: KindKey, keep: (object: SlimObject) => boolean, left: boolean): number {
    let removed = 0;
    for (const [uid, object] of [...this.bucket(kind)]) {
      if (!keep(object) && this.delete(kind, uid, left)) removed += 1;
    }
    return removed;
  }

  /** Forgets a kind without telling listeners (the whole stream starts over, e.g. context switch). */
  clear(): void {
    this.byKind.clear();
    this.pool?.clear();
  }

  get(kind: KindKey, uid: string): SlimObject | undefined {
    return this.byKind.get(kind)?.get(uid);
  }

  size(kind?: KindKey): number {
    if (kind) return this.byKind.get(kind)?.size ?? 0;
    let total = 0;
    for (const bucket of this.byKind.values()) total += bucket.size;
    return total;
  }

  /** Every cached object of one kind, or of all kinds. */
  list(kind?: KindKey): SlimObject[] {
    if (kind) return [...(this.byKind.get(kind)?.values() ?? [])];
    const out: SlimObject[] = [];
    for (const bucket of this.byKind.values()) for (const object of bucket.values()) out.push(object);
    return out;
  }

  /** Every cached object but those of one kind (Events, for keyframes and past states). */
  listExcept(kind: KindKey): SlimObject[] {
    const out: SlimObject[] = [];
    for (const [key, bucket] of this.byKind) if (key !== kind) for (const object of bucket.values()) out.push(object);
    return out;
  }

  /** Every cached object with its kind key (`kinds[i]` is the key of `objects[i]`). */
  listWithKinds(): { objects: SlimObject[]; kinds: KindKey[] } {
    const objects: SlimObject[] = [];
    const kinds: KindKey[] = [];
    for (const [kind, bucket] of this.byKind) {
      for (const object of bucket.values()) {
        objects.push(object);
        kinds.push(kind);
      }
    }
    return { objects, kinds };
  }

  /** The kind keys that hold objects. */
  kinds(): KindKey[] {
    return [...this.byKind].filter(([, bucket]) => bucket.size > 0).map(([kind]) => kind);
  }

  onChange(listener: CacheListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` after every `replaceKind` / `replaceNamespace` (see ListedListener). */
  onListed(listener: ListedListener): () => void {
    this.listedListeners.add(listener);
    return () => this.listedListeners.delete(listener);
  }

  private emit(change: CacheChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
