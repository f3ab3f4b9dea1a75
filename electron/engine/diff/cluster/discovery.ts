/**
 * Which resource serves a manifest's apiVersion and kind, and whether it is namespaced: one
 * APIResourceList per group version the manifests use (`/api/v1`, `/apis/apps/v1`), fetched once
 * per run. Works on every server version; only the group versions in use are asked for.
 */
import { BUILT_IN_GROUPS } from '../../cluster/discovery/modes.ts';
import { statusMessage, type ApiClient } from './client.ts';

export interface ResourceInfo {
  apiVersion: string;
  group: string;
  kind: string;
  /** The URL segment (`deployments`). */
  plural: string;
  namespaced: boolean;
  verbs: readonly string[];
}

/** `customKindAbsent`: the kind is of a CRD's group and no CRD serves it (it may be in the files). */
export type Lookup = { resource: ResourceInfo } | { problem: string; customKindAbsent?: true };

interface ResourceList {
  resources?: Array<{ name?: string; kind?: string; namespaced?: boolean; verbs?: string[] }>;
}

export interface Discovery {
  lookup(apiVersion: string, kind: string): Promise<Lookup>;
}

/** `apps/v1` -> group `apps`, version `v1`; `v1` -> the core group. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** A group version's resources; absent when the server does not serve it (404). */
type Listed = { list: ResourceList } | { problem: string } | { absent: true };

/** What a row says when a custom kind is not served: the CRD is not installed (at this version). */
function noCrd(apiVersion: string, kind: string, hint: string): string {
  return `no CustomResourceDefinition serves ${apiVersion} ${kind} in this cluster${hint}`;
}

export function createDiscovery(client: ApiClient): Discovery {
  const lists = new Map<string, Promise<Listed>>();
  const groups = new Map<string, Promise<string[]>>();

  /** The versions a group is served at (empty when it is not served or cannot be read). */
  function servedVersions(group: string): Promise<string[]> {
    let pending = groups.get(group);
    if (!pending) {
      pending = client
        .request('GET', `/apis/${encodeURIComponent(group)}`)
        .then((response) => {
          const versions = response.status === 200 ? (response.body as { versions?: Array<{ version?: unknown }> } | undefined)?.versions : undefined;
          return (versions ?? []).map((v) => v.version).filter((v): v is string => typeof v === 'string');
        })
        .catch(() => []);
      groups.set(group, pending);
    }
    return pending;
  }

  async function notServed(apiVersion: string, kind: string): Promise<Lookup> {
    const { group } = splitApiVersion(apiVersion);
    if (BUILT_IN_GROUPS.has(group)) return { problem: `apiVersion "${apiVersion}" is not served by this cluster` };
    const versions = await servedVersions(group);
    return { problem: noCrd(apiVersion, kind, versions.length ? ` (the cluster serves ${group} at ${versions.join(', ')})` : ''), customKindAbsent: true };
  }

  function fetchList(apiVersion: string): Promise<Listed> {
    let pending = lists.get(apiVersion);
    if (!pending) {
      const { group, version } = splitApiVersion(apiVersion);
      const path = group ? `/apis/${encodeURIComponent(group)}/${encodeURIComponent(version)}` : `/api/${encodeURIComponent(version)}`;
      pending = client.request('GET', path).then((response) => {
        if (response.status === 404) return { absent: true };
        if (response.status === 401 || response.status === 403) return { problem: `not allowed to read the API discovery of ${apiVersion}: ${statusMessage(response)}` };
        if (response.status < 200 || response.status > 299) throw new Error(`discovery of ${apiVersion} failed: ${statusMessage(response)}`);
        return { list: (response.body ?? {}) as ResourceList };
      });
      lists.set(apiVersion, pending);
    }
    return pending;
  }

  return {
    async lookup(apiVersion, kind) {
      if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion)) return { problem: `"${apiVersion}" is not a valid apiVersion (expected "v1" or "group/version")` };
      const found = await fetchList(apiVersion);
      if ('absent' in found) return notServed(apiVersion, kind);
      if ('problem' in found) return found;
      const resources = (found.list.resources ?? []).filter((r) => r.name && !r.name.includes('/'));
      const match = resources.find((r) => r.kind === kind);
      if (!match?.name) {
        const served = [...new Set(resources.map((r) => r.kind).filter(Boolean))].sort();
        const caseMatch = served.find((k) => k?.toLowerCase() === kind.toLowerCase());
        const hint = caseMatch ? ` (did you mean "${caseMatch}"?)` : served.length ? ` (it serves ${served.slice(0, 12).join(', ')}${served.length > 12 ? ', ...' : ''})` : '';
        if (!BUILT_IN_GROUPS.has(splitApiVersion(apiVersion).group)) return { problem: noCrd(apiVersion, kind, hint.replace(' (it serves', ` (${apiVersion} serves`)), customKindAbsent: true };
        return { problem: `kind "${kind}" is not served in ${apiVersion} by this cluster${hint}` };
      }
      return { resource: { apiVersion, group: splitApiVersion(apiVersion).group, kind, plural: match.name, namespaced: match.namespaced ?? false, verbs: match.verbs ?? [] } };
    },
  };
}

/** The URL of a resource collection, in a namespace when it is namespaced. */
export function collectionPath(resource: ResourceInfo, namespace: string | undefined): string {
  const { group, version } = splitApiVersion(resource.apiVersion);
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return resource.namespaced ? `${base}/namespaces/${encodeURIComponent(namespace ?? 'default')}/${resource.plural}` : `${base}/${resource.plural}`;
}

export function objectPath(resource: ResourceInfo, namespace: string | undefined, name: string): string {
  return `${collectionPath(resource, namespace)}/${encodeURIComponent(name)}`;
}
