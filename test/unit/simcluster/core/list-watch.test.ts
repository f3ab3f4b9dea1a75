import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { listObjects } from '../../../../electron/engine/simcluster/list.ts';
import { startWatch } from '../../../../electron/engine/simcluster/watch.ts';
import { parseFieldSelector, parseLabelSelector } from '../../../../electron/engine/simcluster/selectors.ts';
import { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import type { WatchEvent } from '../../../../electron/engine/simcluster/types.ts';

const PODS = typeById('pods')!;

function pod(name: string, namespace: string, labels: Record<string, string>, phase = 'Running') {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels }, spec: { nodeName: 'node-1' }, status: { phase } };
}

function seeded(): ObjectStore {
  const store = new ObjectStore();
  store.create(PODS, pod('web-1', 'shop', { app: 'web', tier: 'front' }));
  store.create(PODS, pod('web-2', 'shop', { app: 'web', tier: 'front' }, 'Pending'));
  store.create(PODS, pod('db-0', 'shop', { app: 'db' }));
  store.create(PODS, pod('api-1', 'payments', { app: 'api', env: 'prod' }));
  return store;
}

const names = (items: Array<{ metadata: { name: string } }>) => items.map((o) => o.metadata.name);

describe('selectors', () => {
  it('supports =, !=, in, notin, exists and !exists', () => {
    const store = seeded();
    const list = (selector: string) => names(listObjects(store, PODS, { labelSelector: parseLabelSelector(selector) }).items);
    expect(list('app=web')).toEqual(['web-1', 'web-2']);
    expect(list('app!=web')).toEqual(['api-1', 'db-0']);
    expect(list('app in (db, api)')).toEqual(['api-1', 'db-0']);
    expect(list('app notin (web),env')).toEqual(['api-1']);
    expect(list('!tier')).toEqual(['api-1', 'db-0']);
  });

  it('filters by the fields kube-apiserver supports and refuses others', () => {
    const store = seeded();
    expect(names(listObjects(store, PODS, { fieldSelector: parseFieldSelector('status.phase=Pending', 'Pod') }).items)).toEqual(['web-2']);
    expect(names(listObjects(store, PODS, { fieldSelector: parseFieldSelector('metadata.namespace!=shop', 'Pod') }).items)).toEqual(['api-1']);
    expect(() => parseFieldSelector('spec.containers=x', 'Pod')).toThrow('field label not supported: spec.containers');
  });

  it('rejects malformed label keys as BadRequest', () => {
    expect(() => parseLabelSelector('app=web,bad key=1')).toThrow(ApiError);
  });
});

describe('list', () => {
  it('pages with limit and continue at the first page’s resourceVersion', () => {
    const store = seeded();
    const first = listObjects(store, PODS, { limit: 2 });
    expect(names(first.items)).toEqual(['api-1', 'db-0']);
    expect(first.remainingItemCount).toBe(2);
    store.create(PODS, pod('aaa', 'shop', {}));
    store.delete(PODS, 'shop', 'web-2');
    const second = listObjects(store, PODS, { limit: 2, continueToken: first.continueToken });
    expect(names(second.items)).toEqual(['web-1', 'web-2']);
    expect(second.resourceVersion).toBe(first.resourceVersion);
    expect(second.continueToken).toBeUndefined();
  });

  it('answers 410 for a continue token whose version was compacted', () => {
    const store = seeded();
    const first = listObjects(store, PODS, { limit: 1 });
    store.create(PODS, pod('x', 'shop', {}));
    store.compact();
    try {
      listObjects(store, PODS, { limit: 1, continueToken: first.continueToken });
      expect.unreachable();
    } catch (error) {
      expect((error as ApiError).code).toBe(410);
      expect((error as ApiError).message).toMatch(/^The provided continue parameter is too old/);
    }
  });

  it('serves Exact lists at an older resourceVersion and 504s for a future one', () => {
    const store = seeded();
    const rv = store.currentRv();
    store.delete(PODS, 'shop', 'db-0');
    expect(names(listObjects(store, PODS, { resourceVersion: String(rv), resourceVersionMatch: 'Exact' }).items)).toContain('db-0');
    expect(names(listObjects(store, PODS, { resourceVersion: String(rv), resourceVersionMatch: 'NotOlderThan' }).items)).not.toContain('db-0');
    expect(() => listObjects(store, PODS, { resourceVersion: '9999' })).toThrow(/Too large resource version/);
  });

  it('lists one namespace only', () => {
    expect(names(listObjects(seeded(), PODS, { namespace: 'payments' }).items)).toEqual(['api-1']);
  });
});

describe('watch', () => {
  it('replays changes after a resourceVersion then streams new ones', () => {
    const store = seeded();
    const rv = store.currentRv();
    store.mutate(PODS, 'shop', 'web-1', (o) => void (o.metadata.labels = { app: 'web', v: '2' }));
    const events: WatchEvent[] = [];
    const watch = startWatch(store, PODS, { resourceVersion: String(rv) }, (e) => events.push(e));
    store.delete(PODS, 'shop', 'db-0');
    watch.stop();
    store.create(PODS, pod('late', 'shop', {}));
    expect(events.map((e) => `${e.type} ${(e.object as { metadata: { name: string } }).metadata.name}`)).toEqual(['MODIFIED web-1', 'DELETED db-0']);
  });

  it('starts with synthetic ADDED events when no resourceVersion is given', () => {
    const events: WatchEvent[] = [];
    startWatch(seeded(), PODS, { namespace: 'shop' }, (e) => events.push(e)).stop();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
  });

  it('turns changes into and out of a selector into ADDED and DELETED', () => {
    const store = seeded();
    const events: string[] = [];
    startWatch(store, PODS, { resourceVersion: String(store.currentRv()), labelSelector: parseLabelSelector('tier=front') }, (e) =>
      events.push(`${e.type} ${(e.object as { metadata: { name: string } }).metadata.name}`),
    );
    store.mutate(PODS, 'shop', 'web-1', (o) => void (o.metadata.labels = { app: 'web' }));
    store.mutate(PODS, 'shop', 'db-0', (o) => void (o.metadata.labels = { app: 'db', tier: 'front' }));
    store.mutate(PODS, 'payments', 'api-1', (o) => void (o.metadata.labels = { app: 'api', env: 'dev' }));
    expect(events).toEqual(['DELETED web-1', 'ADDED db-0']);
  });

  it('sends the initial-events-end bookmark with sendInitialEvents', () => {
    const store = seeded();
    const events: WatchEvent[] = [];
    startWatch(store, PODS, { sendInitialEvents: true, allowWatchBookmarks: true, namespace: 'payments' }, (e) => events.push(e)).stop();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(events[1]?.object).toEqual({ kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: String(store.currentRv()), annotations: { 'k8s.io/initial-events-end': 'true' } } });
  });

  it('throws 410 Gone when asked to start before the retained window', () => {
    const store = new ObjectStore({ retainedChanges: 1 });
    store.create(PODS, pod('a', 'shop', {}));
    store.create(PODS, pod('b', 'shop', {}));
    store.create(PODS, pod('c', 'shop', {}));
    expect(() => startWatch(store, PODS, { resourceVersion: '1' }, () => {})).toThrow(/too old resource version/);
  });
});
