import { describe, expect, it } from 'vitest';
import { compareViews, describeReport, simulatorStamps, type Stamp } from '../../e2e/consistency.ts';
import { typeById, type ResourceType } from '../../../electron/engine/simcluster/resources.ts';
import { ObjectStore } from '../../../electron/engine/simcluster/store.ts';
import { attachCrdController } from '../../../electron/engine/simcluster/crd/controller.ts';
import { WATCHED_KINDS } from '../../../shared/cluster.ts';
import { kindNameOf } from '../../../shared/builtin-kinds.ts';
import { certificate, certificateCrd } from '../simcluster/crd/fixtures.ts';

const T = (id: string) => typeById(id) as ResourceType;
const pod = (uid: string, resourceVersion: string): Stamp => ({ kind: 'pods', uid, resourceVersion });

describe('consistency checker', () => {
  it('reports what each view misses, has extra and holds at an older version', () => {
    const simulator = [pod('a', '1'), pod('b', '2'), pod('c', '3')];
    const report = compareViews({ simulator, engine: [pod('a', '1'), pod('b', '1'), pod('x', '9')], renderer: simulator });
    expect(report.consistent).toBe(false);
    expect(report.diffs.engine).toEqual({ missing: [pod('c', '3')], extra: [pod('x', '9')], stale: [{ view: pod('b', '1'), simulator: pod('b', '2') }] });
    expect(report.diffs.renderer).toEqual({ missing: [], extra: [], stale: [] });
    const text = describeReport(report, new Map([['c', 'default/web-c']]));
    expect(text).toMatch(/engine: 1 missing, 1 extra, 1 stale/);
    expect(text).toMatch(/missing:\n\s+pods default\/web-c rv 3/);
    expect(text).toMatch(/stale:\n\s+pods b rv 1, simulator rv 2/);
    expect(text).toMatch(/renderer: equal to the simulator/);
  });

  it('agrees when all three views hold the same stamps in any order', () => {
    const stamps = [pod('a', '1'), { kind: 'nodes', uid: 'n', resourceVersion: '4' } satisfies Stamp];
    const report = compareViews({ simulator: stamps, engine: [...stamps].reverse(), renderer: stamps });
    expect(report).toMatchObject({ consistent: true, objects: 2 });
  });

  it('reads the watched kinds from the store once each: Events by their stored core type, no Secrets', () => {
    const store = new ObjectStore();
    store.create(T('namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
    const event = store.create(T('events'), { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p' } });
    store.create(T('secrets'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' } });
    const stamps = simulatorStamps(store);
    expect(stamps.map((s) => s.kind).sort()).toEqual(['events', 'namespaces']);
    expect(stamps).toContainEqual({ kind: 'events', uid: event.metadata.uid, resourceVersion: event.metadata.resourceVersion });
  });

  it('keeps only the objects a visibility filter lets through, so a restricted user’s views compare with what it may read', () => {
    const store = new ObjectStore();
    const shop = store.create(T('pods'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } });
    store.create(T('pods'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'api', namespace: 'platform' }, spec: { containers: [{ name: 'api', image: 'nginx' }] } });
    store.create(T('nodes'), { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
    const visible = simulatorStamps(store, ['pods', 'nodes'], (type, object) => type.namespaced && object.metadata.namespace === 'shop');
    expect(visible).toEqual([{ kind: 'pods', uid: shop.metadata.uid, resourceVersion: shop.metadata.resourceVersion }]);
    expect(simulatorStamps(store, ['pods', 'nodes'])).toHaveLength(3);
  });

  it('reads every built-in watched kind from the store id that is its kind key', () => {
    const store = new ObjectStore();
    for (const kind of WATCHED_KINDS) expect(store.types.byId(kind)?.kind, kind).toBe(kindNameOf(kind));
  });

  it('reads custom resources by kind key while their CRD serves them, and nothing once it is gone', () => {
    const store = new ObjectStore();
    attachCrdController(store);
    const crd = store.create(T('customresourcedefinitions.apiextensions.k8s.io'), certificateCrd() as never);
    const type = store.types.byId('certificates.cert-manager.io') as ResourceType;
    const web = store.create(type, certificate('web-tls') as never);
    const changed = store.mutate(type, 'default', 'web-tls', (object) => ({ ...object, status: { conditions: [{ type: 'Ready', status: 'True' }] } }));
    const kinds = ['certificates.cert-manager.io', 'customresourcedefinitions.apiextensions.k8s.io'];
    expect(simulatorStamps(store, kinds)).toEqual([
      { kind: 'certificates.cert-manager.io', uid: web.metadata.uid, resourceVersion: changed.metadata.resourceVersion },
      { kind: 'customresourcedefinitions.apiextensions.k8s.io', uid: crd.metadata.uid, resourceVersion: expect.any(String) },
    ]);
    store.types.removeCustom('certificates.cert-manager.io');
    expect(simulatorStamps(store, ['certificates.cert-manager.io'])).toEqual([]);
  });
});
