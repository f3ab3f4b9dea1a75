/**
 * Discovery of a cluster with thousands of CRDs (issue #17: Crossplane installs 300-900 and some
 * clusters hold more): the registry finishes, finds every kind, and reports its progress while
 * it reads. The documents are what kube-apiserver serves for 2,000 CRDs of distinct groups, each
 * with a status subresource (the simulated server builds them too, but creating 2,000 CRDs in it
 * takes half a minute: its type registry is rebuilt on every CRD).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscoveryProgress } from '../../../../../shared/discovery.ts';
import { DEFAULT_DISCOVERY_CONCURRENCY } from '../../../../../electron/engine/cluster/discovery/client.ts';
import { DiscoveryRegistry } from '../../../../../electron/engine/cluster/discovery/registry.ts';
import { FakeClock } from '../../informers/helpers.ts';
import { AGGREGATED_API, AGGREGATED_APIS, LEGACY } from './fixtures.ts';
import { startFakeServer, type FakeServer } from './fake-server.ts';

const CRDS = 2_000;
const VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** Group, kind and plural of CRD `i`. */
const crd = (i: number) => ({ group: `g${i}.crossplane.example.io`, kind: `Widget${i}`, plural: `widget${i}s` });
const keyOf = (i: number) => `${crd(i).plural}.${crd(i).group}`;

/** /apis with every CRD's group, and one APIResourceList per group version (the resource and its status). */
function legacyDocuments(): Record<string, object> {
  const groups = Array.from({ length: CRDS }, (_, i) => crd(i).group);
  const documents: Record<string, object> = { ...LEGACY };
  const builtIn = (LEGACY['/apis'] as { groups: object[] }).groups;
  documents['/apis'] = {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...builtIn, ...groups.map((name) => ({ name, versions: [{ groupVersion: `${name}/v1`, version: 'v1' }], preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' } }))],
  };
  for (let i = 0; i < CRDS; i += 1) {
    const { group, kind, plural } = crd(i);
    documents[`/apis/${group}/v1`] = {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: `${group}/v1`,
      resources: [
        { name: plural, singularName: `widget${i}`, namespaced: true, kind, verbs: VERBS, categories: ['crossplane'], storageVersionHash: 'aaaaaaaaaaa=' },
        { name: `${plural}/status`, singularName: '', namespaced: true, kind, verbs: ['get', 'patch', 'update'] },
      ],
    };
  }
  return documents;
}

/** The aggregated /apis: the built-in groups and one APIGroupDiscovery per CRD group. */
function aggregatedApis(): object {
  const items = Array.from({ length: CRDS }, (_, i) => {
    const { group, kind, plural } = crd(i);
    const resource = {
      resource: plural,
      responseKind: { group: '', version: '', kind },
      scope: 'Namespaced',
      singularResource: `widget${i}`,
      verbs: VERBS,
      categories: ['crossplane'],
      subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind }, verbs: ['get', 'patch', 'update'] }],
    };
    return { metadata: { name: group, creationTimestamp: null }, versions: [{ version: 'v1', resources: [resource], freshness: 'Current' }] };
  });
  return { ...AGGREGATED_APIS, items: [...AGGREGATED_APIS.items, ...items] };
}

let fake: FakeServer | undefined;
let registry: DiscoveryRegistry | undefined;
afterEach(async () => {
  registry?.stop();
  await fake?.close();
  registry = undefined;
  fake = undefined;
});

/** Runs a first discovery against `server` and returns every progress report it made. */
async function discover(server: FakeServer): Promise<{ found: DiscoveryRegistry; progress: DiscoveryProgress[] }> {
  const found = new DiscoveryRegistry({ transport: server.transport(), clock: new FakeClock() });
  registry = found;
  const progress: DiscoveryProgress[] = [];
  found.onState((state) => {
    if (state.progress) progress.push(state.progress);
  });
  await found.start();
  return { found, progress };
}

function expectEveryCrdWatched(found: DiscoveryRegistry): void {
  const byKey = new Map(found.kinds().map((kind) => [kind.key, kind]));
  const missing = Array.from({ length: CRDS }, (_, i) => keyOf(i)).filter((key) => byKey.get(key)?.mode !== 'full');
  expect(missing).toEqual([]);
  expect(byKey.get(keyOf(CRDS - 1))).toMatchObject({
    ref: { group: crd(CRDS - 1).group, version: 'v1', kind: crd(CRDS - 1).kind, plural: crd(CRDS - 1).plural, namespaced: true },
    custom: true,
    subresources: { status: true, scale: false },
  });
  expect(found.state()).toMatchObject({ progress: null, refreshedAt: expect.any(Number) });
  expect(found.state().error).toBeUndefined();
}

describe('discovery of 2,000 CRDs', () => {
  it('reads 2,000 group versions of legacy discovery a few at a time, reporting its progress all along, and finds every kind', { timeout: 30_000 }, async () => {
    fake = await startFakeServer(legacyDocuments());
    const { found, progress } = await discover(fake);
    expectEveryCrdWatched(found);
    const last = progress.at(-1) as DiscoveryProgress;
    // /api and /apis, then one APIResourceList per group version: the 2,000 CRDs' and the built-in ones.
    expect(last.total).toBeGreaterThan(CRDS + 2);
    expect(last.done).toBe(last.total);
    // Reported as it goes, not only at the start and the end, and never backwards.
    expect(progress.length).toBeGreaterThan(CRDS);
    expect(progress.every((p, i) => i === 0 || p.done >= (progress[i - 1] as DiscoveryProgress).done)).toBe(true);
    expect(progress.some((p) => p.total === last.total && p.done > 2 && p.done < last.total / 2)).toBe(true);
    // Never 2,000 requests at once.
    expect(fake.maxInFlight).toBeLessThanOrEqual(DEFAULT_DISCOVERY_CONCURRENCY);
  });

  it('reads aggregated discovery of 2,000 CRDs in its two root requests, no request per CRD group', { timeout: 30_000 }, async () => {
    fake = await startFakeServer({ ...LEGACY }, { api: AGGREGATED_API, apis: aggregatedApis() });
    const { found, progress } = await discover(fake);
    expectEveryCrdWatched(found);
    expect(progress.at(0)).toEqual({ done: 0, total: 2 });
    const last = progress.at(-1) as DiscoveryProgress;
    expect(last.done).toBe(last.total);
    // Only the built-in fixture's stale group version is read again on its own.
    expect(last.total).toBeLessThan(10);
    expect(fake.requests.filter((r) => r.path.includes('.crossplane.example.io'))).toEqual([]);
  });
});
