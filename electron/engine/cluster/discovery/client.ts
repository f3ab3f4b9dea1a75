/**
 * Reads what an API server serves. Aggregated discovery first: `/api` and `/apis` with the
 * aggregated Accept header answer everything in two requests (Kubernetes 1.26+, on by default
 * since 1.27). A server without it answers the same two requests with the legacy APIVersions and
 * APIGroupList; then each group version's APIResourceList is read, a bounded number at a time
 * and with progress, so thousands of CRDs neither flood the server nor look hung.
 *
 * A group version that fails (a 503 from an aggregated APIService that is down) or that
 * aggregated discovery calls Stale is marked unavailable with the server's message; the rest
 * goes on. Only a failure to ask at all (unreachable, 401, `/apis` failing) rejects.
 */
import type { DiscoveryProgress } from '../../../../shared/discovery.ts';
import { apiVersionOf } from '../../../../shared/kinds.ts';
import { ApiStatusError, getJson, type Transport } from '../informers/http.ts';
import {
  AggregatedListSchema,
  ApiGroupListSchema,
  ApiResourceListSchema,
  ApiVersionsSchema,
  describeIssue,
  groupsOfAggregated,
  legacyGroupVersions,
  resourcesOfList,
  type ServedGroup,
  type ServedGroupVersion,
} from './documents.ts';
import { mapBounded } from './pool.ts';

/** kubectl's Accept for discovery: aggregated v2, then v2beta1 (1.26-1.29), then the legacy documents. */
export const AGGREGATED_DISCOVERY_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

/**
 * Group versions read at once in the legacy fallback. client-go reads them all in parallel behind
 * a client-side rate limit; a fixed small window keeps a 900-CRD cluster's discovery from opening
 * hundreds of requests while still overlapping round trips.
 */
export const DEFAULT_DISCOVERY_CONCURRENCY = 8;

/** Options of `readDiscovery`. */
export interface ReadDiscoveryOptions {
  signal: AbortSignal;
  /** Group-version requests in flight at most (legacy fallback, stale re-checks). */
  concurrency?: number;
  /** Requests done of those known so far; called at the start and after each request. */
  onProgress?: (progress: DiscoveryProgress) => void;
}

/** Every served group with its versions; unavailable group versions carry their message. */
export interface DiscoveryResult {
  groups: ServedGroup[];
  /** `aggregated` when both root documents were aggregated, `legacy` when neither was. */
  source: 'aggregated' | 'legacy' | 'mixed';
}

/** A group version still to read: legacy discovery, or a stale aggregated entry to re-check. */
interface Pending {
  group: ServedGroup;
  /** Index into `group.versions`. */
  index: number;
}

function rootDocument(path: '/api' | '/apis', body: unknown): { groups: ServedGroup[]; aggregated: boolean } {
  const aggregated = AggregatedListSchema.safeParse(body);
  if (aggregated.success) return { groups: groupsOfAggregated(aggregated.data), aggregated: true };
  if (path === '/api') {
    const legacy = ApiVersionsSchema.safeParse(body);
    if (legacy.success) {
      const versions = legacy.data.versions;
      return { groups: versions.length ? [{ name: '', preferredVersion: versions[0] as string, versions: versions.map(placeholder) }] : [], aggregated: false };
    }
    throw new Error(`/api answered neither APIGroupDiscoveryList nor APIVersions (${describeIssue(legacy.error)})`);
  }
  const legacy = ApiGroupListSchema.safeParse(body);
  if (!legacy.success) throw new Error(`/apis answered neither APIGroupDiscoveryList nor APIGroupList (${describeIssue(legacy.error)})`);
  const groups = (legacy.data.groups ?? []).map(legacyGroupVersions).map((g) => ({ name: g.name, preferredVersion: g.preferredVersion, versions: g.versions.map(placeholder) }));
  return { groups, aggregated: false };
}

/** A legacy group version before its APIResourceList is read. */
function placeholder(version: string): ServedGroupVersion {
  return { version, resources: [], unavailable: NOT_READ };
}

const NOT_READ = 'not read yet';

function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** The server's words for a failed group version, naming it. */
function failureMessage(group: string, version: string, error: ApiStatusError): string {
  return `The server answered ${error.status}${error.reason ? ` ${error.reason}` : ''} for ${apiVersionOf({ group, version })}: ${error.message}`;
}

/**
 * Reads one group version's APIResourceList into `pending`'s slot. A 404 (the group went away
 * between requests) drops the version; other API failures mark it unavailable with the server's
 * message. 401s and network failures reject: they are about the connection, not the group.
 */
async function readGroupVersion(transport: Transport, item: Pending, signal: AbortSignal): Promise<void> {
  const { group, index } = item;
  const slot = group.versions[index] as ServedGroupVersion;
  try {
    const parsed = ApiResourceListSchema.safeParse(await getJson(transport, groupVersionPath(group.name, slot.version), { signal }));
    if (!parsed.success) {
      group.versions[index] = { ...slot, unavailable: `${apiVersionOf({ group: group.name, version: slot.version })} answered an unexpected document (${describeIssue(parsed.error)})` };
      return;
    }
    group.versions[index] = { version: slot.version, resources: resourcesOfList(parsed.data) };
  } catch (error) {
    if (!(error instanceof ApiStatusError) || error.status === 401) throw error;
    // A 404 for a listed group version: it went away between the two requests. A stale entry
    // that 404s keeps its stale message: aggregated discovery still lists it.
    if (error.status === 404) group.versions[index] = slot.unavailable === NOT_READ ? { ...slot, unavailable: GONE } : slot;
    else group.versions[index] = { ...slot, unavailable: failureMessage(group.name, slot.version, error) };
  }
}

const GONE = 'gone';

/** Reads everything the server serves; see the module comment for what fails how. */
export async function readDiscovery(transport: Transport, options: ReadDiscoveryOptions): Promise<DiscoveryResult> {
  const { signal } = options;
  const progress = { done: 0, total: 2 };
  const report = (): void => options.onProgress?.({ ...progress });
  report();
  const root = async (path: '/api' | '/apis') => {
    const body = await getJson(transport, path, { signal, accept: AGGREGATED_DISCOVERY_ACCEPT });
    progress.done += 1;
    report();
    return rootDocument(path, body);
  };
  const [core, named] = await Promise.all([root('/api'), root('/apis')]);
  const groups = [...core.groups, ...named.groups];
  const pending: Pending[] = groups.flatMap((group) => group.versions.flatMap((v, index) => (v.unavailable !== undefined ? [{ group, index }] : [])));
  progress.total += pending.length;
  if (pending.length) report();
  await mapBounded(pending, options.concurrency ?? DEFAULT_DISCOVERY_CONCURRENCY, signal, async (item) => {
    await readGroupVersion(transport, item, signal);
    progress.done += 1;
    report();
  });
  const served = groups
    .map((g) => ({ ...g, versions: g.versions.filter((v) => v.unavailable !== GONE) }))
    .filter((g) => g.versions.length > 0)
    .map((g) => (g.versions.some((v) => v.version === g.preferredVersion) ? g : { ...g, preferredVersion: (g.versions[0] as ServedGroupVersion).version }));
  const source = core.aggregated && named.aggregated ? 'aggregated' : !core.aggregated && !named.aggregated ? 'legacy' : 'mixed';
  return { groups: served, source };
}
