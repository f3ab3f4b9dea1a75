/**
 * The simulator's history window is kube-apiserver's watch cache: a fixed number of changes kept
 * whatever their age, 75 s of fresher ones beyond it up to 102,400, and a watch from before the
 * window gets 410 with kube-apiserver's message (the second number: the oldest kept change's
 * resourceVersion minus one).
 */
import { describe, expect, it } from 'vitest';
import { ChangeLog, WATCH_CACHE_FRESH_MS, type Change } from '../../../../electron/engine/simcluster/changelog.ts';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { startWatch } from '../../../../electron/engine/simcluster/watch.ts';

const PODS = typeById('pods')!;

function change(rv: number): Change {
  return { rv, type: 'MODIFIED', resource: 'pods', key: `shop/web-${rv % 7}`, object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: `web-${rv % 7}`, namespace: 'shop', uid: `uid-${rv % 7}`, creationTimestamp: '2026-11-28T01:00:00Z', resourceVersion: String(rv) } } };
}

describe('the watch cache window', () => {
  it('keeps 75 s of changes beyond its capacity, up to its upper bound', () => {
    let now = 0;
    const log = new ChangeLog({ capacity: 10, upperBound: 50, now: () => now });
    // 40 changes within a second: all fresh, all kept though the capacity is 10.
    for (let rv = 1; rv <= 40; rv += 1) log.append(change(rv));
    expect(log.oldestServable()).toBe(0);
    // 30 more: the upper bound (50) holds whatever their age.
    for (let rv = 41; rv <= 70; rv += 1) log.append(change(rv));
    expect(log.oldestServable()).toBe(20);
    expect(log.since(20)).toHaveLength(50);
    // Once the old ones are older than 75 s, the window shrinks back to the capacity.
    now += WATCH_CACHE_FRESH_MS;
    log.append(change(71));
    expect(log.oldestServable()).toBe(61);
    expect(log.since(61).map((c) => c.rv)).toEqual([62, 63, 64, 65, 66, 67, 68, 69, 70, 71]);
  });

  it('keeps exactly the given number when built with a number (no time-based growth)', () => {
    const log = new ChangeLog(3);
    for (let rv = 1; rv <= 8; rv += 1) log.append(change(rv));
    expect(log.oldestServable()).toBe(5);
  });

  it("answers a watch from before the window with kube-apiserver's 410", () => {
    const store = new ObjectStore({ retainedChanges: 2 });
    const create = (name: string) => store.create(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'shop' }, spec: { nodeName: 'node-1' }, status: { phase: 'Running' } });
    for (const name of ['a', 'b', 'c', 'd', 'e']) create(name);
    // Changes 4 and 5 are kept: the oldest is 4, so a watch may start from 3, and 2 is too old.
    expect(store.oldestServableRv()).toBe(3);
    expect(() => startWatch(store, PODS, { resourceVersion: '3' }, () => undefined).stop()).not.toThrow();
    expect(() => startWatch(store, PODS, { resourceVersion: '2' }, () => undefined)).toThrow('too old resource version: 2 (3)');
  });

  it('by default keeps far more than 50,000 fresh changes of a busy store, as a 75 s watch cache does', () => {
    const store = new ObjectStore();
    store.create(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'busy', namespace: 'shop' }, spec: { nodeName: 'node-1' }, status: { phase: 'Running' } });
    for (let i = 0; i < 60_000; i += 1) {
      store.mutate(PODS, 'shop', 'busy', (copy) => {
        copy.metadata.labels = { round: String(i) };
      });
    }
    expect(store.currentRv()).toBe(60_001);
    expect(store.oldestServableRv()).toBe(0);
    expect(() => startWatch(store, PODS, { resourceVersion: '1' }, () => undefined).stop()).not.toThrow();
  });
});
