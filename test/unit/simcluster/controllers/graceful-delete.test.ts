import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { PODS } from './cluster.ts';

function podStore() {
  let now = Date.UTC(2026, 0, 1);
  const store = new ObjectStore({ now: () => now });
  store.create(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { nodeName: 'node-1' }, status: { phase: 'Running' } });
  return { store, tick: (ms: number) => (now += ms) };
}

describe('graceful pod deletion in the store', () => {
  it('marks a pod Terminating for its grace period and keeps taking status updates', () => {
    const { store } = podStore();
    const { deleted, object } = store.delete(PODS, 'default', 'p', { gracePeriodSeconds: 30 });
    expect(deleted).toBe(false);
    expect(object.metadata).toMatchObject({ deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 });
    store.mutate(PODS, 'default', 'p', (copy) => {
      copy['status'] = { phase: 'Succeeded' };
    }, { subresource: 'status' });
    expect(store.find(PODS, 'default', 'p')?.['status']).toEqual({ phase: 'Succeeded' });
    // Deleting again with the same grace changes nothing; a shorter one restarts the clock.
    expect(store.delete(PODS, 'default', 'p', { gracePeriodSeconds: 30 }).object.metadata.resourceVersion).toBe(store.find(PODS, 'default', 'p')?.metadata.resourceVersion);
    expect(store.delete(PODS, 'default', 'p', { gracePeriodSeconds: 5 }).object.metadata.deletionTimestamp).toBe('2026-01-01T00:00:05Z');
    expect(store.delete(PODS, 'default', 'p', { gracePeriodSeconds: 0 }).deleted).toBe(true);
    expect(store.find(PODS, 'default', 'p')).toBeUndefined();
  });

  it('still deletes at once without a grace period', () => {
    const { store } = podStore();
    expect(store.delete(PODS, 'default', 'p').deleted).toBe(true);
  });
});
