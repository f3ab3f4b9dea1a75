import { describe, expect, it } from 'vitest';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { toTable } from '../../../../electron/engine/simcluster/tables/index.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function object(kind: string, apiVersion: string, name: string, body: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject {
  return { apiVersion, kind, metadata: { name, uid: `uid-${name}`, resourceVersion: '77', creationTimestamp: ago(45 * 60), ...metadata }, ...body };
}

function cells(id: string, obj: KubeObject) {
  return toTable(typeById(id)!, [obj], { now: NOW }).rows[0]!.cells;
}

describe('Service rows', () => {
  it('prints a ClusterIP service with node ports and its selector', () => {
    const svc = object('Service', 'v1', 'web', {
      spec: {
        type: 'NodePort',
        clusterIP: '10.96.14.7',
        clusterIPs: ['10.96.14.7'],
        selector: { app: 'web', tier: 'frontend' },
        ports: [
          { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP', nodePort: 0 },
          { name: 'https', port: 443, targetPort: 8443, protocol: 'TCP', nodePort: 30443 },
        ],
      },
    });
    expect(cells('services', svc)).toEqual(['web', 'NodePort', '10.96.14.7', '<none>', '80/TCP,443:30443/TCP', '45m', 'app=web,tier=frontend']);
  });

  it('prints <pending> for a LoadBalancer without ingress, then its address', () => {
    const lb = (ingress?: unknown[]) =>
      object('Service', 'v1', 'shop', { spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.20'], ports: [{ port: 443, protocol: 'TCP', nodePort: 31234 }] }, status: { loadBalancer: ingress ? { ingress } : {} } });
    expect(cells('services', lb())[3]).toBe('<pending>');
    expect(cells('services', lb([{ ip: '203.0.113.10' }, { hostname: 'shop.example.com' }]))[3]).toBe('203.0.113.10,shop.example.com');
  });

  it('prints ExternalName services with their name and no cluster IP', () => {
    const ext = object('Service', 'v1', 'payments', { spec: { type: 'ExternalName', externalName: 'payments.example.com' } });
    expect(cells('services', ext).slice(1, 7)).toEqual(['ExternalName', '<none>', 'payments.example.com', '<none>', '45m', '<none>']);
  });
});

describe('Endpoints, Namespace, ConfigMap, Secret rows', () => {
  it('lists three endpoints and counts the rest', () => {
    const ep = object('Endpoints', 'v1', 'web', {
      subsets: [
        { addresses: [{ ip: '10.244.1.4' }, { ip: '10.244.2.9' }], ports: [{ port: 8080, protocol: 'TCP' }] },
        { addresses: [{ ip: '10.244.3.2' }, { ip: '10.244.1.5' }, { ip: 'fd00::5' }], ports: [{ port: 8080, protocol: 'TCP' }] },
      ],
    });
    expect(cells('endpoints', ep)).toEqual(['web', '10.244.1.4:8080,10.244.2.9:8080,10.244.3.2:8080 + 2 more...', '45m']);
    expect(cells('endpoints', object('Endpoints', 'v1', 'idle', {}))[1]).toBe('<none>');
  });

  it('prints namespace phase, ConfigMap and Secret key counts', () => {
    expect(cells('namespaces', object('Namespace', 'v1', 'shop', { status: { phase: 'Terminating' } }))).toEqual(['shop', 'Terminating', '45m']);
    expect(cells('configmaps', object('ConfigMap', 'v1', 'app', { data: { 'app.yaml': '', 'log.level': 'info' }, binaryData: { logo: 'iVBO' } }))).toEqual(['app', 3, '45m']);
    expect(cells('secrets', object('Secret', 'v1', 'tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'LS0t', 'tls.key': 'LS0t' } }))).toEqual(['tls', 'kubernetes.io/tls', 2, '45m']);
  });
});

describe('Node rows', () => {
  const node = (name: string, ready: string, labels: Record<string, string>, unschedulable = false) =>
    object(
      'Node',
      'v1',
      name,
      {
        spec: unschedulable ? { unschedulable: true } : {},
        status: {
          conditions: [
            { type: 'MemoryPressure', status: 'False' },
            { type: 'Ready', status: ready },
          ],
          addresses: [
            { type: 'InternalIP', address: '172.18.0.3' },
            { type: 'Hostname', address: name },
          ],
          nodeInfo: { kubeletVersion: 'v1.31.2', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.8.0-45-generic', containerRuntimeVersion: 'containerd://1.7.22' },
        },
      },
      { labels },
    );

  it('prints a control-plane node with its versions, wide columns included', () => {
    expect(cells('nodes', node('kind-control-plane', 'True', { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/hostname': 'kind-control-plane' }))).toEqual([
      'kind-control-plane',
      'Ready',
      'control-plane',
      '45m',
      'v1.31.2',
      '172.18.0.3',
      '<none>',
      'Debian GNU/Linux 12 (bookworm)',
      '6.8.0-45-generic',
      'containerd://1.7.22',
    ]);
  });

  it('prints NotReady, cordoned nodes and <none> roles', () => {
    expect(cells('nodes', node('worker-2', 'Unknown', {})).slice(1, 3)).toEqual(['NotReady', '<none>']);
    expect(cells('nodes', node('worker-1', 'True', { 'kubernetes.io/role': 'worker', 'node-role.kubernetes.io/ingress': '' }, true)).slice(1, 3)).toEqual(['Ready,SchedulingDisabled', 'ingress,worker']);
  });
});

describe('Event rows', () => {
  it('prints a core/v1 Event as kubectl get events does, wide columns after', () => {
    const event = object(
      'Event',
      'v1',
      'web-7d4b9c8f5-x2k9q.17f8a2c3d4e5f601',
      {
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-7d4b9c8f5-x2k9q', fieldPath: 'spec.containers{nginx}' },
        reason: 'BackOff',
        message: 'Back-off restarting failed container nginx in pod web-7d4b9c8f5-x2k9q_default\n',
        source: { component: 'kubelet', host: 'worker-1' },
        firstTimestamp: ago(600),
        lastTimestamp: ago(12),
        count: 14,
        type: 'Warning',
      },
      { namespace: 'default' },
    );
    expect(cells('events', event)).toEqual([
      '12s',
      'Warning',
      'BackOff',
      'pod/web-7d4b9c8f5-x2k9q',
      'spec.containers{nginx}',
      'kubelet, worker-1',
      'Back-off restarting failed container nginx in pod web-7d4b9c8f5-x2k9q_default',
      '10m',
      14,
      'web-7d4b9c8f5-x2k9q.17f8a2c3d4e5f601',
    ]);
  });

  it('prints an events.k8s.io/v1 Event with a series the same way', () => {
    const event = object(
      'Event',
      'events.k8s.io/v1',
      'web.17f8a2c3d4e5f602',
      {
        eventTime: new Date(NOW - 3600 * 1000).toISOString().replace('Z', '000Z'),
        series: { count: 3, lastObservedTime: new Date(NOW - 90 * 1000).toISOString().replace('Z', '000Z') },
        reportingController: 'deployment-controller',
        reportingInstance: '',
        action: 'Scaling',
        reason: 'ScalingReplicaSet',
        regarding: { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
        note: 'Scaled up replica set web-7d4b9c8f5 to 3',
        type: 'Normal',
      },
      { namespace: 'default' },
    );
    expect(cells('events.events.k8s.io', event)).toEqual([
      '90s',
      'Normal',
      'ScalingReplicaSet',
      'deployment/web',
      '',
      'deployment-controller',
      'Scaled up replica set web-7d4b9c8f5 to 3',
      '60m',
      3,
      'web.17f8a2c3d4e5f602',
    ]);
  });
});
