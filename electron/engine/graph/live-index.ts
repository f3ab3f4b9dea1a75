/**
 * The graph's view of the live cache, kept up to date change by change: drawable objects by
 * namespace (custom resources and what pods use among them) (so a namespace's graph reads that namespace, not the cluster), Events by the uid
 * they are about, and change counters per namespace that `graph:changed` publishes. A Node bumps
 * its counter only when what the graph shows of it changes (Ready, cordoned, roles), not on every
 * heartbeat, so a quiet cluster does not make every open graph ask again.
 */
import { BUILTIN_KEYS, KindResolver } from '../../../shared/builtin-kinds.ts';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { GraphChanged } from '../../../shared/contracts/graph.ts';
import { groupKindOf } from '../../../shared/kinds.ts';
import type { CacheChange } from '../stream/cache.ts';
import { describeObject } from './health.ts';
import { involvedUid } from './detail.ts';
import { isGraphKind } from './kinds.ts';
import { createGraphIndex } from './objects.ts';

/** The cluster-scoped objects' namespace key (Nodes). */
export const CLUSTER_SCOPE = '';

const EMPTY_INDEX = createGraphIndex([]);

function nodeSignature(node: SlimObject): string {
  const { health, status, detail } = describeObject(node, EMPTY_INDEX);
  return `${health}|${status}|${detail ?? ''}`;
}

export interface LiveIndex {
  apply(change: CacheChange): void;
  /** Forgets everything (context switch) and takes `objects` (with their kind keys, `kinds[i]` for `objects[i]`) as the new content. */
  reset(context: string | null, objects: { objects: readonly SlimObject[]; kinds: readonly KindKey[] }): void;
  get(uid: string): SlimObject | undefined;
  /** The drawable objects of a namespace plus the Nodes; null: every drawable object. */
  objectsFor(namespace: string | null): SlimObject[];
  /** Events about `uid`; `name:<namespace>` holds a namespace's Events that name their object without a uid. */
  eventsAbout(uid: string): SlimObject[];
  /** The counters as `graph:changed` carries them. */
  counters(): GraphChanged;
  /** A key that changes whenever the graph of `namespace` (null: all) may have changed. */
  revisionKey(namespace: string | null): string;
  /**
   * The kinds of the objects the cache has given (built-in ones from the start): names the kinds
   * of live and past objects. Kept across context switches: a group and kind is one resource.
   */
  readonly resolver: KindResolver;
}

export function createLiveIndex(onChanged: () => void): LiveIndex {
  let context: string | null = null;
  const resolver = new KindResolver();
  /** Learns an object's kind key from the cache (a lookup when known, as it is after the first object). */
  const learn = (object: SlimObject, kind: KindKey): void => {
    if (resolver.keyOf(object.apiVersion, object.kind) === kind) return;
    const gk = groupKindOf(object);
    if (gk) resolver.add(kind, gk);
  };
  const byUid = new Map<string, SlimObject>();
  const byNamespace = new Map<string, Map<string, SlimObject>>();
  const events = new Map<string, Map<string, SlimObject>>();
  const objectRevisions = new Map<string, number>();
  const eventRevisions = new Map<string, number>();
  const nodeSignatures = new Map<string, string>();
  /** Every change; `objectsRevision` only the drawable objects' (Events do not change the graph). */
  let revision = 0;
  let objectsRevision = 0;
  /** Context switches so far: counters start over, so cached graphs of the old context must not match. */
  let resets = 0;

  const bump = (counters: Map<string, number>, namespace: string): void => {
    counters.set(namespace, (counters.get(namespace) ?? 0) + 1);
    revision += 1;
    if (counters === objectRevisions) objectsRevision += 1;
    onChanged();
  };
  const bucket = (namespace: string): Map<string, SlimObject> => {
    let map = byNamespace.get(namespace);
    if (!map) {
      map = new Map();
      byNamespace.set(namespace, map);
    }
    return map;
  };

  function putEvent(event: SlimObject, remove: boolean): void {
    const about = involvedUid(event) ?? `name:${event.metadata.namespace ?? ''}`;
    let map = events.get(about);
    if (remove) map?.delete(event.metadata.uid);
    else {
      if (!map) {
        map = new Map();
        events.set(about, map);
      }
      map.set(event.metadata.uid, event);
    }
    if (map?.size === 0) events.delete(about);
    bump(eventRevisions, event.metadata.namespace ?? CLUSTER_SCOPE);
  }

  function put(object: SlimObject, kind: KindKey, remove: boolean): void {
    if (kind === BUILTIN_KEYS.Event) {
      putEvent(object, remove);
      return;
    }
    if (!isGraphKind(kind)) return;
    if (!remove) learn(object, kind);
    const { uid } = object.metadata;
    const namespace = object.metadata.namespace ?? CLUSTER_SCOPE;
    if (remove) {
      byUid.delete(uid);
      byNamespace.get(namespace)?.delete(uid);
    } else {
      byUid.set(uid, object);
      bucket(namespace).set(uid, object);
    }
    if (kind === BUILTIN_KEYS.Node) {
      const signature = remove ? undefined : `${object.metadata.name}|${nodeSignature(object)}`;
      if (signature === nodeSignatures.get(uid)) return;
      if (signature === undefined) nodeSignatures.delete(uid);
      else nodeSignatures.set(uid, signature);
    }
    bump(objectRevisions, namespace);
  }

  return {
    apply(change) {
      if (change.type === 'upsert') put(change.object, change.kind, false);
      else put(change.object, change.kind, true);
    },
    reset(next, objects) {
      context = next;
      resets += 1;
      for (const map of [byUid, byNamespace, events, objectRevisions, eventRevisions, nodeSignatures]) map.clear();
      revision += 1;
      objectsRevision += 1;
      objects.objects.forEach((object, i) => put(object, objects.kinds[i] as KindKey, false));
      onChanged();
    },
    get: (uid) => byUid.get(uid),
    resolver,
    objectsFor(namespace) {
      if (namespace === null) return [...byUid.values()];
      return [...(byNamespace.get(namespace)?.values() ?? []), ...(namespace === CLUSTER_SCOPE ? [] : (byNamespace.get(CLUSTER_SCOPE)?.values() ?? []))];
    },
    eventsAbout: (uid) => [...(events.get(uid)?.values() ?? [])],
    counters: () => ({ context, revision, objects: Object.fromEntries(objectRevisions), events: Object.fromEntries(eventRevisions) }),
    revisionKey(namespace) {
      if (namespace === null) return `all:${objectsRevision}`;
      return `${resets}:${namespace}:${objectRevisions.get(namespace) ?? 0}:${objectRevisions.get(CLUSTER_SCOPE) ?? 0}`;
    },
  };
}
