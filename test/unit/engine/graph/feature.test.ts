import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { GraphChanged, GraphObject, GraphResult } from '../../../../shared/contracts/graph.ts';
import type { Result } from '../../../../shared/result.ts';
import { createGraphFeature } from '../../../../electron/engine/graph/index.ts';
import { SettingsStore } from '../../../../electron/engine/settings.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { node, patched, shop, UID, web, webEvents, worker1 } from './fixtures.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

const THROTTLE_MS = 100;

function setup() {
  // Never loaded: the default settings (no status rules), which the graph reads for custom resources.
  const fake = fakeEngineContext({ settings: new SettingsStore('/nonexistent/kubedrift-graph-test') });
  const changed = fake.collect('graph:changed');
  const feature = createGraphFeature(fake.context, { throttleMs: THROTTLE_MS });
  return { ...fake, changed, feature };
}

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

let env: ReturnType<typeof setup>;

beforeEach(() => {
  vi.useFakeTimers();
  env = setup();
});

afterEach(() => {
  void env.feature.dispose();
  vi.useRealTimers();
});

const fill = (objects: SlimObject[]): void => {
  for (const object of objects) upsertBuiltin(env.cache, object);
};

describe('graph feature: live', () => {
  it('answers the graph of a namespace from the live cache', async () => {
    fill(shop());
    const graph: GraphResult = value(await env.feature.handlers['graph:get']({ namespace: 'shop' }));
    expect(graph).toMatchObject({ context: 'kind-dev', namespace: 'shop', focus: null, at: null, truncated: false });
    expect(graph.nodes.some((node) => node.id === UID.web)).toBe(true);
    expect(graph.nodes.some((node) => node.id === UID.worker1)).toBe(true);
    expect(value(await env.feature.handlers['graph:get']({ namespace: 'payments' })).nodes).toEqual([]);
  });

  it('rebuilds after a change in the namespace and reuses the graph while nothing changed', async () => {
    fill(shop());
    const first = value(await env.feature.handlers['graph:get']({ namespace: 'shop' }));
    expect(value(await env.feature.handlers['graph:get']({ namespace: 'shop' })).nodes).toBe(first.nodes);
    upsertBuiltin(env.cache, patched(web, { metadata: { resourceVersion: '9000', generation: 4 } }));
    const next = value(await env.feature.handlers['graph:get']({ namespace: 'shop' }));
    expect(next.nodes).not.toBe(first.nodes);
    expect(next.nodes.find((node) => node.id === UID.web)).toMatchObject({ health: 'progressing', status: 'Rolling out' });
  });

  it('publishes throttled change counters per namespace on graph:changed', async () => {
    env.changed.length = 0;
    fill(shop());
    expect(env.changed).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    expect(env.changed).toHaveLength(1);
    const counters = env.changed[0] as GraphChanged;
    expect(counters.context).toBe('kind-dev');
    expect(counters.objects['shop']).toBeGreaterThan(10);
    expect(counters.objects['']).toBe(2);
    expect(counters.events['shop']).toBe(webEvents.length);
  });

  it('does not count a node heartbeat as a change, but a node going NotReady', async () => {
    fill(shop());
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    env.changed.length = 0;
    upsertBuiltin(env.cache, patched(worker1, { metadata: { resourceVersion: '901' } }));
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    expect(env.changed).toHaveLength(0);
    upsertBuiltin(env.cache, patched(node('worker-1', UID.worker1, false), { metadata: { resourceVersion: '902' } }));
    await vi.advanceTimersByTimeAsync(THROTTLE_MS);
    expect(env.changed.at(-1)?.objects['']).toBe(3);
  });

  it('starts over on a context switch', async () => {
    fill(shop());
    env.switchTo('prod-us');
    const graph = value(await env.feature.handlers['graph:get']({ namespace: 'shop' }));
    expect(graph.context).toBe('prod-us');
    expect(graph.nodes).toEqual([]);
  });

  it('answers not-found for a focus that is not in the cluster', async () => {
    fill(shop());
    const result = await env.feature.handlers['graph:get']({ focus: 'gone' });
    expect(result).toEqual({ ok: false, error: { code: 'not-found', message: 'No object with uid gone is in the cluster (it may have been deleted).' } });
  });

  it('gives one object’s spec, status, conditions and its Events newest first', async () => {
    fill(shop());
    const detail: GraphObject = value(await env.feature.handlers['graph:object']({ uid: UID.web }));
    expect(detail.node).toMatchObject({ kind: 'Deployment', name: 'web', health: 'ready' });
    expect(detail.spec).toMatchObject({ replicas: 3 });
    expect(detail.status).toMatchObject({ readyReplicas: 3 });
    expect(detail.conditions.map((c) => c.type)).toEqual(['Available', 'Progressing']);
    expect(detail.conditions[0]).toEqual({ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.', lastTransition: Date.parse('2025-05-01T10:02:00Z') });
    expect(detail.events.map((e) => e.message)).toEqual(['Scaled down replica set web-5c6d7f8b94 to 0 from 1', 'Scaled up replica set web-7d9f8c6b5d to 1']);
    expect(detail.events[0]).toMatchObject({ type: 'Normal', reason: 'ScalingReplicaSet', count: 1, source: 'deployment-controller' });
  });
});

describe('graph feature: a past time', () => {
  it('answers unavailable, saying why, when no history can give the past', async () => {
    const result = await env.feature.handlers['graph:get']({ namespace: 'shop', at: Date.parse('2025-05-01T10:00:00Z') });
    expect(result).toEqual({ ok: false, error: { code: 'unavailable', message: 'The cluster at 2025-05-01T10:00:00.000Z is not available: no history in this test' } });
    const object = await env.feature.handlers['graph:object']({ uid: UID.web, at: 1 });
    expect(object.ok ? null : object.error.code).toBe('unavailable');
  });

  it('builds the graph from the objects history gives for that time', async () => {
    const at = Date.parse('2025-05-01T10:05:00Z');
    env.context.objectsAt = (asked) => Promise.resolve({ objects: shop().filter((o) => o.kind !== 'HorizontalPodAutoscaler'), at: asked - 1_000 });
    const graph = value(await env.feature.handlers['graph:get']({ namespace: 'shop', at }));
    expect(graph.at).toBe(at - 1_000);
    expect(graph.nodes.some((node) => node.kind === 'HorizontalPodAutoscaler')).toBe(false);
    expect(graph.nodes.some((node) => node.id === UID.web)).toBe(true);
    const detail = value(await env.feature.handlers['graph:object']({ uid: UID.web, at }));
    expect(detail.at).toBe(at - 1_000);
    expect(detail.events).toHaveLength(2);
    const gone = await env.feature.handlers['graph:object']({ uid: 'nope', at });
    expect(gone.ok ? null : gone.error.message).toBe('No object with uid nope existed at 2025-05-01T10:05:00.000Z.');
  });
});
