/**
 * The graph feature: implements the `graph:*` channels of shared/contracts/graph.ts. Live graphs
 * are built from the feature's own namespace index of the cache (live-index.ts), cached per scope
 * until that namespace changes; past ones from the history feature's `objectsAt`, their kinds
 * named by what the cache has held (so a custom resource of the past resolves too). Changes are
 * published as throttled counters on `graph:changed`, which the view watches instead of polling.
 */
import { BUILTIN_KEYS, isBuiltinObject } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { GraphRequest, GraphResult, graphRequests } from '../../../shared/contracts/graph.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import type { EngineContext, Feature } from '../features.ts';
import { buildGraph, type GraphBuild } from './build.ts';
import type { Limits } from './collapse.ts';
import { isAbout, objectDetail } from './detail.ts';
import { createLiveIndex, CLUSTER_SCOPE } from './live-index.ts';
import { isKind } from './kinds.ts';
import { createGraphIndex, type GraphIndex } from './objects.ts';

/** At most one `graph:changed` per this many ms, however fast the cluster changes. */
export const GRAPH_CHANGED_THROTTLE_MS = 500;
/** Live graphs kept for repeated asks (several windows, expand then collapse). */
const CACHED_GRAPHS = 16;

export interface GraphFeatureOptions {
  throttleMs?: number;
  limits?: Partial<Limits>;
}

const iso = (at: number): string => new Date(at).toISOString();

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createGraphFeature(context: EngineContext, options: GraphFeatureOptions = {}): Feature<typeof graphRequests> {
  const throttleMs = options.throttleMs ?? GRAPH_CHANGED_THROTTLE_MS;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const publish = (): void => {
    timer = null;
    context.hub.emit('graph:changed', live.counters());
  };
  const live = createLiveIndex(() => {
    timer ??= setTimeout(publish, throttleMs);
  });
  live.reset(context.selected()?.name ?? null, context.cache.listWithKinds());
  const stopCache = context.cache.onChange((change) => live.apply(change));
  const stopContext = context.onContextChange((selected) => live.reset(selected?.name ?? null, context.cache.listWithKinds()));
  const cache = new Map<string, { revision: string; build: GraphBuild }>();
  /** The user's status rules (Settings → status rules): they colour custom resources. */
  const userRules = () => context.settings.get().statusRules ?? [];

  /** The namespace whose objects a request needs (null: all of them). */
  function liveScope(request: GraphRequest): string | null | undefined {
    if (!request.focus) return request.namespace ?? null;
    const focus = live.get(request.focus);
    if (!focus) return undefined;
    // A Node's pods live in every namespace; anything else's graph stays in its own.
    return isKind(focus, 'Node') ? null : (focus.metadata.namespace ?? CLUSTER_SCOPE);
  }

  function build(index: GraphIndex, request: GraphRequest): GraphBuild | null {
    return buildGraph(index, {
      namespace: request.namespace ?? null,
      focus: request.focus ?? null,
      expand: new Set(request.expand ?? []),
      ...(options.limits ? { limits: options.limits } : {}),
    });
  }

  function liveGraph(request: GraphRequest): GraphBuild | null {
    const scope = liveScope(request);
    if (scope === undefined) return null;
    const key = JSON.stringify([request.namespace ?? null, request.focus ?? null, [...(request.expand ?? [])].sort()]);
    // New status rules recolour what is cached: they are part of what a cached graph was built with.
    const revision = `${live.revisionKey(scope)}|${JSON.stringify(userRules())}`;
    const hit = cache.get(key);
    if (hit && hit.revision === revision) return hit.build;
    const result = build(createGraphIndex(live.objectsFor(scope), live.resolver, userRules()), request);
    if (result) {
      cache.delete(key);
      cache.set(key, { revision, build: result });
      if (cache.size > CACHED_GRAPHS) cache.delete(cache.keys().next().value as string);
    }
    return result;
  }

  /** The objects at a past time, or the error to answer with. */
  async function past(at: number): Promise<{ objects: SlimObject[]; at: number } | { error: ReturnType<typeof err> }> {
    try {
      return await context.objectsAt(at);
    } catch (error) {
      return { error: err('unavailable', `The cluster at ${iso(at)} is not available: ${describeError(error)}`) };
    }
  }

  const notFound = (uid: string, at: number | undefined): ReturnType<typeof err> =>
    err('not-found', at === undefined ? `No object with uid ${uid} is in the cluster (it may have been deleted).` : `No object with uid ${uid} existed at ${iso(at)}.`);

  return {
    handlers: {
      async 'graph:get'(request): Promise<Result<GraphResult>> {
        const base = { context: context.selected()?.name ?? null, namespace: request.focus ? null : (request.namespace ?? null), focus: request.focus ?? null };
        if (request.at === undefined) {
          const graph = liveGraph(request);
          return graph ? ok({ ...base, at: null, revision: live.counters().revision, ...graph }) : notFound(request.focus ?? '', undefined);
        }
        const state = await past(request.at);
        if ('error' in state) return state.error;
        const graph = build(createGraphIndex(state.objects, live.resolver, userRules()), request);
        return graph ? ok({ ...base, at: state.at, revision: 0, ...graph }) : notFound(request.focus ?? '', request.at);
      },
      async 'graph:object'({ uid, at }) {
        if (at === undefined) {
          const object = live.get(uid);
          if (!object) return notFound(uid, undefined);
          const index = createGraphIndex(live.objectsFor(object.metadata.namespace ?? CLUSTER_SCOPE), live.resolver, userRules());
          const events = [...live.eventsAbout(uid), ...live.eventsAbout(`name:${object.metadata.namespace ?? ''}`).filter((event) => isAbout(event, object))];
          return ok(objectDetail(object, index, events, null));
        }
        const state = await past(at);
        if ('error' in state) return state.error;
        const index = createGraphIndex(state.objects, live.resolver, userRules());
        const object = index.get(uid);
        if (!object) return notFound(uid, at);
        return ok(objectDetail(object, index, state.objects.filter((candidate) => isBuiltinObject(candidate, BUILTIN_KEYS.Event) && isAbout(candidate, object)), state.at));
      },
    },
    dispose() {
      stopCache();
      stopContext();
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
