import { describe, expect, it } from 'vitest';
import { call, useTestCluster } from './helpers.ts';

const QUOTAS = '/api/v1/namespaces/default/resourcequotas';
const PODS = '/api/v1/namespaces/default/pods';

function pod(name: string, cpu: string) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'web', image: 'nginx:1.27', resources: { requests: { cpu, memory: '64Mi' } } }] } };
}

const fixture = useTestCluster();

describe('ResourceQuota', () => {
  it('is served as core/v1 resourcequotas (short name quota) and refuses a pod past its hard limit with the admission plugin\'s 403', async () => {
    const { server } = await fixture.start();
    const created = await call(server, 'POST', QUOTAS, { body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute' }, spec: { hard: { cpu: '1', pods: '5' } } } });
    expect(created.status).toBe(201);
    const discovery = await call(server, 'GET', '/api/v1');
    expect(discovery.json.resources).toContainEqual(expect.objectContaining({ name: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'] }));

    expect((await call(server, 'POST', PODS, { body: pod('a', '600m') })).status).toBe(201);
    const refused = await call(server, 'POST', PODS, { body: pod('b', '500m') });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'pods "b" is forbidden: exceeded quota: compute, requested: cpu=500m, used: cpu=600m, limited: cpu=1',
      details: { name: 'b', kind: 'pods' },
    });
    expect((await call(server, 'GET', `${PODS}/b`)).status).toBe(404);
    expect((await call(server, 'POST', PODS, { body: pod('c', '400m') })).status).toBe(201);
  });
});
