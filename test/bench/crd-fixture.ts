/**
 * Custom resources for the benchmarks of issue #17: CustomResourceDefinitions of distinct groups
 * and kinds (a small structural schema and a status subresource, as operators ship them), custom
 * resources of ~3 KB as a cluster stores them after `kubectl apply` and a controller's status
 * write (managedFields, the last-applied annotation, spec, status with conditions), and what the
 * simulated API server's side of a run counts: open watch streams, established TCP connections
 * and the requests for a path prefix. Everything goes into the store through the API's own
 * defaulting and validation (the CRD's structural schema prunes and checks each resource).
 */
import { readFile } from 'node:fs/promises';
import { applyDefaults, validate } from '../../electron/engine/simcluster/defaults/index.ts';
import { withApiExtensions } from '../../electron/engine/simcluster/crd/strategy.ts';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { applyManifest } from '../../electron/engine/simcluster/scenarios/actions.ts';
import type { IncomingObject } from '../../electron/engine/simcluster/types.ts';

/** Every benchmark CRD's group ends so; `g<i>.` before it makes each group distinct. */
export const BENCH_GROUP_SUFFIX = 'bench.kubedrift.dev';
/** The group the engine is told to exclude: its one kind must open no watch (nor list). */
export const EXCLUDED_GROUP = `excluded.${BENCH_GROUP_SUFFIX}`;
/** The group of the heap benchmark's one kind. */
export const HEAP_GROUP = `heap.${BENCH_GROUP_SUFFIX}`;

const CRDS = typeById('customresourcedefinitions.apiextensions.k8s.io') as ResourceType;
const NAMESPACES = typeById('namespaces') as ResourceType;

/** Group, kind and plural of benchmark CRD `index` (`g7.bench.kubedrift.dev`, `Widget7`, `widget7s`). */
export function benchKind(index: number, group = `g${index}.${BENCH_GROUP_SUFFIX}`): { group: string; kind: string; plural: string; key: string } {
  const plural = `widget${index}s`;
  return { group, kind: `Widget${index}`, plural, key: `${plural}.${group}` };
}

const conditionSchema = {
  type: 'object',
  required: ['type', 'status'],
  properties: {
    type: { type: 'string' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string' },
    message: { type: 'string' },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: { type: 'integer', format: 'int64' },
  },
};

/** A namespaced v1 CRD with a structural schema (spec and status) and the status subresource. */
export function benchCrd(index: number, group?: string): IncomingObject {
  const { group: g, kind, plural } = benchKind(index, group);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${g}`, labels: { 'app.kubernetes.io/part-of': 'kubedrift-bench' } },
    spec: {
      group: g,
      names: { kind, listKind: `${kind}List`, plural, singular: `widget${index}`, categories: ['bench'] },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    size: { type: 'string', enum: ['small', 'medium', 'large'] },
                    replicas: { type: 'integer', minimum: 0, default: 1 },
                    endpoint: { type: 'string' },
                    tags: { type: 'array', items: { type: 'string' } },
                    parameters: { type: 'object', additionalProperties: { type: 'string' } },
                    providerConfigRef: { type: 'object', properties: { name: { type: 'string' } } },
                  },
                },
                status: {
                  type: 'object',
                  properties: {
                    observedGeneration: { type: 'integer', format: 'int64' },
                    phase: { type: 'string' },
                    atProvider: { type: 'object', additionalProperties: { type: 'string' } },
                    conditions: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'], items: conditionSchema },
                  },
                },
              },
            },
          },
        },
      ],
    },
  } as IncomingObject;
}

const STAMP = '2026-01-01T00:00:00Z';

const conditionFields = (type: string) => [`k:{"type":"${type}"}`, { '.': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:observedGeneration': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} }];
const STATUS_FIELDS = {
  'f:status': { '.': {}, 'f:atProvider': { '.': {}, 'f:address': {}, 'f:arn': {}, 'f:status': {} }, 'f:conditions': { '.': {}, ...Object.fromEntries([conditionFields('Ready'), conditionFields('Synced')]) }, 'f:observedGeneration': {}, 'f:phase': {} },
};

/** Benchmark resource `name` of kind `index`: spec as a user applies it, with kubectl's bookkeeping. */
function benchResource(index: number, group: string, name: string, namespace: string): IncomingObject {
  const { kind } = benchKind(index, group);
  const apiVersion = `${group}/v1`;
  const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': `${name}-prod`, 'app.kubernetes.io/managed-by': 'crossplane', team: 'platform' };
  const spec = {
    size: 'medium',
    replicas: 3,
    endpoint: `${name}.${namespace}.svc.cluster.local:5432`,
    tags: ['prod', 'eu-west-1', 'tier-1', `cost-center-${name.length}`],
    parameters: { region: 'eu-west-1', storageGB: '100', engineVersion: '15.4', backupWindow: '02:00-03:00', maintenanceWindow: 'sun:04:00-sun:05:00' },
    providerConfigRef: { name: 'aws-provider-default' },
  };
  const lastApplied = JSON.stringify({ apiVersion, kind, metadata: { name, namespace, labels }, spec });
  const fieldsV1 = { 'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} }, 'f:labels': Object.fromEntries(['.', ...Object.keys(labels).map((l) => `f:${l}`)].map((f) => [f, {}])) }, 'f:spec': Object.fromEntries(Object.keys(spec).map((f) => [`f:${f}`, {}])) };
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      namespace,
      labels,
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied, 'crossplane.io/external-name': `${name}-a1b2c3` },
      managedFields: [
        { manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion, time: STAMP, fieldsType: 'FieldsV1', fieldsV1 },
        // The controller's status writes (benchStatus), as the field manager records them.
        { manager: 'crossplane-rds-provider', operation: 'Update', apiVersion, time: STAMP, fieldsType: 'FieldsV1', subresource: 'status', fieldsV1: STATUS_FIELDS },
      ],
    },
    spec,
  } as IncomingObject;
}

/** The status a controller writes: Ready and Synced conditions, observedGeneration, provider facts. */
function benchStatus(name: string): Record<string, unknown> {
  return {
    observedGeneration: 1,
    phase: 'Available',
    atProvider: { arn: `arn:aws:rds:eu-west-1:123456789012:db:${name}`, status: 'available', address: `${name}.c9akciq32.eu-west-1.rds.amazonaws.com` },
    conditions: [
      { type: 'Ready', status: 'True', reason: 'Available', message: 'The managed resource is available.', lastTransitionTime: STAMP, observedGeneration: 1 },
      { type: 'Synced', status: 'True', reason: 'ReconcileSuccess', message: 'Successfully reconciled the managed resource.', lastTransitionTime: STAMP, observedGeneration: 1 },
    ],
  };
}

/** The simulated cluster's side of the CRD benchmarks (works on the cluster's store directly). */
export class CrdBench {
  private readonly sim: SimCluster;
  private readonly hooks = withApiExtensions({ applyDefaults, validate });
  private readonly installed: string[] = [];
  private recording: Array<{ prefix: string; count: number }> = [];

  constructor(sim: SimCluster) {
    this.sim = sim;
    // The fault switches see every request's method and path; a zero delay that never applies
    // is how the count of requests for a path prefix is taken without touching the server.
    sim.server.faults.delayRequests(0, (_method, path) => {
      for (const entry of this.recording) if (path.startsWith(entry.prefix)) entry.count += 1;
      return false;
    });
  }

  private apply(manifest: IncomingObject): void {
    applyManifest({ store: this.sim.store, ...this.hooks }, manifest);
  }

  /** Creates `count` CRDs of distinct groups, plus one in EXCLUDED_GROUP when `excluded`. */
  installCrds(count: number, excluded: boolean): string[] {
    const crds = Array.from({ length: count }, (_, i) => benchCrd(i));
    if (excluded) crds.push(benchCrd(0, EXCLUDED_GROUP));
    for (const crd of crds) {
      this.apply(crd);
      this.installed.push(String((crd['metadata'] as { name: string }).name));
    }
    return crds.map((crd) => String((crd['metadata'] as { name: string }).name));
  }

  /** Deletes every CRD installed; resolves once the apiextensions finalizer let them all go. */
  async removeCrds(timeoutMs = 30_000): Promise<void> {
    for (const name of this.installed.splice(0)) this.sim.store.delete(CRDS, undefined, name);
    const deadline = Date.now() + timeoutMs;
    const left = () => this.sim.store.all(CRDS).filter((crd) => crd.metadata.name.endsWith(BENCH_GROUP_SUFFIX)).length;
    while (left() > 0) {
      if (Date.now() > deadline) throw new Error(`${left()} benchmark CRDs were still there ${timeoutMs} ms after their delete`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Creates `count` resources of one kind in HEAP_GROUP (its CRD first), spread over 10
   * namespaces, each with its status written as a controller would. Returns their mean JSON size.
   */
  createResources(count: number): { key: string; meanBytes: number } {
    const { key } = benchKind(0, HEAP_GROUP);
    if (!this.sim.store.types.byGVR(HEAP_GROUP, 'v1', benchKind(0, HEAP_GROUP).plural)) this.apply(benchCrd(0, HEAP_GROUP));
    const type = this.sim.store.types.byGVR(HEAP_GROUP, 'v1', benchKind(0, HEAP_GROUP).plural) as ResourceType;
    let bytes = 0;
    for (let i = 0; i < count; i += 1) {
      const namespace = `bench-${i % 10}`;
      if (!this.sim.store.find(NAMESPACES, undefined, namespace)) this.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } as IncomingObject);
      const name = `db-${String(i).padStart(5, '0')}`;
      this.apply(benchResource(0, HEAP_GROUP, name, namespace));
      const stored = this.sim.store.mutate(
        type,
        namespace,
        name,
        (copy) => {
          (copy as unknown as { status: unknown }).status = benchStatus(name);
        },
        { subresource: 'status' },
      );
      bytes += JSON.stringify(stored).length;
    }
    return { key, meanBytes: count > 0 ? Math.round(bytes / count) : 0 };
  }

  /** Starts counting, from zero, the requests whose path starts with each of `prefixes`. */
  recordRequests(prefixes: readonly string[]): void {
    this.recording = prefixes.map((prefix) => ({ prefix, count: 0 }));
  }

  /** Requests counted since `recordRequests`, one count per prefix. */
  recordedRequests(): number[] {
    return this.recording.map((entry) => entry.count);
  }

  /** Watch streams the server holds open, and established TCP connections to its port (Linux; null elsewhere). */
  async connections(): Promise<{ watches: number; tcp: number | null }> {
    return { watches: this.sim.server.faults.openWatches(), tcp: await establishedTo(this.sim.server.port) };
  }
}

/** TCP connections in state ESTABLISHED whose local port is `port` (the server's ends), from /proc. */
async function establishedTo(port: number): Promise<number | null> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      if (file === '/proc/net/tcp') return null;
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 3 && fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '01') count += 1;
    }
  }
  return count;
}
