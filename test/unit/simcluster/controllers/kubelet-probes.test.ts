/**
 * The simulated kubelet's failure images: `:unready` fails its readiness probe in the prober's
 * words for its handler (HTTP 503, a refused TCP connection on the resolved port), and `:oom`
 * is OOMKilled with exit code 137.
 */
import { describe, expect, it } from 'vitest';
import { applyPodDefaults } from '../../../../electron/engine/simcluster/controllers/pods.ts';
import type { IncomingObject } from '../../../../electron/engine/simcluster/types.ts';
import { cluster, condition, PODS, statusOf } from './cluster.ts';

function pod(name: string, container: Record<string, unknown>): IncomingObject {
  return applyPodDefaults({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'web', ...container }] } }) as IncomingObject;
}

describe('kubelet failure images', () => {
  it('keeps an :unready container unready, probing every periodSeconds with Unhealthy Events', () => {
    const c = cluster({ nodes: 1 });
    c.create('pods', pod('api', { image: 'example/api:unready', ports: [{ name: 'http', containerPort: 8080 }], readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 2 } }));
    c.advance(10_000);
    const current = c.store.get(PODS, 'default', 'api');
    expect(statusOf(current)['phase']).toBe('Running');
    expect(condition(current, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' });
    const unhealthy = c.events({ object: 'api', reason: 'Unhealthy' });
    expect(unhealthy.map((e) => [e.type, e.message])).toEqual([['Warning', `Readiness probe failed: dial tcp ${String(statusOf(current)['podIP'])}:8080: connect: connection refused`]]);
    // First probe at ~2s (start + readiness delay), then every 2s.
    expect(unhealthy[0]?.count).toBeGreaterThanOrEqual(3);
  });

  it('lets an :unready container without a readinessProbe be ready, as the kubelet does', () => {
    const c = cluster({ nodes: 1 });
    c.create('pods', pod('plain', { image: 'example/api:unready' }));
    c.advance(5_000);
    expect(condition(c.store.get(PODS, 'default', 'plain'), 'Ready')).toMatchObject({ status: 'True' });
    expect(c.events({ object: 'plain', reason: 'Unhealthy' })).toEqual([]);
  });

  it('OOMKills an :oom container with exit code 137 and restarts it', () => {
    const c = cluster({ nodes: 1 });
    c.create('pods', pod('hog', { image: 'example/hog:oom' }));
    c.advance(4_000);
    const status = (statusOf(c.store.get(PODS, 'default', 'hog'))['containerStatuses'] as Array<{ restartCount: number; lastState: { terminated?: { exitCode: number; reason: string } } }>)[0];
    expect(status?.restartCount).toBeGreaterThanOrEqual(1);
    expect(status?.lastState.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });
});
