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
}

export interface Watch {
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

  const deliver = (change: Change): void => {
    if (change.resource !== id) return;
    if (namespacePrefix && !change.key.startsWith(namespacePrefix)) return;
    const now = matches(change.object);
    const before = change.type !== 'ADDED' && matches(change.old);
    if (change.type === 'ADDED') {
      if (now) sink({ type: 'ADDED', object: change.object });
    } else if (change.type === 'DELETED') {
      if (before || now) sink({ type: 'DELETED', object: change.object });
    } else if (now && before) sink({ type: 'MODIFIED', object: change.object });
    else if (now) sink({ type: 'ADDED', object: change.object });
    else if (before) sink({ type: 'DELETED', object: change.object });
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
  if (!fromNow) for (const change of backlog) deliver(change);
  const unsubscribe = store.onChange(deliver);
  let stopped = false;
  return {
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
