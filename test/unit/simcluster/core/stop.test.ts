import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { IDLE_MS } from '../../../../electron/engine/simcluster/json-texts.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const PODS = typeById('pods') as ResourceType;

function pod(i: number): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: `web-${i}`, namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } as unknown as KubeObject;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a stopped simulator', () => {
  it('stops making its objects’ JSON while idle, so they can be collected at once', async () => {
    const sim = await startSimCluster({ scenario: 'minimal', controllers: false });
    for (let i = 0; i < 2_000; i += 1) sim.store.create(PODS, pod(i));
    expect(sim.store.jsonBacklog()).toBeGreaterThanOrEqual(2_000);
    await sim.stop();
    // Before, the idle turns went on after the stop (a 50,000-pod bench cluster: ~2 s, holding
    // its ~330 MB of objects, while the next benchmark ran in the same process).
    expect(sim.store.jsonBacklog()).toBe(0);
    const stringify = vi.spyOn(JSON, 'stringify');
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    expect(stringify).not.toHaveBeenCalled();
  });
});
