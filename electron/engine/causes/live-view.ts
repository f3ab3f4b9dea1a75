/**
 * A CauseView the causes feature keeps up to date from the cache's changes, one object at a time,
 * so finding causes never rebuilds an index of all objects (50,000 pods stay indexed, not
 * re-read). `all()` yields only the objects that can drift — core objects (pods, nodes, claims)
 * are leaves the finder reaches through the indexes — so a pass over the drifting workloads
 * costs the number of workloads, not of pods.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { GK, groupOf, isEvent, isKind, section, text } from './objects.ts';
import type { CauseView } from './types.ts';
import { involvedUid } from './view.ts';

const nameKey = (group: string, kind: string, namespace: string | undefined, name: string): string => `${group}\u0000${kind}\u0000${namespace ?? ''}\u0000${name}`;

/** A map of buckets keyed by uid, so a removal is O(1) and a lookup materialises only its own bucket. */
class Buckets {
  private readonly map = new Map<string, Map<string, SlimObject>>();
  add(key: string, object: SlimObject): void {
    let bucket = this.map.get(key);
    if (!bucket) this.map.set(key, (bucket = new Map()));
    bucket.set(object.metadata.uid, object);
  }
  remove(key: string, uid: string): void {
    const bucket = this.map.get(key);
    if (!bucket) return;
    bucket.delete(uid);
    if (bucket.size === 0) this.map.delete(key);
  }
  values(key: string): SlimObject[] {
    const bucket = this.map.get(key);
    return bucket ? [...bucket.values()] : [];
  }
  clear(): void {
    this.map.clear();
  }
}

/** A live CauseView: feed it every upsert and delete, read it between them. */
export interface LiveCauseView extends CauseView {
  upsert(object: SlimObject): void;
  delete(uid: string): void;
  clear(): void;
  /** Objects indexed (Events included). */
  size(): number;
}

const podNode = (object: SlimObject): string | undefined => (isKind(object, GK.Pod) ? text(section(object, 'spec')['nodeName']) : undefined);
/** Core and Event objects never drift themselves (the finder's isDrifting says so too). */
const mayDrift = (object: SlimObject): boolean => groupOf(object.apiVersion) !== '' && !isEvent(object);

export function createLiveCauseView(): LiveCauseView {
  const byUid = new Map<string, SlimObject>();
  const dependents = new Buckets();
  const onNode = new Buckets();
  const events = new Buckets();
  const byName = new Map<string, SlimObject>();
  const candidates = new Map<string, SlimObject>();

  function unindex(object: SlimObject): void {
    const uid = object.metadata.uid;
    byUid.delete(uid);
    candidates.delete(uid);
    if (isEvent(object)) {
      const about = involvedUid(object);
      if (about) events.remove(about, uid);
      return;
    }
    for (const owner of object.metadata.ownerReferences ?? []) dependents.remove(owner.uid, uid);
    const node = podNode(object);
    if (node) onNode.remove(node, uid);
    // Pods are never filed by name (index below).
    if (isKind(object, GK.Pod)) return;
    const key = nameKey(groupOf(object.apiVersion), object.kind, object.metadata.namespace, object.metadata.name);
    if (byName.get(key)?.metadata.uid === uid) byName.delete(key);
  }

  /** Whether every index files `next` where it files `previous` (same kind, name, owners, node, or Event subject). */
  function sameKeys(previous: SlimObject, next: SlimObject): boolean {
    if (previous.kind !== next.kind || previous.apiVersion !== next.apiVersion) return false;
    if (isEvent(next)) return involvedUid(previous) === involvedUid(next);
    const a = previous.metadata;
    const b = next.metadata;
    if (a.name !== b.name || a.namespace !== b.namespace) return false;
    if (podNode(previous) !== podNode(next)) return false;
    // Shared pods hold their owner's one list (stream/shared-values.ts): usually the same array.
    const ownersA = a.ownerReferences ?? [];
    const ownersB = b.ownerReferences ?? [];
    if (ownersA === ownersB) return true;
    return ownersA.length === ownersB.length && ownersA.every((owner, i) => owner.uid === ownersB[i]?.uid);
  }

  function index(object: SlimObject): void {
    const uid = object.metadata.uid;
    byUid.set(uid, object);
    if (isEvent(object)) {
      const about = involvedUid(object);
      if (about) events.add(about, object);
      return;
    }
    if (mayDrift(object)) candidates.set(uid, object);
    for (const owner of object.metadata.ownerReferences ?? []) dependents.add(owner.uid, object);
    const node = podNode(object);
    if (node) onNode.add(node, object);
    if (!isKind(object, GK.Pod)) byName.set(nameKey(groupOf(object.apiVersion), object.kind, object.metadata.namespace, object.metadata.name), object);
  }

  return {
    upsert(object) {
      const previous = byUid.get(object.metadata.uid);
      // An update that moves the object in no index (a pod's status changed, nothing else) is
      // filed again where it is: each Map.set replaces its entry in place. Taking every entry out
      // and putting it back was this view's cost at 5,000 pod updates a second.
      if (previous && !sameKeys(previous, object)) unindex(previous);
      index(object);
    },
    delete(uid) {
      const previous = byUid.get(uid);
      if (previous) unindex(previous);
    },
    clear() {
      for (const map of [byUid, byName, candidates]) map.clear();
      for (const buckets of [dependents, onNode, events]) buckets.clear();
    },
    size: () => byUid.size,
    get: (uid) => {
      const object = byUid.get(uid);
      return object && !isEvent(object) ? object : undefined;
    },
    dependents: (uid) => dependents.values(uid),
    podsOnNode: (name) => onNode.values(name),
    byName: (group, kind, namespace, name) => (group === GK.Pod.group && kind === GK.Pod.kind ? undefined : byName.get(nameKey(group, kind, namespace, name))),
    eventsAbout: (uid) => events.values(uid),
    all: () => candidates.values(),
  };
}
