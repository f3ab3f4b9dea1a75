/**
 * database-operator: a demo operator in the shape of the Postgres operators people run. A
 * `Database` (db.kubedrift.dev/v1) owns a StatefulSet, a headless Service and a credentials
 * Secret; its status reports `observedGeneration`, `Ready` and `Reconciling` conditions and the
 * ready replicas, and it records Events as `database-operator`. A version it does not support
 * stalls it: `Stalled=True` with the reason, observedGeneration caught up, nothing rolled out,
 * until the spec names a supported version again.
 */
import type { Change } from '../../changelog.ts';
import { applyDefaults } from '../../defaults/index.ts';
import type { ResourceType } from '../../resources.ts';
import type { KubeObject } from '../../types.ts';
import { getCondition, setCondition } from '../conditions.ts';
import { SECRETS, SERVICES, STATEFULSETS } from '../kinds.ts';
import { isControlledBy, newControllerRef, ownerKeysFor } from '../owner.ts';
import type { Controller, ControllerContext, ReconcileKey } from '../runtime.ts';

/** The operator's controller name, as its Events report it. */
export const DATABASE_OPERATOR = 'database-operator';
const RESOURCE = 'databases.db.kubedrift.dev';
/** The versions the operator can run; anything else stalls it. */
export const SUPPORTED_VERSIONS = ['15.8', '16.4'];

interface DatabaseSpec {
  engine?: string;
  version?: string;
  replicas?: number;
  storage?: string;
}

function databasesType(ctx: ControllerContext): ResourceType | undefined {
  return ctx.store.types.byId(RESOURCE);
}

function labelsOf(db: KubeObject): Record<string, string> {
  return { 'app.kubernetes.io/name': db.metadata.name, 'app.kubernetes.io/component': 'database', 'app.kubernetes.io/managed-by': DATABASE_OPERATOR };
}

function statefulSetFor(db: KubeObject, spec: DatabaseSpec): KubeObject {
  const labels = labelsOf(db);
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: db.metadata.name, namespace: db.metadata.namespace, labels, ownerReferences: [newControllerRef(db)] },
    spec: {
      replicas: spec.replicas ?? 1,
      serviceName: db.metadata.name,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'postgres',
              image: `postgres:${spec.version ?? ''}`,
              ports: [{ name: 'postgres', containerPort: 5432 }],
              env: [{ name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: `${db.metadata.name}-credentials`, key: 'password' } } }],
              resources: { requests: { cpu: '250m', memory: '512Mi' } },
            },
          ],
        },
      },
    },
  } as unknown as KubeObject;
}

function childrenFor(db: KubeObject, spec: DatabaseSpec): Array<{ type: ResourceType; object: KubeObject }> {
  const meta = (name: string) => ({ name, namespace: db.metadata.namespace, labels: labelsOf(db), ownerReferences: [newControllerRef(db)] });
  return [
    { type: SECRETS, object: { apiVersion: 'v1', kind: 'Secret', metadata: meta(`${db.metadata.name}-credentials`), type: 'Opaque', data: { username: Buffer.from('app').toString('base64'), password: Buffer.from(`${db.metadata.uid.slice(0, 12)}`).toString('base64') } } as unknown as KubeObject },
    { type: SERVICES, object: { apiVersion: 'v1', kind: 'Service', metadata: meta(db.metadata.name), spec: { clusterIP: 'None', selector: labelsOf(db), ports: [{ name: 'postgres', port: 5432, targetPort: 5432 }] } } as unknown as KubeObject },
    { type: STATEFULSETS, object: statefulSetFor(db, spec) },
  ];
}

/** Creates the children that are missing and brings the StatefulSet's replicas and image to the spec. */
function ensureChildren(ctx: ControllerContext, db: KubeObject, spec: DatabaseSpec): void {
  for (const { type, object } of childrenFor(db, spec)) {
    const existing = ctx.store.find(type, db.metadata.namespace, object.metadata.name);
    if (!existing) {
      ctx.store.create(type, object, { admit: (created) => applyDefaults(type, created) });
      ctx.events.record({ regarding: db, type: 'Normal', reason: 'Created', message: `Created ${object.kind} ${object.metadata.name}`, component: DATABASE_OPERATOR });
      continue;
    }
    if (type !== STATEFULSETS || !isControlledBy(existing, db)) continue;
    const want = statefulSetFor(db, spec)['spec'] as { replicas: number; template: { spec: { containers: Array<{ image: string }> } } };
    const have = existing['spec'] as typeof want;
    const image = want.template.spec.containers[0]?.image ?? '';
    if (have.replicas === want.replicas && have.template.spec.containers[0]?.image === image) continue;
    ctx.store.mutate(STATEFULSETS, db.metadata.namespace, db.metadata.name, (copy) => {
      const s = copy['spec'] as typeof want;
      s.replicas = want.replicas;
      const container = s.template.spec.containers[0];
      if (container) container.image = image;
    });
    ctx.events.record({ regarding: db, type: 'Normal', reason: 'Updated', message: `Updated StatefulSet ${db.metadata.name}: ${want.replicas} replicas of ${image}`, component: DATABASE_OPERATOR });
  }
}

function writeStatus(ctx: ControllerContext, type: ResourceType, db: KubeObject, edit: (status: Record<string, unknown>) => void): void {
  const status = structuredClone((db['status'] ?? {}) as Record<string, unknown>);
  edit(status);
  if (JSON.stringify(status) === JSON.stringify(db['status'] ?? {})) return;
  ctx.store.mutate(type, db.metadata.namespace, db.metadata.name, (copy) => {
    copy['status'] = status;
  }, { subresource: 'status' });
}

function reconcileDatabase(ctx: ControllerContext, type: ResourceType, db: KubeObject): void {
  const spec = (db['spec'] ?? {}) as DatabaseSpec;
  const generation = db.metadata.generation ?? 1;
  const now = ctx.clock.now();
  if (!SUPPORTED_VERSIONS.includes(spec.version ?? '')) {
    const message = `${spec.engine ?? 'postgres'} ${spec.version ?? '(none)'} is not supported by this operator (supported: ${SUPPORTED_VERSIONS.join(', ')})`;
    const wasStalled = getCondition(db['status'], 'Stalled')?.status === 'True' && (db['status'] as { observedGeneration?: number }).observedGeneration === generation;
    writeStatus(ctx, type, db, (status) => {
      status['observedGeneration'] = generation;
      status['phase'] = 'Failed';
      setCondition(status, 'Ready', 'False', 'UnsupportedVersion', message, now);
      setCondition(status, 'Reconciling', 'False', 'UnsupportedVersion', message, now);
      setCondition(status, 'Stalled', 'True', 'UnsupportedVersion', message, now);
    });
    if (!wasStalled) ctx.events.record({ regarding: db, type: 'Warning', reason: 'ReconcileFailed', message, component: DATABASE_OPERATOR });
    return;
  }
  ensureChildren(ctx, db, spec);
  const sts = ctx.store.find(STATEFULSETS, db.metadata.namespace, db.metadata.name);
  const stsStatus = (sts?.['status'] ?? {}) as { readyReplicas?: number; updatedReplicas?: number; observedGeneration?: number; currentRevision?: string; updateRevision?: string };
  const desired = spec.replicas ?? 1;
  const ready = stsStatus.readyReplicas ?? 0;
  const rolledOut = sts !== undefined && stsStatus.observedGeneration === sts.metadata.generation && (stsStatus.updatedReplicas ?? 0) === desired && stsStatus.currentRevision === stsStatus.updateRevision;
  const done = rolledOut && ready === desired;
  const wasReady = getCondition(db['status'], 'Ready')?.status === 'True';
  writeStatus(ctx, type, db, (status) => {
    status['observedGeneration'] = generation;
    status['replicas'] = desired;
    status['readyReplicas'] = ready;
    status['phase'] = done ? 'Running' : 'Provisioning';
    const progress = `${ready}/${desired} replicas ready`;
    setCondition(status, 'Ready', done ? 'True' : 'False', done ? 'Available' : 'Progressing', progress, now);
    setCondition(status, 'Reconciling', done ? 'False' : 'True', done ? 'ReconcileComplete' : 'Progressing', done ? `postgres ${spec.version ?? ''} is running` : `Rolling out postgres ${spec.version ?? ''}: ${progress}`, now);
    status['conditions'] = (status['conditions'] as Array<{ type: string }>).filter((c) => c.type !== 'Stalled');
  });
  if (done && !wasReady) ctx.events.record({ regarding: db, type: 'Normal', reason: 'Ready', message: `Database is ready: ${desired}/${desired} replicas of postgres ${spec.version ?? ''}`, component: DATABASE_OPERATOR });
}

/** The database operator; does nothing until the Database CRD is installed. */
export function createDatabaseOperator(): Controller {
  return {
    name: DATABASE_OPERATOR,
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource === RESOURCE) return change.type === 'DELETED' ? [] : [{ resource: RESOURCE, namespace: change.object.metadata.namespace, name: change.object.metadata.name }];
      if (change.resource === 'statefulsets.apps') return ownerKeysFor(change, 'Database', RESOURCE);
      return [];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      const type = databasesType(ctx);
      return type ? ctx.store.all(type).map((db) => ({ resource: RESOURCE, namespace: db.metadata.namespace, name: db.metadata.name })) : [];
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): void {
      const type = databasesType(ctx);
      const db = type && ctx.store.find(type, key.namespace, key.name);
      if (!type || !db || db.metadata.deletionTimestamp) return;
      reconcileDatabase(ctx, type, db);
    },
  };
}
