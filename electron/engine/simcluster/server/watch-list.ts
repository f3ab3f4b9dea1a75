/**
 * The WatchList protocol (KEP-3157) as kube-apiserver serves it: a watch with
 * `sendInitialEvents=true&resourceVersionMatch=NotOlderThan` first streams the collection's current
 * objects as ADDED events, then (to clients that allowed bookmarks) a BOOKMARK annotated
 * `k8s.io/initial-events-end: "true"` at the resourceVersion the state was taken at, then watches on.
 *
 * NotOlderThan: the initial state is the store's current one, which is at least as new as any
 * resourceVersion asked for; an old or compacted one is accepted (no 410). One newer than the
 * store's waits for the store, as the watch cache does, up to 3 s; then the stream opens with one
 * ERROR event "Too large resource version" (504 Timeout), as the cacher's error watcher sends it.
 *
 * `sendInitialEvents=false` with NotOlderThan sends no initial events: the watch starts at the
 * resourceVersion (now when unset), as any watch does.
 */
import { ApiError, gone, tooLargeResourceVersion } from '../errors.ts';
import type { ResourceType } from '../resources.ts';
import { matchesFields, matchesLabels } from '../selectors.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject, WatchEvent } from '../types.ts';
import { bookmarkEvent, startWatch, type Watch } from '../watch.ts';
import type { ApiRequest } from './context.ts';
import { boolParam, type Selectors } from './wire.ts';

/** How long a watch asking for a resourceVersion newer than the store's waits (the watch cache's blockTimeout). */
export const FRESH_WAIT_MS = 3_000;
/** The annotation on the BOOKMARK that ends the initial events. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** The watch options that decide where a watch starts. */
export interface WatchStart {
  /** Set when the request had the parameter (true or false). */
  sendInitialEvents: boolean | undefined;
  resourceVersion: string | undefined;
}

interface FieldProblem {
  field: string;
  reason: 'FieldValueForbidden' | 'FieldValueNotSupported';
  detail: string;
}

/** Go's field.Error text: `<field>: Forbidden: <detail>` or `<field>: Unsupported value: ...`. */
function describe(problem: FieldProblem): string {
  return `${problem.field}: ${problem.reason === 'FieldValueForbidden' ? 'Forbidden' : 'Unsupported value'}: ${problem.detail}`;
}

/**
 * Upstream's validateWatchOptions (apimachinery meta/internalversion/validation, 1.27 on).
 * allowWatchBookmarks is not required: upstream leaves it out so that watches asking for initial
 * events the old way keep working; such a watch gets no end bookmark. With the WatchList feature
 * gate off, any sendInitialEvents is forbidden besides.
 */
export function watchOptionProblems(req: ApiRequest, watchListEnabled = true): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const match = req.query.get('resourceVersionMatch') ?? '';
  const hasInitial = req.query.has('sendInitialEvents');
  if (hasInitial && match !== 'NotOlderThan') {
    problems.push({ field: 'resourceVersionMatch', reason: 'FieldValueForbidden', detail: 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan' });
  }
  if (hasInitial && !watchListEnabled) {
    problems.push({ field: 'sendInitialEvents', reason: 'FieldValueForbidden', detail: 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled' });
  }
  if (match) {
    if (!hasInitial) problems.push({ field: 'resourceVersionMatch', reason: 'FieldValueForbidden', detail: 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided' });
    if (match !== 'NotOlderThan') problems.push({ field: 'resourceVersionMatch', reason: 'FieldValueNotSupported', detail: `"${match}": supported values: "NotOlderThan"` });
    if (req.query.get('continue')) problems.push({ field: 'resourceVersionMatch', reason: 'FieldValueForbidden', detail: 'resourceVersionMatch is forbidden when continue is provided' });
  }
  return problems;
}

/** Validates a watch's options (422 Invalid with every problem, as upstream) and reads where it starts. */
export function watchStartOf(req: ApiRequest, watchListEnabled = true): WatchStart {
  const problems = watchOptionProblems(req, watchListEnabled);
  if (problems.length > 0) {
    const texts = problems.map(describe);
    const message = `ListOptions.meta.k8s.io "" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`;
    throw new ApiError(422, 'Invalid', message, {
      group: 'meta.k8s.io',
      kind: 'ListOptions',
      causes: problems.map((p) => ({ reason: p.reason, message: describe(p).slice(p.field.length + 2), field: p.field })),
    });
  }
  return {
    sendInitialEvents: req.query.has('sendInitialEvents') ? boolParam(req, 'sendInitialEvents') : undefined,
    resourceVersion: req.query.get('resourceVersion') ?? undefined,
  };
}

/**
 * Resolves once the store has reached `rv` (at once if it has), or rejects with the too-large
 * error after `waitMs`, or when `aborted` fires first resolves quietly (the client went away).
 */
export function waitForResourceVersion(store: ObjectStore, rv: number, waitMs: number, aborted: AbortSignal): Promise<void> {
  if (store.currentRv() >= rv) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (error?: ApiError): void => {
      unsubscribe();
      clearTimeout(timer);
      aborted.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onAbort = (): void => done();
    const unsubscribe = store.onChange(() => {
      if (store.currentRv() >= rv) done();
    });
    const timer = setTimeout(() => done(tooLargeResourceVersion(rv, store.currentRv())), waitMs);
    aborted.addEventListener('abort', onAbort);
  });
}

export interface InitialEventsOptions extends Selectors {
  namespace: string | undefined;
  allowWatchBookmarks: boolean;
}

/** The initial state of a WatchList and the watch that goes on from it. */
export interface InitialEvents {
  /** The matching objects at `rv`, in key order (references, nothing serialised yet). */
  objects: KubeObject[];
  /** The resourceVersion of the state. */
  rv: number;
  /** The initial-events-end BOOKMARK, when the client allowed bookmarks. */
  bookmark: WatchEvent | undefined;
  /** Delivers every change after `rv` to the sink. */
  watch: Watch;
}

/**
 * Takes the current state of `type` and starts the watch from it, in one synchronous step so
 * that no change falls between the two. The caller streams `objects`, then `bookmark`, then
 * whatever the sink received meanwhile.
 */
export function beginInitialEvents(store: ObjectStore, type: ResourceType, options: InitialEventsOptions, sink: (event: WatchEvent) => void): InitialEvents {
  const rv = store.currentRv();
  const labels = options.labelSelector ?? [];
  const fields = options.fieldSelector ?? [];
  const namespace = type.namespaced ? options.namespace : undefined;
  const all = store.all(type, namespace);
  const objects = labels.length === 0 && fields.length === 0 ? all : all.filter((o) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o));
  // From `rv` exactly: no replay (nothing is newer yet) and no synthetic ADDED events.
  const watch = startWatch(store, type, { ...options, namespace, resourceVersion: String(rv), sendInitialEvents: false }, sink);
  const bookmark = options.allowWatchBookmarks ? bookmarkEvent(type, rv, { [INITIAL_EVENTS_END_ANNOTATION]: 'true' }) : undefined;
  return { objects, rv, bookmark, watch };
}

/** The resourceVersion a NotOlderThan watch asks for: 0 when unset or "0"; 410 like other watches when unparsable. */
export function requestedRv(resourceVersion: string | undefined): number {
  if (resourceVersion === undefined || resourceVersion === '' || resourceVersion === '0') return 0;
  const rv = Number(resourceVersion);
  if (!Number.isInteger(rv) || rv < 0) throw gone(`too old resource version: ${resourceVersion}`);
  return rv;
}
