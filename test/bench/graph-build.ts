/**
 * What the ownership graph costs for one busy namespace: 10,000 pods under 200 Deployments (each
 * with its current ReplicaSet and two old ones), 100 Services, 50 HPAs, on 60 nodes, as slim
 * objects the way the cache holds them.
 * - `graph_build_10k_pods_ms`: indexing those objects and building the namespace's graph (health
 *   of every pod, selectors, collapsing) from objects never seen before, median of the runs.
 * - `graph_rebuild_10k_pods_ms`: the same after 100 pods changed (new versions), as a live view
 *   asks again: what it knew of the unchanged pods (their status per version) is reused.
 * - `graph_10k_pods_message_bytes`: the JSON size of the answer the renderer gets.
 */
import { buildGraph } from '../../electron/engine/graph/build.ts';
import { createGraphIndex } from '../../electron/engine/graph/objects.ts';
import type { SlimObject } from '../../shared/cluster.ts';
import { percentile, round } from './stats.ts';
import type { BenchScenario } from './types.ts';

const NS = 'busy';
const DEPLOYMENTS = 200;
const PODS_PER_DEPLOYMENT = 50;
const NODES = 60;
const CREATED = '2025-05-01T10:00:00Z';

function meta(name: string, uid: string, extra: Record<string, unknown> = {}): SlimObject['metadata'] {
  return { name, namespace: NS, uid, resourceVersion: '1', creationTimestamp: CREATED, ...extra } as SlimObject['metadata'];
}

function pod(app: string, rs: SlimObject, i: number): SlimObject {
  const name = `${rs.metadata.name}-${i.toString(36).padStart(5, 'x')}`;
  const pending = i % 17 === 0;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(name, `${rs.metadata.uid}-pod-${i}`, { labels: { app, 'pod-template-hash': 'h' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true }] }),
    spec: { nodeName: `node-${i % NODES}`, containers: [{ name: app, image: `registry.example.com/${app}:1.0` }] },
    status: {
      phase: pending ? 'Pending' : 'Running',
      conditions: [{ type: 'Ready', status: pending ? 'False' : 'True' }],
      containerStatuses: [{ name: app, ready: !pending, restartCount: 0, state: pending ? { waiting: { reason: 'ContainerCreating' } } : { running: { startedAt: CREATED } } }],
    },
  } as SlimObject;
}

/** The namespace's objects plus the cluster's nodes. */
export function busyNamespace(): SlimObject[] {
  const objects: SlimObject[] = [];
  for (let n = 0; n < NODES; n += 1) {
    objects.push({ apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${n}`, uid: `node-${n}`, resourceVersion: '1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } } as SlimObject);
  }
  for (let d = 0; d < DEPLOYMENTS; d += 1) {
    const app = `app-${d}`;
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(app, `dep-${d}`, { generation: 3 }), spec: { replicas: PODS_PER_DEPLOYMENT, template: { spec: { containers: [{ name: app, image: `registry.example.com/${app}:1.0` }] } } }, status: { observedGeneration: 3, replicas: PODS_PER_DEPLOYMENT, readyReplicas: PODS_PER_DEPLOYMENT - 3, updatedReplicas: PODS_PER_DEPLOYMENT, availableReplicas: PODS_PER_DEPLOYMENT - 3 } } as SlimObject;
    objects.push(deployment);
    const owner = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: app, uid: `dep-${d}`, controller: true }];
    for (let r = 0; r < 3; r += 1) {
      const replicas = r === 2 ? PODS_PER_DEPLOYMENT : 0;
      const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: meta(`${app}-rs${r}`, `rs-${d}-${r}`, { ownerReferences: owner, annotations: { 'deployment.kubernetes.io/revision': String(r + 1) } }), spec: { replicas }, status: { replicas, readyReplicas: replicas } } as SlimObject;
      objects.push(rs);
      if (replicas > 0) for (let i = 0; i < PODS_PER_DEPLOYMENT; i += 1) objects.push(pod(app, rs, i));
    }
    if (d % 2 === 0) objects.push({ apiVersion: 'v1', kind: 'Service', metadata: meta(app, `svc-${d}`), spec: { selector: { app }, ports: [{ port: 80 }] } } as SlimObject);
    if (d % 4 === 0) {
      objects.push({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: meta(app, `hpa-${d}`), spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: app }, minReplicas: 10, maxReplicas: 60 }, status: { currentReplicas: 50, desiredReplicas: 50 } } as SlimObject);
    }
  }
  return objects;
}

/** `objects` with every 100th pod replaced by a new version of itself (a status update). */
function churned(objects: readonly SlimObject[]): SlimObject[] {
  let pods = 0;
  return objects.map((object) => (object.kind === 'Pod' && (pods += 1) % 100 === 0 ? (structuredClone(object) as SlimObject) : object));
}

export const graphBuild: BenchScenario = {
  name: 'graph-build',
  results: ['graph_build_10k_pods_ms', 'graph_rebuild_10k_pods_ms', 'graph_10k_pods_message_bytes'],
  goals: [{ result: 'graph_build_10k_pods_ms', below: 200 }],
  async run(ctx) {
    const runs = ctx.quick ? 3 : 11;
    const build = (objects: readonly SlimObject[]) => buildGraph(createGraphIndex(objects), { namespace: NS, focus: null });
    const timed = (objects: readonly SlimObject[]): number => {
      // The garbage of making the objects is not the build's.
      (globalThis as { gc?: () => void }).gc?.();
      const start = performance.now();
      build(objects);
      return performance.now() - start;
    };
    const first = build(busyNamespace());
    if (!first || first.stats.pods !== DEPLOYMENTS * PODS_PER_DEPLOYMENT) throw new Error(`the graph holds ${first?.stats.pods ?? 0} pods, expected ${DEPLOYMENTS * PODS_PER_DEPLOYMENT}`);
    const cold: number[] = [];
    for (let i = 0; i < runs; i += 1) cold.push(timed(busyNamespace()));
    const warm: number[] = [];
    let live = busyNamespace();
    build(live);
    for (let i = 0; i < runs; i += 1) {
      live = churned(live);
      warm.push(timed(live));
    }
    const bytes = Buffer.byteLength(JSON.stringify(first));
    ctx.log(`graph: ${first.stats.objects} objects -> ${first.stats.shown} nodes, ${first.edges.length} edges, ${round(bytes / 1e3)} kB`);
    return { graph_build_10k_pods_ms: round(percentile(cold, 50)), graph_rebuild_10k_pods_ms: round(percentile(warm, 50)), graph_10k_pods_message_bytes: bytes };
  },
};
