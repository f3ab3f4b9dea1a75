import { describe, expect, it } from 'vitest';
import { EventRecorder } from '../../../../electron/engine/simcluster/controllers/events.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { EVENTS } from './cluster.ts';

const POD: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'shop', uid: 'u-1', resourceVersion: '7', creationTimestamp: '2026-01-01T11:59:00Z' } };

describe('EventRecorder', () => {
  it('names events <object>.<hex nanoseconds> so a list shows them in the order they happened', () => {
    let now = Date.UTC(2026, 0, 1, 12);
    const store = new ObjectStore({ now: () => now });
    const recorder = new EventRecorder(store, () => now);
    const reasons = ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started'];
    for (const reason of reasons.slice(0, 3)) recorder.record({ regarding: POD, type: 'Normal', reason, message: reason, component: 'kubelet' });
    // Two events in the same millisecond still get distinct, increasing names.
    now += 1;
    for (const reason of reasons.slice(3)) recorder.record({ regarding: POD, type: 'Normal', reason, message: reason, component: 'kubelet' });

    const listed = store.all(EVENTS, 'shop');
    expect(listed.map((e) => e['reason'])).toEqual(reasons);
    expect(listed[0]?.metadata.name).toBe(`web-1.${(BigInt(Date.UTC(2026, 0, 1, 12)) * 1_000_000n).toString(16)}`);
    expect(new Set(listed.map((e) => e.metadata.name)).size).toBe(reasons.length);
    for (const event of listed) expect(event.metadata.name).toMatch(/^web-1\.[0-9a-f]{16}$/);
  });
});
