/**
 * The discovery documents kube-apiserver serves, checked at run time and turned into one model:
 * aggregated discovery (apidiscovery.k8s.io v2 / v2beta1 APIGroupDiscoveryList, KEP-3352) and
 * the legacy APIVersions / APIGroupList / APIResourceList. Fields a server leaves out (shortNames,
 * categories, subresources) are optional here as they are on the wire.
 */
import { z } from 'zod';

/** One resource of one group version, subresources folded in. */
export interface ServedResource {
  /** The plural, the URL segment. */
  plural: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  /** Subresource names (`status`, `scale`, `log`, ...). */
  subresources: string[];
}

/** One group version: its resources, or why it could not be read. */
export interface ServedGroupVersion {
  version: string;
  resources: ServedResource[];
  /** Set when the server could not serve this group version (stale or failing); resources may be the last known. */
  unavailable?: string;
}

/** One API group with its versions in the server's order of preference. */
export interface ServedGroup {
  /** `''` is the core group. */
  name: string;
  preferredVersion: string;
  versions: ServedGroupVersion[];
}

const strings = z.array(z.string()).optional();

const AggregatedResourceSchema = z
  .object({
    resource: z.string().min(1),
    responseKind: z.object({ kind: z.string().optional() }).loose().optional(),
    scope: z.enum(['Namespaced', 'Cluster']),
    verbs: strings,
    shortNames: strings,
    categories: strings,
    subresources: z.array(z.object({ subresource: z.string() }).loose()).nullish(),
  })
  .loose();

const AggregatedVersionSchema = z
  .object({
    version: z.string().min(1),
    resources: z.array(AggregatedResourceSchema).nullish(),
    freshness: z.string().optional(),
  })
  .loose();

/** apidiscovery.k8s.io APIGroupDiscoveryList (v2 and v2beta1 have the same fields). */
export const AggregatedListSchema = z
  .object({
    kind: z.literal('APIGroupDiscoveryList'),
    items: z.array(z.object({ metadata: z.object({ name: z.string().optional() }).loose().optional(), versions: z.array(AggregatedVersionSchema).nullish() }).loose()).nullish(),
  })
  .loose();

/** `/api` in the legacy form. */
export const ApiVersionsSchema = z.object({ kind: z.literal('APIVersions'), versions: z.array(z.string().min(1)) }).loose();

const GroupVersionForDiscoverySchema = z.object({ version: z.string().min(1) }).loose();

/** `/apis` in the legacy form. */
export const ApiGroupListSchema = z
  .object({
    kind: z.literal('APIGroupList'),
    groups: z.array(z.object({ name: z.string().min(1), versions: z.array(GroupVersionForDiscoverySchema), preferredVersion: GroupVersionForDiscoverySchema.optional() }).loose()).nullish(),
  })
  .loose();

/** `/api/v1`, `/apis/<group>/<version>`. */
export const ApiResourceListSchema = z
  .object({
    kind: z.literal('APIResourceList').optional(),
    resources: z
      .array(z.object({ name: z.string().min(1), kind: z.string(), namespaced: z.boolean().optional(), verbs: strings, shortNames: strings, categories: strings }).loose())
      .nullish(),
  })
  .loose();

/** Aggregated discovery's marker for a group version whose APIService did not answer. */
export const STALE_FRESHNESS = 'Stale';

/** The groups of an aggregated list, versions in the server's order (the first is preferred). */
export function groupsOfAggregated(list: z.infer<typeof AggregatedListSchema>): ServedGroup[] {
  const groups: ServedGroup[] = [];
  for (const item of list.items ?? []) {
    const name = item.metadata?.name ?? '';
    const versions = (item.versions ?? []).map((v): ServedGroupVersion => {
      const resources = (v.resources ?? []).map((r) => ({
        plural: r.resource,
        kind: r.responseKind?.kind ?? '',
        namespaced: r.scope === 'Namespaced',
        verbs: r.verbs ?? [],
        shortNames: r.shortNames ?? [],
        categories: r.categories ?? [],
        subresources: (r.subresources ?? []).map((s) => s.subresource),
      }));
      const stale = v.freshness === STALE_FRESHNESS;
      return stale ? { version: v.version, resources, unavailable: staleMessage(name, v.version) } : { version: v.version, resources };
    });
    const preferred = versions[0];
    if (preferred) groups.push({ name, preferredVersion: preferred.version, versions });
  }
  return groups;
}

/** What to say about a stale group version when the server gives no words of its own. */
export function staleMessage(group: string, version: string): string {
  return `The API server reports ${group === '' ? version : `${group}/${version}`} as stale in discovery: its APIService is not answering.`;
}

/** The resources of an APIResourceList; `pods/status` becomes a subresource of `pods`. */
export function resourcesOfList(list: z.infer<typeof ApiResourceListSchema>): ServedResource[] {
  const entries = list.resources ?? [];
  const byPlural = new Map<string, ServedResource>();
  for (const r of entries) {
    if (r.name.includes('/')) continue;
    byPlural.set(r.name, {
      plural: r.name,
      kind: r.kind,
      namespaced: r.namespaced ?? false,
      verbs: r.verbs ?? [],
      shortNames: r.shortNames ?? [],
      categories: r.categories ?? [],
      subresources: [],
    });
  }
  for (const r of entries) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    byPlural.get(r.name.slice(0, slash))?.subresources.push(r.name.slice(slash + 1));
  }
  return [...byPlural.values()];
}

/** A legacy group's versions, the preferred one first and the rest in the server's order. */
export function legacyGroupVersions(group: NonNullable<z.infer<typeof ApiGroupListSchema>['groups']>[number]): { name: string; preferredVersion: string; versions: string[] } {
  const listed = group.versions.map((v) => v.version);
  const preferred = group.preferredVersion?.version ?? listed[0] ?? '';
  return { name: group.name, preferredVersion: preferred, versions: [preferred, ...listed.filter((v) => v !== preferred)].filter((v) => v !== '') };
}

/** The first schema issue as one line, for "answered an unexpected document" messages. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'document'}: ${issue.message}` : 'unexpected document';
}
