import { describe, expect, it } from 'vitest';
import { cluster, deployment, T } from './cluster.ts';

describe('endpoint-controller', () => {
  it('lists ready pods as addresses and starting ones as notReadyAddresses on the resolved target port', () => {
    const c = cluster({ nodes: 1 });
    c.create('services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP' }] },
    });
    expect(c.store.get(T('endpoints'), 'default', 'web')['subsets']).toBeUndefined();
    c.create('deployments.apps', deployment('web', { replicas: 2 }));
    c.advance(1_500);
    const starting = c.store.get(T('endpoints'), 'default', 'web');
    expect(starting.metadata.labels).toEqual({ app: 'web' });
    expect(starting['subsets']).toEqual([{ notReadyAddresses: [expect.objectContaining({ ip: '10.244.0.2' }), expect.objectContaining({ ip: '10.244.0.3' })], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }]);
    c.advance(2_000);
    const ready = c.store.get(T('endpoints'), 'default', 'web')['subsets'] as Array<{ addresses: unknown[] }>;
    const pods = c.pods();
    expect(ready).toHaveLength(1);
    expect(ready[0]?.addresses).toEqual(
      pods
        .map((p) => ({ ip: (p['status'] as { podIP: string }).podIP, nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: p.metadata.name, uid: p.metadata.uid } }))
        .sort((a, b) => a.ip.localeCompare(b.ip)),
    );

    c.store.delete(T('services'), 'default', 'web');
    c.settle();
    expect(c.store.find(T('endpoints'), 'default', 'web')).toBeUndefined();
  });
});
