import { afterEach, describe, expect, it } from 'vitest';
import { call, startTestCluster, type TestCluster } from './helpers.ts';

const SERVICES = '/api/v1/namespaces/default/services';

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

async function start(): Promise<TestCluster> {
  cluster = await startTestCluster();
  return cluster;
}

function service(name: string, spec: Record<string, unknown> = {}): object {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }], ...spec } };
}

function inServiceRange(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 10 && b !== undefined && b >= 96 && b <= 111;
}

describe('service allocation', () => {
  it('allocates a cluster IP from 10.96.0.0/12 and keeps it across updates', async () => {
    const { server } = await start();
    const created = (await call(server, 'POST', SERVICES, { body: service('web') })).json;
    const ip = created.spec.clusterIP;
    expect(inServiceRange(ip)).toBe(true);
    expect(created.spec).toMatchObject({ clusterIPs: [ip], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    const { clusterIP: _ip, clusterIPs: _ips, ...specWithoutIp } = created.spec;
    const updated = await call(server, 'PUT', `${SERVICES}/web`, { body: { ...created, spec: { ...specWithoutIp, selector: { app: 'web2' } } } });
    expect(updated.json.spec.clusterIP).toBe(ip);
    const changed = await call(server, 'PUT', `${SERVICES}/web`, { body: { ...updated.json, spec: { ...updated.json.spec, clusterIP: '10.96.0.99', clusterIPs: ['10.96.0.99'] } } });
    expect(changed.status).toBe(422);
    expect(changed.json.message).toBe('Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.99"]: may not change once set');
  });

  it('refuses a requested cluster IP outside the range or already taken', async () => {
    const { server } = await start();
    const outside = await call(server, 'POST', SERVICES, { body: service('a', { clusterIP: '192.168.0.1' }) });
    expect(outside.status).toBe(422);
    expect(outside.json.message).toBe(
      'Service "a" is invalid: spec.clusterIPs: Invalid value: ["192.168.0.1"]: failed to allocate IP 192.168.0.1: the provided IP (192.168.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    expect((await call(server, 'POST', SERVICES, { body: service('b', { clusterIP: '10.96.0.10' }) })).status).toBe(201);
    const taken = await call(server, 'POST', SERVICES, { body: service('c', { clusterIP: '10.96.0.10' }) });
    expect(taken.json.message).toContain('provided IP is already allocated');
  });

  it('leaves headless Services without an address', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', SERVICES, { body: service('db', { clusterIP: 'None' }) });
    expect(res.json.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'] });
  });

  it('allocates node ports from 30000-32767 for NodePort Services and refuses clashes', async () => {
    const { server } = await start();
    const res = await call(server, 'POST', SERVICES, { body: service('web', { type: 'NodePort', ports: [{ port: 80 }, { port: 443, nodePort: 30443 }] }) });
    expect(res.status).toBe(201);
    const [http, https] = res.json.spec.ports;
    expect(http.nodePort).toBeGreaterThanOrEqual(30000);
    expect(http.nodePort).toBeLessThanOrEqual(32767);
    expect(https.nodePort).toBe(30443);
    const clash = await call(server, 'POST', SERVICES, { body: service('other', { type: 'NodePort', ports: [{ port: 80, nodePort: 30443 }] }) });
    expect(clash.json.message).toBe('Service "other" is invalid: spec.ports[0].nodePort: Invalid value: 30443: provided port is already allocated');
    const low = await call(server, 'POST', SERVICES, { body: service('low', { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] }) });
    expect(low.json.message).toContain('provided port is not in the valid range. The range of valid ports is 30000-32767');
  });
});
