/**
 * Which resource serves a manifest's apiVersion and kind, and whether it is namespaced: one
 * APIResourceList per group version the manifests use (`/api/v1`, `/apis/apps/v1`), fetched once
 * per run. Works on every server version; only the group versions in use are asked for.
 */
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

export type Lookup = { resource: ResourceInfo } | { problem: string };

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

export function createDiscovery(client: ApiClient): Discovery {
  const lists = new Map<string, Promise<{ list: ResourceList } | { problem: string }>>();

  function fetchList(apiVersion: string): Promise<{ list: ResourceList } | { problem: string }> {
    let pending = lists.get(apiVersion);
    if (!pending) {
      const { group, version } = splitApiVersion(apiVersion);
      const path = group ? `/apis/${encodeURIComponent(group)}/${encodeURIComponent(version)}` : `/api/${encodeURIComponent(version)}`;
      pending = client.request('GET', path).then((response) => {
        if (response.status === 404) return { problem: `apiVersion "${apiVersion}" is not served by this cluster` };
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
      if ('problem' in found) return found;
      const resources = (found.list.resources ?? []).filter((r) => r.name && !r.name.includes('/'));
      const match = resources.find((r) => r.kind === kind);
      if (!match?.name) {
        const served = [...new Set(resources.map((r) => r.kind).filter(Boolean))].sort();
        const caseMatch = served.find((k) => k?.toLowerCase() === kind.toLowerCase());
        const hint = caseMatch ? ` (did you mean "${caseMatch}"?)` : served.length ? ` (it serves ${served.slice(0, 12).join(', ')}${served.length > 12 ? ', ...' : ''})` : '';
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
