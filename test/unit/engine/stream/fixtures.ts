/**
 * Slim objects shaped like what the engine caches: a running Deployment pod as the API server
 * returns it, minus managedFields and the last-applied annotation (about 1.5 KB of JSON).
 */
import type { SlimObject } from '../../../../shared/cluster.ts';

export function slimPod(index: number, resourceVersion = '1', namespace = 'shop'): SlimObject {
  const name = `checkout-7d9f8b6c5-${index.toString(36).padStart(5, 'x')}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `9b2e4c1a-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
      resourceVersion,
      creationTimestamp: '2024-05-02T10:15:30Z',
      generateName: 'checkout-7d9f8b6c5-',
      labels: { app: 'checkout', 'pod-template-hash': '7d9f8b6c5', tier: 'backend' },
      annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'checkout-7d9f8b6c5', uid: '3f1c2d4e-1111-4000-8000-000000000001', controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      nodeName: `worker-${index % 40}`,
      serviceAccountName: 'checkout',
      restartPolicy: 'Always',
      containers: [
        {
          name: 'checkout',
          image: 'registry.example.com/shop/checkout:1.42.3',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, periodSeconds: 10 },
        },
      ],
    },
    status: {
      phase: 'Running',
      qosClass: 'Burstable',
      podIP: `10.244.${(index >> 8) & 255}.${index & 255}`,
      hostIP: `192.168.1.${index % 40}`,
      startTime: '2024-05-02T10:15:31Z',
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: '2024-05-02T10:15:31Z' },
        { type: 'Ready', status: 'True', lastTransitionTime: '2024-05-02T10:15:42Z' },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: '2024-05-02T10:15:42Z' },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: '2024-05-02T10:15:30Z' },
      ],
      containerStatuses: [
        {
          name: 'checkout',
          ready: true,
          started: true,
          restartCount: 0,
          image: 'registry.example.com/shop/checkout:1.42.3',
          imageID: 'registry.example.com/shop/checkout@sha256:4f1a9c0e2b7d8a6f5e3c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e',
          containerID: `containerd://${index.toString(16).padStart(64, 'a')}`,
          state: { running: { startedAt: '2024-05-02T10:15:35Z' } },
        },
      ],
    },
  };
}

/**
 * An object of the same ~1.5 KB JSON that the renderer receives as cached (a kind without a form
 * of its own, stream/view.ts): for tests of the stream's byte budgets and flow control.
 */
export function bulkyObject(index: number, resourceVersion = '1'): SlimObject {
  return { ...slimPod(index, resourceVersion), apiVersion: 'apps/v1', kind: 'ReplicaSet' };
}
