/**
 * The demo's operators in the graph: the simulated control plane runs the demo scenario while
 * its store's changes reach an ObjectCache as the informers would put them there (slimmed; the
 * metadata-only kinds as PartialObjectMetadata), and the graph feature's live index follows the
 * cache. orders-db must draw as Database -> StatefulSet -> Pods with the Secret and Service it
 * owns, its pods using the Secret, and its colour must follow the operator's stall.
 */
import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { buildGraph, type GraphBuild } from '../../../../electron/engine/graph/build.ts';
import { createLiveIndex } from '../../../../electron/engine/graph/live-index.ts';
import { createGraphIndex } from '../../../../electron/engine/graph/objects.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';

/** Kinds the engine watches as metadata only (discovery/modes.ts). */
const METADATA_ONLY = new Set(['secrets', 'configmaps', 'serviceaccounts']);

function inGraph(graph: GraphBuild, kind: string, name: string) {
  return graph.nodes.find((node) => node.kind === kind && node.name === name);
}

describe('the demo operators in the graph', () => {
  it('draws orders-db as Database -> StatefulSet -> Pods with its Secret and Service, failing while it stalls', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const store = new ObjectStore({ now: () => clock.now() });
    const cache = new ObjectCache();
    const live = createLiveIndex(() => undefined);
    cache.onChange((change) => live.apply(change));
    const stop = store.onChange((change) => {
      const { object } = change;
      if (change.type === 'DELETED') cache.delete(change.resource, object.metadata.uid);
      else {
        const slim = slimObject(object, { kind: change.resource, objectKind: object.kind, apiVersion: object.apiVersion });
        cache.upsert(change.resource, METADATA_ONLY.has(change.resource) ? ({ apiVersion: slim.apiVersion, kind: slim.kind, metadata: slim.metadata } as SlimObject) : slim);
      }
    });
    const problems: string[] = [];
    const run = runScenario({
      scenario: loadScenario('demo'),
      store,
      clock,
      applyDefaults,
      validate,
      onActionError: (entry, error) => problems.push(`line ${entry.line}: ${String(error)}`),
      onControllerError: (name, error) => problems.push(`${name}: ${String(error)}`),
    });
    const shop = (): GraphBuild => {
      const graph = buildGraph(createGraphIndex(live.objectsFor('shop'), live.resolver), { namespace: 'shop', focus: null });
      if (!graph) throw new Error('no graph');
      return graph;
    };
    const advance = (seconds: number): void => {
      for (let s = 0; s < seconds; s += 1) {
        clock.advance(1_000);
        run.manager?.drain();
      }
    };
    try {
      advance(100);
      const before = shop();
      const db = inGraph(before, 'Database', 'orders-db');
      expect(db).toMatchObject({ kindKey: 'databases.db.kubedrift.dev', health: 'ready' });
      const sts = inGraph(before, 'StatefulSet', 'orders-db');
      const secret = inGraph(before, 'Secret', 'orders-db-credentials');
      const service = inGraph(before, 'Service', 'orders-db');
      expect(sts?.parent).toBe(db?.id);
      expect(secret).toMatchObject({ kindKey: 'secrets', parent: db?.id });
      for (const child of [sts, secret, service]) expect(before.edges).toContainEqual({ from: db?.id, to: child?.id, type: 'owns' });
      const pods = before.nodes.filter((node) => node.kind === 'Pod' && node.parent === sts?.id);
      expect(pods.map((pod) => pod.name).sort()).toEqual(['orders-db-0', 'orders-db-1']);
      for (const pod of pods) expect(before.edges).toContainEqual({ from: pod.id, to: secret?.id, type: 'uses' });
      // The Certificate operator's resources are nodes too.
      expect(inGraph(before, 'Certificate', 'storefront-tls')?.kindKey).toBe('certificates.cert-manager.io');

      // Bumped to an unsupported version at 2m: the operator stalls, and says so.
      advance(60);
      expect(inGraph(shop(), 'Database', 'orders-db')).toMatchObject({ health: 'failing', status: 'UnsupportedVersion' });
    } finally {
      run.stop();
      stop();
    }
    expect(problems).toEqual([]);
  });
});
