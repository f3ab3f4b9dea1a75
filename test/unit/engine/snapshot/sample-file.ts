/** A small, valid snapshot file built in memory, for the tests that need one without a cluster. */
import { SNAPSHOT_KIND, SNAPSHOT_SCHEMA_VERSION, type SnapshotFile } from '../../../../shared/contracts/snapshot.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';

export const T = Date.parse('2024-05-01T12:00:00Z');

export function deployment(name: string, replicas: number, ready: number, extra: { namespace?: string; uid?: string; generation?: number; observed?: number } = {}): SlimObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { uid: extra.uid ?? `uid-${name}`, name, namespace: extra.namespace ?? 'shop', resourceVersion: '10', generation: extra.generation ?? 1, labels: { app: name } },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: `${name}:1.0` }] } } },
    status: { observedGeneration: extra.observed ?? extra.generation ?? 1, replicas, readyReplicas: ready, availableReplicas: ready, updatedReplicas: replicas },
  } as SlimObject;
}

export function sampleFile(overrides: Partial<SnapshotFile> = {}): SnapshotFile {
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    kind: SNAPSHOT_KIND,
    createdAt: T + 1000,
    takenAt: T,
    live: true,
    generator: { name: 'Kubedrift', version: '1.2.3' },
    context: { name: 'prod-eu', server: 'https://prod.example.com', demo: false },
    scope: { type: 'cluster' },
    objects: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { uid: 'ns-shop', name: 'shop', resourceVersion: '1' } } as SlimObject,
      deployment('web', 3, 3),
      deployment('api', 2, 1),
    ],
    events: [
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { uid: 'ev-1', name: 'api.1', namespace: 'shop', resourceVersion: '5' },
        involvedObject: { kind: 'Deployment', name: 'api', namespace: 'shop', uid: 'uid-api' },
        reason: 'ScalingReplicaSet',
        message: 'Scaled up replica set api-1 to 2',
        type: 'Normal',
        source: { component: 'deployment-controller' },
        count: 1,
      } as SlimObject,
    ],
    kinds: [
      { apiVersion: 'apps/v1', kind: 'Deployment', key: 'deployments.apps', plural: 'deployments', namespaced: true, custom: false, metadataOnly: false },
      { apiVersion: 'v1', kind: 'Event', key: 'events', plural: 'events', namespaced: true, custom: false, metadataOnly: false },
      { apiVersion: 'v1', kind: 'Namespace', key: 'namespaces', plural: 'namespaces', namespaced: false, custom: false, metadataOnly: false },
    ],
    history: null,
    graph: null,
    diff: null,
    ...overrides,
  };
}
