import { afterEach, describe, expect, it } from 'vitest';
import { call, openWatch, startTestCluster, type OpenWatch, type TestCluster } from './helpers.ts';

const CORE = '/api/v1/namespaces/default/events';
const EVENTS_V1 = '/apis/events.k8s.io/v1/namespaces/default/events';

let cluster: TestCluster | undefined;
const watches: OpenWatch[] = [];
afterEach(async () => {
  for (const w of watches.splice(0)) w.close();
  await cluster?.server.close();
  cluster = undefined;
});

const coreEvent = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web-7d4b9.17a1f0c2d3e4f5a6', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-7d4b9', uid: 'u-1', apiVersion: 'v1', fieldPath: 'spec.containers{web}' },
  reason: 'Pulled',
  message: 'Container image "nginx:1.27" already present on machine',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2025-06-01T11:59:00Z',
  lastTimestamp: '2025-06-01T12:00:00Z',
  count: 3,
  type: 'Normal',
  eventTime: null,
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
};

describe('events.k8s.io/v1 over stored core Events', () => {
  it('serves a core Event converted to events.k8s.io/v1', async () => {
    cluster = await startTestCluster();
    const { server } = cluster;
    await call(server, 'POST', CORE, { body: coreEvent });
    const res = await call(server, 'GET', `${EVENTS_V1}/${coreEvent.metadata.name}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: expect.objectContaining({ name: coreEvent.metadata.name, namespace: 'default' }),
      eventTime: null,
      reason: 'Pulled',
      type: 'Normal',
      reportingInstance: 'node-1',
      regarding: coreEvent.involvedObject,
      note: coreEvent.message,
      reportingController: 'kubelet',
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2025-06-01T11:59:00Z',
      deprecatedLastTimestamp: '2025-06-01T12:00:00Z',
      deprecatedCount: 3,
    });
    const list = await call(server, 'GET', '/apis/events.k8s.io/v1/events');
    expect(list.json).toMatchObject({ kind: 'EventList', apiVersion: 'events.k8s.io/v1', items: [{ note: coreEvent.message }] });
  });

  it('stores an events.k8s.io/v1 Event once, visible through both APIs', async () => {
    cluster = await startTestCluster();
    const { server } = cluster;
    const created = await call(server, 'POST', EVENTS_V1, {
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'scaled' },
        eventTime: '2025-06-01T12:00:00.000000Z',
        series: { count: 2, lastObservedTime: '2025-06-01T12:00:05.000000Z' },
        reportingController: 'deployment-controller',
        reportingInstance: 'kube-controller-manager',
        action: 'Scaling',
        reason: 'ScalingReplicaSet',
        regarding: { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
        note: 'Scaled up replica set web-7d4b9 to 3',
        type: 'Normal',
      },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', regarding: { name: 'web' }, series: { count: 2 } });
    const core = await call(server, 'GET', `${CORE}/scaled`);
    expect(core.json).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { kind: 'Deployment', name: 'web' },
      message: 'Scaled up replica set web-7d4b9 to 3',
      reportingComponent: 'deployment-controller',
      action: 'Scaling',
      eventTime: '2025-06-01T12:00:00.000000Z',
      series: { count: 2, lastObservedTime: '2025-06-01T12:00:05.000000Z' },
    });
    expect(core.json.regarding).toBeUndefined();
    expect((await call(server, 'GET', CORE)).json.items).toHaveLength(1);
  });

  it('selects events.k8s.io Events by regarding.* fields', async () => {
    cluster = await startTestCluster();
    const { server } = cluster;
    await call(server, 'POST', CORE, { body: coreEvent });
    await call(server, 'POST', CORE, { body: { ...coreEvent, metadata: { name: 'other' }, involvedObject: { kind: 'Pod', name: 'db-0' } } });
    const res = await call(server, 'GET', `${EVENTS_V1}?fieldSelector=regarding.name%3Ddb-0`);
    expect(res.json.items.map((e: { metadata: { name: string } }) => e.metadata.name)).toEqual(['other']);
  });

  it('watches events.k8s.io Events as converted objects', async () => {
    cluster = await startTestCluster();
    const { server, store } = cluster;
    const w = await openWatch(server, `${EVENTS_V1}?watch=true&resourceVersion=${store.currentRv()}`);
    watches.push(w);
    await call(server, 'POST', CORE, { body: coreEvent });
    expect(await w.next()).toMatchObject({ type: 'ADDED', object: { apiVersion: 'events.k8s.io/v1', note: coreEvent.message, regarding: { name: 'web-7d4b9' } } });
  });
});
