/**
 * Watches over the store, transport-agnostic: replay from a resourceVersion (410 when too old),
 * synthetic ADDED events for "start from now" watches and `sendInitialEvents`, selector
 * filtering with the in/out-of-selection transitions real watches show, and bookmarks.
 */
import { gone } from './errors.ts';
import { resourceId, type ResourceType } from './resources.ts';
import type { LabelSelector, FieldRequirement } from './selectors.ts';
import { matchesFields, matchesLabels } from './selectors.ts';
import type { ObjectStore } from './store.ts';
import type { Change } from './changelog.ts';
import type { KubeObject, WatchEvent } from './types.ts';

export interface WatchOptions {
  namespace?: string | undefined;
  labelSelector?: LabelSelector;
  fieldSelector?: FieldRequirement[];
  /** Unset, "0" or a number as a string. */
  resourceVersion?: string | undefined;
  sendInitialEvents?: boolean;
  allowWatchBookmarks?: boolean;
  /**
   * Leave the replay of the changes after `resourceVersion` to the caller (`Watch.backlog`)
   * instead of giving them to the sink before `startWatch` returns. The server sends a long
   * backlog a slice at a time, as kube-apiserver's cacheWatcher walks its interval.
   */
  deferReplay?: boolean;
}

export interface Watch {
  /**
   * With `deferReplay`: the replayed events, made one at a time as they are read (none is built
   * ahead). Every change the sink receives is newer than all of them. Empty otherwise.
   */
  backlog: Iterable<WatchEvent>;
  stop(): void;
  /** Sends a BOOKMARK at the store's current rv, if the client allowed bookmarks. */
  bookmark(extraAnnotations?: Record<string, string>): void;
}

export function bookmarkEvent(type: ResourceType, rv: number, annotations?: Record<string, string>): WatchEvent {
  const apiVersion = type.group === '' ? type.version : `${type.group}/${type.version}`;
  return {
    type: 'BOOKMARK',
    object: { kind: type.kind, apiVersion, metadata: { resourceVersion: String(rv), ...(annotations ? { annotations } : {}) } },
  };
}

/**
 * Starts a watch. Events go to `sink` synchronously as the store changes. Throws 410 Gone when
 * the requested resourceVersion has been compacted away.
 */
export function startWatch(store: ObjectStore, type: ResourceType, options: WatchOptions, sink: (event: WatchEvent) => void): Watch {
  const id = resourceId(type);
  const labels = options.labelSelector ?? [];
  const fields = options.fieldSelector ?? [];
  const namespacePrefix = type.namespaced && options.namespace ? `${options.namespace}/` : '';
  const matches = (object: KubeObject | undefined): boolean =>
    object !== undefined && (!namespacePrefix || object.metadata.namespace === options.namespace) && matchesLabels(labels, object.metadata.labels) && matchesFields(fields, object);

  /** What this watch sees of a change: nothing, or the event with its in/out-of-selection type. */
  const eventOf = (change: Change): WatchEvent | undefined => {
    if (change.resource !== id) return undefined;
    if (namespacePrefix && !change.key.startsWith(namespacePrefix)) return undefined;
    const now = matches(change.object);
    const before = change.type !== 'ADDED' && matches(change.old);
    if (change.type === 'ADDED') return now ? { type: 'ADDED', object: change.object } : undefined;
    if (change.type === 'DELETED') return before || now ? { type: 'DELETED', object: change.object } : undefined;
    if (now && before) return { type: 'MODIFIED', object: change.object };
    if (now) return { type: 'ADDED', object: change.object };
    return before ? { type: 'DELETED', object: change.object } : undefined;
  };
  const deliver = (change: Change): void => {
    const event = eventOf(change);
    if (event) sink(event);
  };

  const rvText = options.resourceVersion ?? '';
  const fromNow = rvText === '' || rvText === '0';
  let backlog: Change[] = [];
  if (!fromNow) {
    const rv = Number(rvText);
    if (!Number.isFinite(rv) || rv < 0) throw gone(`too old resource version: ${rvText}`);
    backlog = store.changesSince(rv);
  }
  const startRv = store.currentRv();
  // sendInitialEvents=false (with NotOlderThan) starts a watch from now without them.
  const initial = options.sendInitialEvents ?? fromNow;
  if (initial) {
    const objects = fromNow ? store.all(type, options.namespace) : store.allAt(type, Number(rvText), options.namespace);
    for (const object of objects) if (matches(object)) sink({ type: 'ADDED', object });
  }
  if (options.sendInitialEvents && options.allowWatchBookmarks) {
    sink(bookmarkEvent(type, fromNow ? startRv : Number(rvText), { 'k8s.io/initial-events-end': 'true' }));
  }
  // Initial events go to the sink, so a replay after them is given to it as well, in order.
  const deferred = options.deferReplay === true && !fromNow && !initial;
  if (!fromNow && !deferred) for (const change of backlog) deliver(change);
  const unsubscribe = store.onChange(deliver);
  let stopped = false;
  // The backlog array holds the changes themselves, so compaction meanwhile takes none of them away.
  const replay = function* (): Generator<WatchEvent> {
    for (const change of backlog) {
      if (stopped) return;
      const event = eventOf(change);
      if (event) yield event;
    }
  };
  return {
    backlog: deferred ? replay() : [],
    stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe();
    },
    bookmark(extraAnnotations) {
      if (!stopped && options.allowWatchBookmarks) sink(bookmarkEvent(type, store.currentRv(), extraAnnotations));
    },
  };
}
