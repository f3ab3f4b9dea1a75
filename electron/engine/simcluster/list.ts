/**
 * Lists with kube-apiserver's semantics: resourceVersion unset / "0" / NotOlderThan / Exact,
 * label and field selectors, and `limit` + `continue` pages served consistently at the first
 * page's resourceVersion (410 Gone once that version has left the retained window).
 */
import { ApiError, badRequest, gone, tooLargeResourceVersion } from './errors.ts';
import type { ResourceType } from './resources.ts';
import { matchesFields, matchesLabels, type FieldRequirement, type LabelSelector } from './selectors.ts';
import { objectKey, type ObjectStore } from './store.ts';
import type { KubeObject } from './types.ts';

export interface ListOptions {
  namespace?: string | undefined;
  labelSelector?: LabelSelector;
  fieldSelector?: FieldRequirement[];
  limit?: number | undefined;
  continueToken?: string | undefined;
  resourceVersion?: string | undefined;
  resourceVersionMatch?: string | undefined;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

interface ContinueState {
  v: 'meta.k8s.io/v1';
  rv: number;
  start: string;
}

export function encodeContinue(rv: number, lastKey: string): string {
  const state: ContinueState = { v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` };
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

export function decodeContinue(token: string): ContinueState {
  try {
    const state = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueState;
    if (state.v !== 'meta.k8s.io/v1' || typeof state.rv !== 'number' || typeof state.start !== 'string') throw new Error('bad');
    return state;
  } catch {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
}

const CONTINUE_GONE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

function parseRv(text: string): number {
  if (!/^\d+$/.test(text)) throw badRequest(`invalid resource version "${text}"`);
  return Number(text);
}

export function listObjects(store: ObjectStore, type: ResourceType, options: ListOptions): ListResult {
  const labels = options.labelSelector ?? [];
  const fields = options.fieldSelector ?? [];
  const namespace = type.namespaced ? options.namespace : undefined;
  let atRv = store.currentRv();
  let startAfter = '';
  if (options.continueToken) {
    if (options.resourceVersion && options.resourceVersion !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    const state = decodeContinue(options.continueToken);
    if (state.rv < store.oldestServableRv()) throw new ApiError(410, 'Expired', CONTINUE_GONE);
    atRv = state.rv;
    startAfter = state.start.endsWith('\u0000') ? state.start.slice(0, -1) : state.start;
  } else if (options.resourceVersion && options.resourceVersion !== '0') {
    const rv = parseRv(options.resourceVersion);
    if (options.resourceVersionMatch === 'Exact') {
      if (rv < store.oldestServableRv()) throw gone('The resourceVersion for the provided list is too old.');
      atRv = rv;
    } else if (rv > store.currentRv()) {
      throw tooLargeResourceVersion(rv, store.currentRv());
    }
  } else if (options.resourceVersionMatch && options.resourceVersionMatch !== 'NotOlderThan') {
    throw badRequest(`resourceVersionMatch "${options.resourceVersionMatch}" is forbidden for resourceVersion "${options.resourceVersion ?? ''}"`);
  }
  const source = atRv >= store.currentRv() ? store.all(type, namespace) : store.allAt(type, atRv, namespace);
  const filtered = labels.length === 0 && fields.length === 0 ? source : source.filter((o) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o));
  let begin = 0;
  if (startAfter) {
    let lo = 0;
    let hi = filtered.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const object = filtered[mid] as KubeObject;
      if (objectKey(object.metadata.namespace, object.metadata.name) <= startAfter) lo = mid + 1;
      else hi = mid;
    }
    begin = lo;
  }
  const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
  const items = filtered.slice(begin, begin + limit);
  const result: ListResult = { items, resourceVersion: String(atRv) };
  const rest = filtered.length - begin - items.length;
  if (rest > 0) {
    const last = items[items.length - 1] as KubeObject;
    result.continueToken = encodeContinue(atRv, objectKey(last.metadata.namespace, last.metadata.name));
    if (labels.length === 0 && fields.length === 0) result.remainingItemCount = rest;
  }
  return result;
}
