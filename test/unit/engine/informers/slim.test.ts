import { afterEach, describe, expect, it } from 'vitest';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { createTransport, getJson, type Transport } from '../../../../electron/engine/cluster/informers/http.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { CRONJOB, EVENT_CORE, EVENT_V1, NODE, POD_LIST_ITEM } from './fixtures/objects.ts';
import { T, waitFor } from './helpers.ts';
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('slimming', () => {
  it('drops managedFields, the last-applied annotation and unused pod fields, and names the kind', () => {
    const slim = slimObject(POD_LIST_ITEM, { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' });
    expect(slim).toMatchObject({ kind: 'Pod', apiVersion: 'v1' });
    expect(slim.metadata).toEqual({
      name: 'web-7d4b9c8f6d-x2x9k',
      namespace: 'default',
      uid: '5b0f1c4e-2a61-4d8f-9f11-0c7f8e3d2a10',
      resourceVersion: '48213',
      creationTimestamp: '2025-05-02T09:14:03Z',
      labels: { app: 'web', 'pod-template-hash': '7d4b9c8f6d' },
      annotations: { 'prometheus.io/scrape': 'true' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c8f6d', uid: 'a2b4c6d8-0000-4000-8000-000000000001', controller: true }],
    });
    expect(slim['spec']).toEqual({
      nodeName: 'kind-worker',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      priority: 0,
      restartPolicy: 'Always',
      serviceAccountName: 'web',
      containers: [
        {
          name: 'nginx',
          image: 'nginx:1.27.2',
          resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
          readinessProbe: {},
          // What the graph's "uses" edges need: the names referenced, never a key or variable name.
          envFrom: [{ configMapRef: { name: 'web-config' } }],
          env: [{ valueFrom: { secretKeyRef: { name: 'db' } } }],
        },
      ],
      initContainers: [{ name: 'migrate', image: 'ghcr.io/acme/migrate:1.4' }],
      affinity: {},
    });
    const status = slim['status'] as { containerStatuses: object[]; initContainerStatuses: object[]; conditions: object[]; podIPs?: unknown };
    expect(status.containerStatuses).toEqual([
      {
        name: 'nginx',
        ready: true,
        started: true,
        restartCount: 1,
        image: 'docker.io/library/nginx:1.27.2',
        state: { running: { startedAt: '2025-05-02T09:14:06Z' } },
        lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: '2025-05-02T09:10:00Z', finishedAt: '2025-05-02T09:14:05Z' } },
      },
    ]);
    expect(status.initContainerStatuses[0]).not.toHaveProperty('lastState');
    expect(status.conditions).toEqual([
      { type: 'Initialized', status: 'True', lastTransitionTime: '2025-05-02T09:14:05Z' },
      { type: 'Ready', status: 'True', lastTransitionTime: '2025-05-02T09:14:09Z' },
    ]);
    expect(status).toMatchObject({ phase: 'Running', podIP: '10.244.1.7', hostIP: '172.18.0.3', qosClass: 'Burstable' });
    expect(status.podIPs).toBeUndefined();
    expect(JSON.stringify(slim)).not.toMatch(/managedFields|DB_PASSWORD|password|volumes|serviceAccountToken|kube-root-ca|"key"|tolerations|containerd:|sha256|last-applied/);
    // 4,831 -> 1,899 bytes (1,795 before the referenced names were kept for the graph).
    expect(bytes(slim)).toBeLessThan(bytes(POD_LIST_ITEM) * 0.4);
  });

  it('keeps workload specs and statuses but slims their pod templates, also inside a CronJob', () => {
    const slim = slimObject(CRONJOB, { kind: 'cronjobs.batch', objectKind: 'CronJob', apiVersion: 'batch/v1' });
    expect(slim.metadata.annotations).toBeUndefined();
    expect(slim['spec']).toEqual({
      schedule: '0 3 * * *',
      concurrencyPolicy: 'Forbid',
      suspend: false,
      jobTemplate: { metadata: { labels: { job: 'report' } }, spec: { backoffLimit: 2, template: { metadata: { labels: { job: 'report' } }, spec: { restartPolicy: 'OnFailure', containers: [{ name: 'r', image: 'acme/report:2' }] } } } },
    });
    expect(slim['status']).toEqual(CRONJOB.status);
  });

  it('drops the image list and attached volumes of a node and keeps the rest of its status', () => {
    const slim = slimObject(NODE, { kind: 'nodes', objectKind: 'Node', apiVersion: 'v1' });
    const { images: _images, volumesAttached: _attached, volumesInUse: _inUse, ...kept } = NODE.status;
    expect(slim['status']).toEqual(kept);
    expect(slim['spec']).toEqual(NODE.spec);
    expect(slim.metadata).not.toHaveProperty('managedFields');
  });

  it('gives an events.k8s.io/v1 Event the same slim form as its core/v1 twin', () => {
    const fromEventsApi = slimObject(EVENT_V1, { kind: 'events', objectKind: 'Event', apiVersion: 'events.k8s.io/v1' });
    const fromCoreApi = slimObject(EVENT_CORE, { kind: 'events', objectKind: 'Event', apiVersion: 'v1' });
    expect(fromEventsApi).toEqual(fromCoreApi);
    expect(fromCoreApi).toMatchObject({ kind: 'Event', apiVersion: 'v1', message: EVENT_V1.note, reportingComponent: 'kubelet', action: 'Pulling', series: EVENT_V1.series, involvedObject: EVENT_V1.regarding });
    expect(fromCoreApi.metadata).not.toHaveProperty('managedFields');
  });

  it('lets no top-level field outside the kind\'s shape through (no Secret-style data)', () => {
    const slim = slimObject({ ...CRONJOB, data: { password: 'aHVudGVyMg==' }, stringData: { token: 't' } }, { kind: 'cronjobs.batch', objectKind: 'CronJob', apiVersion: 'batch/v1' });
    expect(Object.keys(slim).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  });

  it('keeps a ControllerRevision\'s revision number and owner, never its data (a whole pod template)', () => {
    const revision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: 'db-7c9d8f6b5',
        namespace: 'shop',
        uid: '5d1c0a3e-7f51-4c8a-9a3e-2f4b8f0c1d22',
        resourceVersion: '4821',
        creationTimestamp: '2026-11-25T10:00:00Z',
        labels: { app: 'db', 'controller.kubernetes.io/hash': '7c9d8f6b5' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: '0b7f3c1e-2d4a-4f6b-8c9d-1e2f3a4b5c6d', controller: true, blockOwnerDeletion: true }],
      },
      data: { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16.4' }] } } } },
      revision: 3,
    };
    const slim = slimObject(revision, { kind: 'controllerrevisions.apps', objectKind: 'ControllerRevision', apiVersion: 'apps/v1' }) as unknown as Record<string, unknown>;
    expect(Object.keys(slim).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'revision']);
    expect(slim['revision']).toBe(3);
    expect((slim['metadata'] as { ownerReferences: unknown }).ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: '0b7f3c1e-2d4a-4f6b-8c9d-1e2f3a4b5c6d', controller: true }]);
  });
});

describe('slimming on the demo cluster', () => {
  let sim: SimCluster | undefined;
  let transport: Transport | undefined;
  afterEach(async () => {
    transport?.close();
    await sim?.stop();
  });

  it('makes demo pods and deployments smaller on the wire', async () => {
    sim = await startSimCluster({ scenario: 'demo', speed: 20 });
    const running = sim;
    await waitFor('demo pods', () => running.store.all(T('pods')).length >= 20);
    transport = createTransport(sim.kubeconfigObject());
    const signal = new AbortController().signal;
    const ratio = async (path: string, kind: 'Pod' | 'Deployment', apiVersion: string) => {
      const { items } = (await getJson(transport as Transport, path, { signal })) as { items: object[] };
      const before = items.reduce((sum, o) => sum + bytes(o), 0);
      const after = items.reduce((sum, o) => sum + bytes(slimObject(o, { kind: BUILTIN_KEYS[kind], objectKind: kind, apiVersion })), 0);
      return after / before;
    };
    // Measured 57 % (3,023 -> 1,711 B per pod) and 78 % (2,145 -> 1,683 B per deployment).
    expect(await ratio('/api/v1/pods', 'Pod', 'v1')).toBeLessThan(0.65);
    expect(await ratio('/apis/apps/v1/deployments', 'Deployment', 'apps/v1')).toBeLessThan(0.85);
  });
});
