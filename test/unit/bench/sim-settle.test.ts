import { afterEach, describe, expect, it, vi } from 'vitest';
import { settleStore } from '../../bench/sim-settle.ts';
import { ObjectStore } from '../../../electron/engine/simcluster/store.ts';
import { typeById, type ResourceType } from '../../../electron/engine/simcluster/resources.ts';

const NAMESPACES = typeById('namespaces') as ResourceType;

describe('a bench simulator settling before it is ready', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('waits until the store has made every object’s JSON, then collects the heap once', async () => {
    const store = new ObjectStore();
    for (let i = 0; i < 600; i += 1) store.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${i}` } });
    expect(store.jsonBacklog()).toBeGreaterThan(0);
    const gc = vi.fn(() => expect(store.jsonBacklog()).toBe(0));
    vi.stubGlobal('gc', gc);
    await settleStore(store);
    expect(store.jsonBacklog()).toBe(0);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('gives up after its timeout on a store that is written all the time', async () => {
    const start = performance.now();
    const ms = await settleStore({ jsonBacklog: () => 1 }, 200);
    expect(ms).toBeGreaterThanOrEqual(200);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});
