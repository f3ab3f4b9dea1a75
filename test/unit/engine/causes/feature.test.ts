import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCausesFeature } from '../../../../electron/engine/causes/feature.ts';
import { createCauseView, findCauses } from '../../../../electron/engine/causes/index.ts';
import { createLiveCauseView } from '../../../../electron/engine/causes/live-view.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { Result } from '../../../../shared/result.ts';
import { causeCluster } from '../../../bench/cause-find.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { SettingsStore } from '../../../../electron/engine/settings.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment, event, IMAGE, pod, replicaSet } from './fixtures.ts';

const NOW = Date.parse('2026-11-27T09:10:00Z');
const PULL_FAILED = `Failed to pull image "${IMAGE}": rpc error: code = NotFound desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": ${IMAGE}: not found`;

function value<T>(result: Result<T> | Promise<Result<T>>): T {
  if (result instanceof Promise) throw new Error('handlers answer synchronously');
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** A Deployment whose newest ReplicaSet's pod cannot pull its image, with the kubelet's Failed Event. */
function brokenCatalog(): { catalog: SlimObject; rs: SlimObject; broken: SlimObject; failed: SlimObject } {
  const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0, availableReplicas: 0 } });
  const rs = replicaSet(catalog, 2, { replicas: 1, status: { readyReplicas: 0, availableReplicas: 0 } });
  const broken = pod(rs, 'x1', {
    ready: false,
    phase: 'Pending',
    containerStatuses: [{ name: 'catalog', image: IMAGE, imageID: '', ready: false, restartCount: 0, started: false, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` } } }],
  });
  const failed = event(broken, 'Failed', PULL_FAILED, { first: 40, count: 4, fieldPath: 'spec.containers{catalog}' });
  return { catalog, rs, broken, failed };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  // Never loaded: the default settings (no status rules), as a fresh install has them.
  const fake = fakeEngineContext({ settings: new SettingsStore(path.join(tmpdir(), `kubedrift-causes-${process.pid}-${Math.random().toString(36).slice(2)}`)) });
  const pushes = fake.collect('causes:changed');
  const feature = createCausesFeature(fake.context, { intervalMs: 1_000 });
  return { ...fake, pushes, feature, h: feature.handlers };
}

describe('causes feature', () => {
  it("answers one object's causes by uid, quoting the image and the kubelet's message", () => {
    const { cache, h, feature } = setup();
    const { catalog, rs, broken, failed } = brokenCatalog();
    for (const object of [catalog, rs, broken, failed]) upsertBuiltin(cache, object);
    const report = value(h['causes:for']({ uid: catalog.metadata.uid }));
    expect(report.target).toMatchObject({ kind: 'Deployment', name: 'catalog', uid: catalog.metadata.uid });
    expect(report.causes[0]?.sentence).toBe(`1 pod can't pull ${IMAGE}: not found`);
    expect(report.causes[0]?.chain.map((link) => link.kind)).toEqual(['Deployment', 'ReplicaSet']);
    expect(report.causes[0]?.evidence.map((e) => e.name)).toEqual([broken.metadata.name]);
    feature.dispose();
  });

  it('says clearly when the object asked about is not in the cache', () => {
    const { h, feature } = setup();
    const result = h['causes:for']({ uid: 'no-such-uid' });
    expect(result).toMatchObject({ ok: false, error: { code: 'not-found' } });
    if (!(result instanceof Promise) && !result.ok) expect(result.error.message).toContain('no-such-uid');
    feature.dispose();
  });

  it('pushes the drifting workloads at most once per interval while the cache changes, and only when they changed', () => {
    const { cache, pushes, h, feature } = setup();
    const { catalog, rs, broken, failed } = brokenCatalog();
    for (const object of [catalog, rs, broken, failed]) upsertBuiltin(cache, object);
    vi.advanceTimersByTime(999);
    expect(pushes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.reports.map((r) => r.target.name)).toEqual(['catalog']);
    expect(pushes[0]?.context).toBe('kind-dev');
    // Many changes within a second: one recomputation; a change that alters no cause: no push.
    for (let i = 0; i < 50; i += 1) upsertBuiltin(cache, { ...failed, metadata: { ...failed.metadata, resourceVersion: String(50_000 + i) } });
    vi.advanceTimersByTime(1_000);
    expect(pushes).toHaveLength(1);
    // The pod becomes ready and the Deployment converges: the next push has no report.
    upsertBuiltin(cache, { ...catalog, metadata: { ...catalog.metadata, resourceVersion: '60000' }, status: { observedGeneration: 2, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 } } as SlimObject);
    vi.advanceTimersByTime(1_000);
    expect(pushes).toHaveLength(2);
    expect(pushes[1]?.reports).toEqual([]);
    expect(pushes[1]?.revision).toBe(pushes[0]!.revision + 1);
    expect(value(h['causes:drifting']({}))).toEqual(pushes[1]);
    feature.dispose();
  });

  it('answers causes:drifting fresh without waiting for the interval, and starts over on a context switch', () => {
    const { cache, h, switchTo, feature } = setup();
    const { catalog, rs, broken, failed } = brokenCatalog();
    for (const object of [catalog, rs, broken, failed]) upsertBuiltin(cache, object);
    expect(value(h['causes:drifting']({})).reports.map((r) => r.causes[0]?.code)).toEqual(['image-pull']);
    switchTo('prod');
    const after = value(h['causes:drifting']({}));
    expect(after.context).toBe('prod');
    expect(after.reports).toEqual([]);
    expect(h['causes:for']({ uid: catalog.metadata.uid })).toMatchObject({ ok: false });
    feature.dispose();
  });

  it('reads causes already cached when it starts', () => {
    const fake = fakeEngineContext({ settings: new SettingsStore('/nonexistent/kubedrift-causes-test') });
    const { catalog, rs, broken, failed } = brokenCatalog();
    for (const object of [catalog, rs, broken, failed]) upsertBuiltin(fake.cache, object);
    const feature = createCausesFeature(fake.context);
    expect(value(feature.handlers['causes:drifting']({})).reports).toHaveLength(1);
    feature.dispose();
  });
});

describe('live cause view', () => {
  it('finds what a view built from scratch finds, after every object of a 10,000-pod cluster is updated', () => {
    const cluster = causeCluster();
    const live = createLiveCauseView();
    for (const object of cluster.objects) live.upsert(object);
    // Every object written twice (an update): nothing left stale, nothing counted twice.
    for (const object of cluster.objects) live.upsert({ ...object, metadata: { ...object.metadata } } as SlimObject);
    expect(findCauses(live)).toEqual(findCauses(createCauseView(cluster.objects)));
    expect([...live.all()].every((object) => object.kind !== 'Pod')).toBe(true);
  });

  it('drops a deleted pod from its owner, its node and its Events', () => {
    const { catalog, rs, broken, failed } = brokenCatalog();
    const live = createLiveCauseView();
    for (const object of [catalog, rs, broken, failed]) live.upsert(object);
    expect(live.dependents(rs.metadata.uid)).toHaveLength(1);
    expect(live.podsOnNode('worker-1')).toHaveLength(1);
    expect(live.eventsAbout(broken.metadata.uid)).toHaveLength(1);
    live.delete(broken.metadata.uid);
    live.delete(failed.metadata.uid);
    expect(live.dependents(rs.metadata.uid)).toEqual([]);
    expect(live.podsOnNode('worker-1')).toEqual([]);
    expect(live.eventsAbout(broken.metadata.uid)).toEqual([]);
    expect(live.get(failed.metadata.uid)).toBeUndefined();
    expect(live.byName('apps', 'ReplicaSet', rs.metadata.namespace, rs.metadata.name)).toBe(rs);
  });
});

describe('causes feature with the user\'s status rules', () => {
  it('reports a custom resource drifting by a rule from Settings, found again when the rules change', async () => {
    const { cache, h, feature, context, hub } = setup();
    const settings = context.settings;
    const widget = {
      apiVersion: 'example.com/v1alpha1',
      kind: 'Widget',
      metadata: { name: 'blue', namespace: 'shop', uid: 'w-1', resourceVersion: '4001', generation: 3 },
      spec: { colour: 'blue' },
      status: { observedGeneration: 3, conditions: [{ type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'cannot update widget: 409 conflict' }] },
    } as SlimObject;
    cache.upsert('widgets.example.com', widget);
    const before = value(h['causes:drifting']({}));
    expect(before.reports.map((r) => r.target.name)).not.toContain('blue');
    const next = await settings.update({ statusRules: [{ group: 'example.com', kind: 'Widget', conditionType: 'Synced', conditionStatus: 'False', reason: 'ReconcileError', state: 'failed' }] });
    hub.emit('settings:changed', next);
    await vi.advanceTimersByTimeAsync(1_000);
    const after = value(h['causes:drifting']({}));
    expect(after.reports.find((r) => r.target.name === 'blue')?.causes[0]?.sentence).toContain('ReconcileError');
    feature.dispose();
  });
});
