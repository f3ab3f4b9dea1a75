/**
 * The renderer's copy of the engine cache: slim objects by kind and uid, plus indexes by
 * namespace and by owner uid. Plain Maps, no reactivity: the cluster store applies one batch
 * at a time and then tells Vue which kinds changed.
 */
import type { KindKey, ObjectRef, SlimObject } from '../../../shared/cluster.ts';

/** What the e2e consistency checker compares with the simulator and the engine cache. */
export interface ObjectStamp {
  kind: KindKey;
  uid: string;
  resourceVersion: string;
}

export interface ObjectIndex {
  /** Objects of one kind by uid (empty when none arrived). */
  objects(kind: KindKey): ReadonlyMap<string, SlimObject>;
  /** Refs of the objects in a namespace, any kind. */
  inNamespace(namespace: string): ReadonlyMap<string, ObjectRef>;
  /** Refs of the objects whose ownerReferences name `ownerUid`. */
  ownedBy(ownerUid: string): ReadonlyMap<string, ObjectRef>;
  /** Namespaces that hold at least one object, sorted. */
  namespaces(): string[];
  /** Makes the index equal to a snapshot (`kinds[i]`: the kind key of `objects[i]`); returns every kind that was or is now present. */
  replaceAll(objects: readonly SlimObject[], kinds: readonly KindKey[]): Set<KindKey>;
  /** Applies one delta (`kinds[i]`: the kind key of `upserts[i]`); returns the kinds it touched. */
  applyDeltas(upserts: readonly SlimObject[], kinds: readonly KindKey[], deletes: readonly ObjectRef[]): Set<KindKey>;
  /** Forgets everything; returns the kinds that were present. */
  clear(): Set<KindKey>;
  size(): number;
  stamps(): ObjectStamp[];
}

const EMPTY: ReadonlyMap<string, never> = new Map<string, never>();

function addTo<V>(index: Map<string, Map<string, V>>, key: string, uid: string, value: V): void {
  let bucket = index.get(key);
  if (!bucket) {
    bucket = new Map();
    index.set(key, bucket);
  }
  bucket.set(uid, value);
}

function removeFrom<V>(index: Map<string, Map<string, V>>, key: string, uid: string): void {
  const bucket = index.get(key);
  if (!bucket) return;
  bucket.delete(uid);
  // Empty buckets go, so namespaces() lists only namespaces that still hold something.
  if (bucket.size === 0) index.delete(key);
}

/** Creates an empty index. */
export function createObjectIndex(): ObjectIndex {
  const byKind = new Map<KindKey, Map<string, SlimObject>>();
  const byNamespace = new Map<string, Map<string, ObjectRef>>();
  const byOwner = new Map<string, Map<string, ObjectRef>>();
  let total = 0;

  function link(object: SlimObject, kind: KindKey): void {
    const { uid, namespace, ownerReferences } = object.metadata;
    const ref: ObjectRef = { kind, uid };
    if (namespace) addTo(byNamespace, namespace, uid, ref);
    for (const owner of ownerReferences ?? []) addTo(byOwner, owner.uid, uid, ref);
  }

  function unlink(object: SlimObject): void {
    const { uid, namespace, ownerReferences } = object.metadata;
    if (namespace) removeFrom(byNamespace, namespace, uid);
    for (const owner of ownerReferences ?? []) removeFrom(byOwner, owner.uid, uid);
  }

  function upsert(object: SlimObject, kind: KindKey): void {
    let bucket = byKind.get(kind);
    if (!bucket) {
      bucket = new Map();
      byKind.set(kind, bucket);
    }
    const previous = bucket.get(object.metadata.uid);
    if (previous) unlink(previous);
    else total += 1;
    bucket.set(object.metadata.uid, object);
    link(object, kind);
  }

  function remove(ref: ObjectRef): boolean {
    const bucket = byKind.get(ref.kind);
    const previous = bucket?.get(ref.uid);
    if (!bucket || !previous) return false;
    bucket.delete(ref.uid);
    unlink(previous);
    total -= 1;
    return true;
  }

  function clear(): Set<KindKey> {
    const kinds = new Set(byKind.keys());
    byKind.clear();
    byNamespace.clear();
    byOwner.clear();
    total = 0;
    return kinds;
  }

  return {
    objects: (kind) => byKind.get(kind) ?? EMPTY,
    inNamespace: (namespace) => byNamespace.get(namespace) ?? EMPTY,
    ownedBy: (ownerUid) => byOwner.get(ownerUid) ?? EMPTY,
    namespaces: () => [...byNamespace.keys()].sort(),
    replaceAll(objects, objectKinds) {
      const kinds = clear();
      objects.forEach((object, i) => {
        const kind = objectKinds[i] as KindKey;
        upsert(object, kind);
        kinds.add(kind);
      });
      return kinds;
    },
    applyDeltas(upserts, upsertKinds, deletes) {
      const kinds = new Set<KindKey>();
      upserts.forEach((object, i) => {
        const kind = upsertKinds[i] as KindKey;
        upsert(object, kind);
        kinds.add(kind);
      });
      for (const ref of deletes) if (remove(ref)) kinds.add(ref.kind);
      return kinds;
    },
    clear,
    size: () => total,
    stamps() {
      const out: ObjectStamp[] = [];
      for (const [kind, bucket] of byKind) {
        for (const object of bucket.values()) out.push({ kind, uid: object.metadata.uid, resourceVersion: object.metadata.resourceVersion });
      }
      return out;
    },
  };
}
