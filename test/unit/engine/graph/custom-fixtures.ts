/**
 * The graph's custom-resource fixtures in the shapes the engine holds them: the demo's Database
 * `orders-db` (db.kubedrift.dev/v1) with the StatefulSet, Service and Secret its operator
 * creates, the StatefulSet's pods and claims, metadata-only ConfigMaps, Secrets and
 * ServiceAccounts (PartialObjectMetadata: no data), a custom kind named `Job`, and a pod whose
 * spec references objects in every way a pod can, slimmed by the informers' own slimming.
 */
import { KindResolver } from '../../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';

const at = (minutes: number): string => new Date(Date.parse('2025-06-01T12:00:00Z') - minutes * 60_000).toISOString();

export const CUSTOM_UID = {
  db: '0b1f6a52-7d3e-4c59-9a8e-1f2d3c4b5a60',
  sts: '1c2e7b63-8e4f-4d6a-ab9f-2e3d4c5b6a71',
  secret: '2d3f8c74-9f5a-4e7b-bca0-3f4e5d6c7b82',
  service: '3e4a9d85-a06b-4f8c-8db1-4a5f6e7d8c93',
  pod0: '4f5bae96-b17c-4a9d-9ec2-5b6a7f8e9da4',
  pod1: '5a6cbfa7-c28d-4bae-afd3-6c7b8a9faeb5',
  claim0: '6b7dc0b8-d39e-4cbf-b0e4-7d8c9bab0fc6',
  customJob: '7c8ed1c9-e4af-4dc0-81f5-8e9dacbc1ad7',
  batchJob: '8d9fe2da-f5b0-4ed1-92a6-9faebdcd2be8',
  app: '9ea0f3eb-06c1-4fe2-a3b7-a0bfcede3cf9',
} as const;

const DB_OWNER = { apiVersion: 'db.kubedrift.dev/v1', kind: 'Database', name: 'orders-db', uid: CUSTOM_UID.db, controller: true, blockOwnerDeletion: true };
const STS_OWNER = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'orders-db', uid: CUSTOM_UID.sts, controller: true, blockOwnerDeletion: true };
const dbLabels = { 'app.kubernetes.io/name': 'orders-db', 'app.kubernetes.io/component': 'database', 'app.kubernetes.io/managed-by': 'database-operator' };

/** The resolver the live index learns from the cache: the demo's custom kinds besides the built-ins. */
export function demoResolver(): KindResolver {
  const resolver = new KindResolver();
  resolver.add('databases.db.kubedrift.dev', { group: 'db.kubedrift.dev', kind: 'Database' });
  resolver.add('jobs.example.com', { group: 'example.com', kind: 'Job' });
  for (const [key, kind] of [['configmaps', 'ConfigMap'], ['secrets', 'Secret'], ['persistentvolumeclaims', 'PersistentVolumeClaim'], ['serviceaccounts', 'ServiceAccount']] as const) resolver.add(key, { group: '', kind });
  return resolver;
}

type Condition = { type: string; status: string; reason: string; message: string };

/** The Database as the operator's status leaves it (Ready and Reconciling, or Stalled). */
export function database(conditions: Condition[], observedGeneration = 1): SlimObject {
  return {
    apiVersion: 'db.kubedrift.dev/v1',
    kind: 'Database',
    metadata: { name: 'orders-db', namespace: 'shop', uid: CUSTOM_UID.db, resourceVersion: '5120', generation: 1, creationTimestamp: at(30) },
    spec: { engine: 'postgres', version: '16', replicas: 2, storage: '10Gi' },
    status: { observedGeneration, replicas: 2, readyReplicas: 2, phase: 'Running', conditions: conditions.map((c) => ({ ...c, lastTransitionTime: at(20) })) },
  } as SlimObject;
}

export const READY_CONDITIONS: Condition[] = [
  { type: 'Ready', status: 'True', reason: 'Available', message: '2/2 replicas ready' },
  { type: 'Reconciling', status: 'False', reason: 'ReconcileComplete', message: 'postgres 16 is running' },
];
export const STALLED_CONDITIONS: Condition[] = [
  { type: 'Ready', status: 'False', reason: 'UnsupportedVersion', message: 'postgres 9 is not supported by this operator (supported: 14, 15, 16)' },
  { type: 'Reconciling', status: 'False', reason: 'UnsupportedVersion', message: 'postgres 9 is not supported by this operator (supported: 14, 15, 16)' },
  { type: 'Stalled', status: 'True', reason: 'UnsupportedVersion', message: 'postgres 9 is not supported by this operator (supported: 14, 15, 16)' },
];

export const dbStatefulSet: SlimObject = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'orders-db', namespace: 'shop', uid: CUSTOM_UID.sts, resourceVersion: '5100', generation: 1, creationTimestamp: at(29), labels: dbLabels, ownerReferences: [DB_OWNER] },
  spec: { replicas: 2, serviceName: 'orders-db', selector: { matchLabels: dbLabels }, template: { metadata: { labels: dbLabels }, spec: { containers: [{ name: 'postgres', image: 'postgres:16' }] } } },
  status: { observedGeneration: 1, replicas: 2, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 2, currentRevision: 'orders-db-5d8c7b9f4', updateRevision: 'orders-db-5d8c7b9f4' },
} as SlimObject;

/** A Secret as the metadata-only watch gives it: no type, no data. */
export const dbSecret: SlimObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'orders-db-credentials', namespace: 'shop', uid: CUSTOM_UID.secret, resourceVersion: '5098', creationTimestamp: at(29), labels: dbLabels, ownerReferences: [DB_OWNER] },
};

export const dbService: SlimObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'orders-db', namespace: 'shop', uid: CUSTOM_UID.service, resourceVersion: '5099', creationTimestamp: at(29), labels: dbLabels, ownerReferences: [DB_OWNER] },
  spec: { clusterIP: 'None', type: 'ClusterIP', selector: dbLabels, ports: [{ name: 'postgres', port: 5432, targetPort: 5432, protocol: 'TCP' }] },
} as SlimObject;

/** A full pod as the API server returns it, slimmed as the informers slim it. */
export function slimPod(raw: Record<string, unknown>): SlimObject {
  return slimObject(raw as never, { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' });
}

function dbPod(ordinal: number, uid: string): SlimObject {
  return slimPod({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `orders-db-${ordinal}`, namespace: 'shop', uid, resourceVersion: `${5200 + ordinal}`, creationTimestamp: at(28 - ordinal), labels: { ...dbLabels, 'controller-revision-hash': 'orders-db-5d8c7b9f4', 'statefulset.kubernetes.io/pod-name': `orders-db-${ordinal}` }, ownerReferences: [STS_OWNER] },
    spec: {
      nodeName: 'worker-1',
      serviceAccountName: 'default',
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `data-orders-db-${ordinal}` } }],
      containers: [{ name: 'postgres', image: 'postgres:16', env: [{ name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'orders-db-credentials', key: 'password' } } }], volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }] }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'postgres', ready: true, restartCount: 0, image: 'postgres:16', state: { running: { startedAt: at(27) } } }] },
  });
}

export const dbPods = [dbPod(0, CUSTOM_UID.pod0), dbPod(1, CUSTOM_UID.pod1)];

export function claim(name: string, uid: string, phase: 'Bound' | 'Pending'): SlimObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'shop', uid, resourceVersion: '5150', creationTimestamp: at(28), labels: dbLabels },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } }, storageClassName: 'standard', volumeMode: 'Filesystem', ...(phase === 'Bound' ? { volumeName: `pvc-${uid}` } : {}) },
    status: phase === 'Bound' ? { phase, accessModes: ['ReadWriteOnce'], capacity: { storage: '10Gi' } } : { phase },
  } as SlimObject;
}

/** A metadata-only object (ConfigMap, Secret, ServiceAccount) as PartialObjectMetadata arrives. */
export function metadataOnly(kind: 'ConfigMap' | 'Secret' | 'ServiceAccount', name: string, uid: string): SlimObject {
  return { apiVersion: 'v1', kind, metadata: { name, namespace: 'shop', uid, resourceVersion: '4000', creationTimestamp: at(60) } };
}

/** The orders-db tree as the demo's operator builds it. */
export function ordersDb(conditions: Condition[] = READY_CONDITIONS): SlimObject[] {
  return [database(conditions), dbStatefulSet, dbSecret, dbService, ...dbPods, claim('data-orders-db-0', CUSTOM_UID.claim0, 'Bound'), metadataOnly('ServiceAccount', 'default', 'sa-default-uid')];
}

/** A custom kind named Job in example.com, with a condition, and a batch Job beside it. */
export const customJob: SlimObject = {
  apiVersion: 'example.com/v1',
  kind: 'Job',
  metadata: { name: 'nightly', namespace: 'shop', uid: CUSTOM_UID.customJob, resourceVersion: '700', generation: 2, creationTimestamp: at(15) },
  spec: { schedule: 'daily', target: 's3://backups' },
  status: { observedGeneration: 2, conditions: [{ type: 'Ready', status: 'False', reason: 'BackupFailed', message: 'bucket s3://backups is not reachable', lastTransitionTime: at(5) }] },
} as SlimObject;

export const batchJob: SlimObject = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'nightly', namespace: 'shop', uid: CUSTOM_UID.batchJob, resourceVersion: '701', generation: 1, creationTimestamp: at(14), labels: { 'job-name': 'nightly' } },
  spec: { completions: 1, parallelism: 1, backoffLimit: 6, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'backup', image: 'acme/backup:1' }] } } },
  status: { active: 1, ready: 0, startTime: at(14) },
} as SlimObject;
