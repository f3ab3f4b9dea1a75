/**
 * Which of the watched kinds the API server serves, and where: aggregated discovery (two
 * requests, Kubernetes 1.26+) with the per-group-version resource lists as fallback. A kind the
 * server does not serve, or serves without list and watch, comes back with the reason instead.
 * Secrets are not a watched kind and are never looked for.
 */
import { BUILTIN_KEYS, builtinKind } from '../../../../shared/builtin-kinds.ts';
import type { KindKey } from '../../../../shared/cluster.ts';
import { ApiStatusError, getJson, type Transport } from './http.ts';

/** Where one kind is listed and watched, cluster-wide. */
export interface ResourceEndpoint {
  /** The kind key the cache files its objects under. */
  kind: KindKey;
  /** The objects' Kubernetes kind (`Deployment`). */
  objectKind: string;
  group: string;
  version: string;
  /** The plural resource name (the URL segment). */
  resource: string;
  /** `v1` or `group/version`. */
  apiVersion: string;
  namespaced: boolean;
  /** `/api/v1/pods`, `/apis/apps/v1/deployments`. */
  path: string;
}

/** One kind's discovery result: its endpoints in order of preference, or why there is none. */
export type DiscoveredKind = { kind: KindKey; endpoints: ResourceEndpoint[] } | { kind: KindKey; unavailable: string };

interface Candidate {
  group: string;
  version: string;
  resource: string;
}

/**
 * Where each kind may be served, preferred first. Events come from both APIs (one stored object,
 * two views): core/v1 first, as its shape is the one the cache keeps; events.k8s.io/v1 takes over
 * when the core API is forbidden. Older group versions cover clusters before 1.21 / 1.23.
 */
const CANDIDATES: Readonly<Record<string, readonly Candidate[]>> = {
  [BUILTIN_KEYS.Namespace]: [{ group: '', version: 'v1', resource: 'namespaces' }],
  [BUILTIN_KEYS.Node]: [{ group: '', version: 'v1', resource: 'nodes' }],
  [BUILTIN_KEYS.Pod]: [{ group: '', version: 'v1', resource: 'pods' }],
  [BUILTIN_KEYS.Service]: [{ group: '', version: 'v1', resource: 'services' }],
  [BUILTIN_KEYS.Deployment]: [{ group: 'apps', version: 'v1', resource: 'deployments' }],
  [BUILTIN_KEYS.ReplicaSet]: [{ group: 'apps', version: 'v1', resource: 'replicasets' }],
  [BUILTIN_KEYS.StatefulSet]: [{ group: 'apps', version: 'v1', resource: 'statefulsets' }],
  [BUILTIN_KEYS.DaemonSet]: [{ group: 'apps', version: 'v1', resource: 'daemonsets' }],
  [BUILTIN_KEYS.Job]: [{ group: 'batch', version: 'v1', resource: 'jobs' }],
  [BUILTIN_KEYS.CronJob]: [
    { group: 'batch', version: 'v1', resource: 'cronjobs' },
    { group: 'batch', version: 'v1beta1', resource: 'cronjobs' },
  ],
  [BUILTIN_KEYS.HorizontalPodAutoscaler]: [
    { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
    { group: 'autoscaling', version: 'v2beta2', resource: 'horizontalpodautoscalers' },
  ],
  [BUILTIN_KEYS.Event]: [
    { group: '', version: 'v1', resource: 'events' },
    { group: 'events.k8s.io', version: 'v1', resource: 'events' },
  ],
};

/**
 * Kinds beyond the built-in ones a watcher may be given by key (the background recorder reads
 * ControllerRevisions for the rollouts of StatefulSets and DaemonSets), with their object kind.
 */
const EXTRA_KINDS: Readonly<Record<string, { kind: string; candidates: readonly Candidate[] }>> = {
  'controllerrevisions.apps': { kind: 'ControllerRevision', candidates: [{ group: 'apps', version: 'v1', resource: 'controllerrevisions' }] },
};

/** What discovery says about one resource of one group version. */
interface ServedResource {
  kind: string;
  namespaced: boolean;
  verbs: readonly string[];
}

/** Served resources by `group/version/resource`. */
type ServedIndex = Map<string, ServedResource>;

const keyOf = (group: string, version: string, resource: string) => `${group}/${version}/${resource}`;

const AGGREGATED_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

interface AggregatedList {
  kind?: string;
  items?: Array<{
    metadata?: { name?: string };
    versions?: Array<{ version?: string; resources?: Array<{ resource?: string; responseKind?: { kind?: string }; scope?: string; verbs?: string[] }> }>;
  }>;
}

interface ResourceList {
  resources?: Array<{ name?: string; kind?: string; namespaced?: boolean; verbs?: string[] }>;
}

function indexAggregated(list: AggregatedList, index: ServedIndex): void {
  for (const group of list.items ?? []) {
    const name = group.metadata?.name ?? '';
    for (const version of group.versions ?? []) {
      for (const r of version.resources ?? []) {
        if (!r.resource || !version.version) continue;
        index.set(keyOf(name, version.version, r.resource), { kind: r.responseKind?.kind ?? '', namespaced: r.scope === 'Namespaced', verbs: r.verbs ?? [] });
      }
    }
  }
}

function indexResourceList(group: string, version: string, list: ResourceList, index: ServedIndex): void {
  for (const r of list.resources ?? []) {
    // Subresources (`pods/status`) are not listable kinds.
    if (!r.name || r.name.includes('/')) continue;
    index.set(keyOf(group, version, r.name), { kind: r.kind ?? '', namespaced: r.namespaced ?? false, verbs: r.verbs ?? [] });
  }
}

async function aggregatedIndex(transport: Transport, signal: AbortSignal): Promise<ServedIndex | undefined> {
  const [core, named] = (await Promise.all([
    getJson(transport, '/api', { signal, accept: AGGREGATED_ACCEPT }),
    getJson(transport, '/apis', { signal, accept: AGGREGATED_ACCEPT }),
  ])) as [AggregatedList, AggregatedList];
  if (core.kind !== 'APIGroupDiscoveryList' || named.kind !== 'APIGroupDiscoveryList') return undefined;
  const index: ServedIndex = new Map();
  indexAggregated(core, index);
  indexAggregated(named, index);
  return index;
}

/** The legacy way: one APIResourceList per group version; 404 means the group version is not served. */
async function legacyIndex(transport: Transport, signal: AbortSignal, kinds: readonly KindKey[]): Promise<ServedIndex> {
  const groupVersions = new Map<string, Candidate>();
  for (const kind of kinds) for (const c of CANDIDATES[kind] ?? EXTRA_KINDS[kind]?.candidates ?? []) groupVersions.set(`${c.group}/${c.version}`, c);
  const index: ServedIndex = new Map();
  await Promise.all(
    [...groupVersions.values()].map(async ({ group, version }) => {
      const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
      try {
        indexResourceList(group, version, (await getJson(transport, path, { signal })) as ResourceList, index);
      } catch (error) {
        if (error instanceof ApiStatusError && error.status === 404) return;
        throw error;
      }
    }),
  );
  return index;
}

function endpointOf(kind: KindKey, c: Candidate, served: ServedResource): ResourceEndpoint {
  return {
    kind,
    objectKind: served.kind,
    ...c,
    apiVersion: c.group ? `${c.group}/${c.version}` : c.version,
    namespaced: served.namespaced,
    path: c.group ? `/apis/${c.group}/${c.version}/${c.resource}` : `/api/${c.version}/${c.resource}`,
  };
}

function resolveKind(kind: KindKey, index: ServedIndex): DiscoveredKind {
  const extra = EXTRA_KINDS[kind];
  const candidates = CANDIDATES[kind] ?? extra?.candidates;
  const objectKind = builtinKind(kind)?.ref.kind ?? extra?.kind;
  // Kinds beyond the built-in ones come from the discovery registry (cluster/discovery/).
  if (!candidates || !objectKind) return { kind, unavailable: `${kind} is not a built-in kind.` };
  const served = candidates.flatMap((c) => {
    const entry = index.get(keyOf(c.group, c.version, c.resource));
    return entry && entry.kind === objectKind ? [{ c, entry }] : [];
  });
  const names = candidates.map((c) => `${c.resource}${c.group ? `.${c.group}` : ''}/${c.version}`).join(' or ');
  if (served.length === 0) return { kind, unavailable: `This cluster does not serve ${names}.` };
  const watchable = served.filter(({ entry }) => entry.verbs.includes('list') && entry.verbs.includes('watch'));
  if (watchable.length === 0) return { kind, unavailable: `This cluster serves ${names} without the list and watch verbs.` };
  return { kind, endpoints: watchable.map(({ c, entry }) => endpointOf(kind, c, entry)) };
}

/**
 * Discovers the given kinds. Rejects when the server cannot be asked at all (unreachable, 401,
 * 5xx) — the caller retries; a kind the server simply does not serve is a result, not an error.
 */
export async function discoverKinds(transport: Transport, kinds: readonly KindKey[], signal: AbortSignal): Promise<DiscoveredKind[]> {
  let index: ServedIndex | undefined;
  try {
    index = await aggregatedIndex(transport, signal);
  } catch (error) {
    // Servers before aggregated discovery answer /api and /apis with the legacy documents; only
    // a failure of the connection itself is worth reporting.
    if (!(error instanceof ApiStatusError) || error.status === 401) throw error;
  }
  const served = index ?? (await legacyIndex(transport, signal, kinds));
  return kinds.map((kind) => resolveKind(kind, served));
}
