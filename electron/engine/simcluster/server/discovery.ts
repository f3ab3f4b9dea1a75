/**
 * Discovery documents in the exact shapes kube-apiserver serves: /version, the legacy
 * APIVersions / APIGroupList / APIGroup / APIResourceList, and aggregated discovery
 * (apidiscovery.k8s.io APIGroupDiscoveryList) that kubectl 1.26+ asks for first.
 */
import { createHash } from 'node:crypto';
import { BUILT_IN_REGISTRY, type ResourceRegistry } from '../registry.ts';
import { apiVersionOf, type ResourceType } from '../resources.ts';

/** The minor version `/version` reports unless configured (kubectl 1.32 is the dispatcher default). */
export const DEFAULT_KUBERNETES_MINOR = 32;

/** Released patch, Go toolchain and build date per minor, so `/version` looks like a real build. */
const RELEASES: Record<number, { patch: number; go: string; date: string }> = {
  27: { patch: 16, go: 'go1.22.5', date: '2024-07-16T22:05:50Z' },
  28: { patch: 15, go: 'go1.22.8', date: '2024-10-22T20:28:56Z' },
  29: { patch: 15, go: 'go1.23.6', date: '2025-03-11T18:32:38Z' },
  30: { patch: 14, go: 'go1.23.10', date: '2025-06-17T18:33:05Z' },
  31: { patch: 10, go: 'go1.23.10', date: '2025-06-17T18:34:47Z' },
  32: { patch: 6, go: 'go1.23.10', date: '2025-06-17T18:36:47Z' },
  33: { patch: 2, go: 'go1.24.4', date: '2025-06-17T18:37:55Z' },
};

/** The `/version` document (k8s.io/apimachinery version.Info). */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: 'clean';
  buildDate: string;
  goVersion: string;
  compiler: 'gc';
  platform: 'linux/amd64';
}

/** `/version` for a 1.<minor> server with that release's patch, Go version and build date. */
export function versionInfo(minor: number): VersionInfo {
  const release = RELEASES[minor] ?? { patch: 0, go: 'go1.23.0', date: '2025-01-01T00:00:00Z' };
  const gitVersion = `v1.${minor}.${release.patch}`;
  return {
    major: '1',
    minor: String(minor),
    gitVersion,
    gitCommit: createHash('sha1').update(gitVersion).digest('hex'),
    gitTreeState: 'clean',
    buildDate: release.date,
    goVersion: release.go,
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/** Where a type is stored: events.k8s.io Events live as core/v1 Events, custom kinds at their storage version. */
function storageGVK(type: ResourceType): string {
  if (type.group === 'events.k8s.io') return '/v1/Event';
  if (type.custom) return `${type.group}/${type.custom.storageVersion}/${type.kind}`;
  return `${type.group}/${type.version}/${type.kind}`;
}

/** Upstream's `discovery.StorageVersionHash`: base64 of the first 8 bytes of sha256(g/v/k). */
export function storageVersionHash(type: ResourceType): string {
  return createHash('sha256').update(storageGVK(type)).digest().subarray(0, 8).toString('base64');
}

const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

/** `/api`: the legacy APIVersions document. */
export function apiVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupEntry(types: ResourceRegistry, group: string): object {
  const versions = types
    .groupVersions()
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: `${group}/${gv.version}`, version: gv.version }));
  return { name: group, versions, preferredVersion: versions[0] };
}

function namedGroups(types: ResourceRegistry): string[] {
  return [...new Set(types.groupVersions().map((gv) => gv.group))].filter((g) => g !== '');
}

/** `/apis`: every named group with its preferred version. */
export function apiGroupList(types: ResourceRegistry = BUILT_IN_REGISTRY): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: namedGroups(types).map((group) => groupEntry(types, group)) };
}

/** `/apis/<group>`. */
export function apiGroup(group: string, types: ResourceRegistry = BUILT_IN_REGISTRY): object {
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(types, group) };
}

function resourceEntries(type: ResourceType): object[] {
  const main = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length ? { categories: type.categories } : {}),
    storageVersionHash: storageVersionHash(type),
  };
  const subs = [...type.subresources].sort().map((sub) =>
    sub === 'scale'
      ? { name: `${type.plural}/scale`, singularName: '', namespaced: type.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUBRESOURCE_VERBS }
      : { name: `${type.plural}/${sub}`, singularName: '', namespaced: type.namespaced, kind: type.kind, verbs: SUBRESOURCE_VERBS },
  );
  return [main, ...subs];
}

function typesOf(types: ResourceRegistry, group: string, version: string): ResourceType[] {
  const gv = types.groupVersions().find((g) => g.group === group && g.version === version);
  return gv ? [...gv.types].sort((a, b) => (a.plural < b.plural ? -1 : 1)) : [];
}

/** `/api/v1` or `/apis/<group>/<version>`; the core list has no apiVersion, as upstream. */
export function apiResourceList(group: string, version: string, types: ResourceRegistry = BUILT_IN_REGISTRY): object {
  const resources = typesOf(types, group, version).flatMap(resourceEntries);
  const groupVersion = apiVersionOf({ group, version });
  return group === '' ? { kind: 'APIResourceList', groupVersion, resources } : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}

function discoveryResource(type: ResourceType): object {
  // responseKind group/version are empty when they equal the resource's own group version; the
  // CRD discovery controller spells them out.
  const own = type.custom ? { group: type.group, version: type.version, kind: type.kind } : { group: '', version: '', kind: type.kind };
  return {
    resource: type.plural,
    responseKind: own,
    scope: type.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: type.singular,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length ? { categories: type.categories } : {}),
    ...(type.subresources.length
      ? {
          subresources: [...type.subresources].sort().map((sub) => ({
            subresource: sub,
            responseKind: sub === 'scale' ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : own,
            verbs: SUBRESOURCE_VERBS,
          })),
        }
      : {}),
  };
}

function discoveryGroup(types: ResourceRegistry, group: string): object {
  const versions = types
    .groupVersions()
    .filter((gv) => gv.group === group)
    .map((gv) => ({ version: gv.version, resources: typesOf(types, group, gv.version).map(discoveryResource), freshness: 'Current' }));
  return { metadata: group === '' ? { creationTimestamp: null } : { name: group, creationTimestamp: null }, versions };
}

/** Aggregated discovery: `/api` holds the core group (empty name), `/apis` every other group. */
export function aggregatedDiscovery(scope: 'api' | 'apis', format: 'v2' | 'v2beta1', types: ResourceRegistry = BUILT_IN_REGISTRY): object {
  const groups = scope === 'api' ? [''] : namedGroups(types);
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${format}`, metadata: {}, items: groups.map((group) => discoveryGroup(types, group)) };
}
