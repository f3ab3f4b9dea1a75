/**
 * What finding the causes costs for a busy cluster: 10,000 pods under 200 Deployments on 60
 * nodes, 2,500 Events, and a drifting workload in seven of every ten, each for a different
 * reason (image pull behind a progress deadline or alone, unschedulable, crash loop, readiness
 * probe, quota, no stated reason, an unreachable node).
 * - `cause_find_10k_pods_ms`: indexing the objects and Events once (createCauseView) and finding
 *   the causes of every drifting workload (findCauses), from objects never seen before, median.
 */
import { createCauseView, findCauses } from '../../electron/engine/causes/index.ts';
import type { SlimObject } from '../../shared/cluster.ts';
import { percentile, round } from './stats.ts';
import type { BenchScenario } from './types.ts';

const NS = 'busy';
const DEPLOYMENTS = 200;
const PODS_PER_DEPLOYMENT = 50;
const NODES = 60;
const DOWN_NODE = 'worker-down';
const CREATED = '2026-11-27T09:00:00Z';
const LATER = '2026-11-27T09:05:00Z';
const SCHEDULER = `0/${NODES} nodes are available: ${NODES - 1} Insufficient cpu, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }.`;

type Json = Record<string, unknown>;

/** What each drifting Deployment's report must say. */
export interface ExpectedCause {
  code: string;
  sentence: string;
}

/** Pods that are not ready per kind of trouble (the rest of the 50 run ready). */
const FAILING: Record<number, number> = { 0: 5, 1: 3, 2: 2, 3: 4, 5: 2, 6: 3 };

function meta(name: string, uid: string, extra: Json = {}): SlimObject['metadata'] {
  return { name, namespace: NS, uid, resourceVersion: '1', creationTimestamp: CREATED, ...extra } as SlimObject['metadata'];
}

function ownerOf(object: SlimObject): Json[] {
  return [{ apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name, uid: object.metadata.uid, controller: true }];
}

function ready(name: string, image: string): Json {
  return { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], containerStatuses: [{ name, image, ready: true, restartCount: 0, state: { running: { startedAt: CREATED } } }] };
}

/** The status of a pod in trouble `kind` (see FAILING). */
function troubled(kind: number, name: string, image: string): { status: Json; node?: string } {
  const notReady = [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }, { type: 'PodScheduled', status: 'True' }];
  const waiting = (reason: string, message: string, extra: Json = {}): Json => ({ phase: kind === 2 ? 'Running' : 'Pending', conditions: notReady, containerStatuses: [{ name, image, ready: false, state: { waiting: { reason, message } }, ...extra }] });
  switch (kind) {
    case 0:
      return { status: waiting('ImagePullBackOff', `Back-off pulling image "${image}"`) };
    case 1:
      return { status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: `${SCHEDULER} preemption: 0/${NODES} nodes are available: ${NODES} No preemption victims found for incoming pod.`, lastTransitionTime: LATER }] } };
    case 2:
      return { status: waiting('CrashLoopBackOff', `back-off 2m40s restarting failed container=${name}`, { restartCount: 6, lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: LATER } } }) };
    case 6:
      return { status: { phase: 'Running', conditions: notReady, containerStatuses: [{ name, image, ready: false, restartCount: 0, state: { running: { startedAt: CREATED } } }] }, node: DOWN_NODE };
    default:
      return { status: { phase: 'Running', conditions: notReady, containerStatuses: [{ name, image, ready: false, restartCount: 0, state: { running: { startedAt: CREATED } } }] } };
  }
}

function event(about: SlimObject, n: number, reason: string, message: string, type = 'Warning'): SlimObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: meta(`${about.metadata.name}.${n}`, `${about.metadata.uid}-ev-${n}`),
    involvedObject: { apiVersion: about.apiVersion, kind: about.kind, name: about.metadata.name, namespace: NS, uid: about.metadata.uid },
    reason,
    message,
    source: { component: 'kubelet' },
    firstTimestamp: CREATED,
    lastTimestamp: LATER,
    count: 3,
    type,
  } as SlimObject;
}

function nodes(): SlimObject[] {
  const out: SlimObject[] = [];
  for (let n = 0; n < NODES - 1; n += 1) {
    out.push({ apiVersion: 'v1', kind: 'Node', metadata: { name: `worker-${n}`, uid: `node-${n}`, resourceVersion: '1' }, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] } } as SlimObject);
  }
  const taints = [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }];
  out.push({ apiVersion: 'v1', kind: 'Node', metadata: { name: DOWN_NODE, uid: 'node-down', resourceVersion: '1' }, spec: { taints }, status: { conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }] } } as SlimObject);
  return out;
}

/**
 * The cluster and, per drifting Deployment, the cause its report must lead with. Kind of trouble
 * by Deployment number: d % 10 picks it (7, 8, 9 are healthy), d % 20 === 0 adds a progress deadline.
 */
export function causeCluster(): { objects: SlimObject[]; expected: Map<string, ExpectedCause> } {
  const objects = nodes();
  const expected = new Map<string, ExpectedCause>();
  for (let d = 0; d < DEPLOYMENTS; d += 1) {
    const app = `app-${d}`;
    const kind = d % 10;
    const failing = FAILING[kind] ?? 0;
    const image = kind === 0 ? `registry.example.com/${app}:broken` : `registry.example.com/${app}:1.0`;
    const deadline = d % 20 === 0;
    const quota = kind === 4;
    const desired = quota ? PODS_PER_DEPLOYMENT + 2 : PODS_PER_DEPLOYMENT;
    const conditions = deadline ? [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${app}-new" has timed out progressing.` }] : [];
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(app, `dep-${d}`, { generation: 2 }), spec: { replicas: desired }, status: { observedGeneration: 2, replicas: PODS_PER_DEPLOYMENT, updatedReplicas: PODS_PER_DEPLOYMENT, readyReplicas: PODS_PER_DEPLOYMENT - failing, conditions } } as SlimObject;
    objects.push(deployment);
    const refused = `pods "${app}-new-zz" is forbidden: exceeded quota: compute, requested: cpu=500m, used: cpu=24, limited: cpu=24`;
    const rsStatus = quota ? { conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: refused }] } : {};
    const newRs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: meta(`${app}-new`, `rs-${d}-new`, { annotations: { 'deployment.kubernetes.io/revision': '2' }, ownerReferences: ownerOf(deployment) }), spec: { replicas: desired }, status: rsStatus } as SlimObject;
    // An image pull fails in a rollout: the old ReplicaSet still runs the other 45 pods.
    const oldRs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: meta(`${app}-old`, `rs-${d}-old`, { annotations: { 'deployment.kubernetes.io/revision': '1' }, ownerReferences: ownerOf(deployment) }), spec: { replicas: kind === 0 ? PODS_PER_DEPLOYMENT - failing : 0 } } as SlimObject;
    objects.push(newRs, oldRs);
    const unreadyNames: string[] = [];
    for (let i = 0; i < PODS_PER_DEPLOYMENT; i += 1) {
      const bad = i < failing;
      const rs = kind === 0 && !bad ? oldRs : newRs;
      const name = `${rs.metadata.name}-${i.toString(36).padStart(5, 'x')}`;
      const trouble = bad ? troubled(kind, app, image) : { status: ready(app, `registry.example.com/${app}:1.0`) };
      const nodeName = trouble.node ?? (kind === 1 && bad ? undefined : `worker-${(d + i) % (NODES - 1)}`);
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: meta(name, `${rs.metadata.uid}-pod-${i}`, { labels: { app }, ownerReferences: ownerOf(rs) }), spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: app, image }] }, status: trouble.status } as SlimObject;
      objects.push(pod);
      if (bad && kind === 5) unreadyNames.push(name);
      if (bad && kind === 0) objects.push(event(pod, 0, 'Failed', `Failed to pull image "${image}": rpc error: code = NotFound desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": ${image}: not found`));
      if (bad && kind === 3) objects.push(event(pod, 0, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503'));
      if (i % 5 === 0 && !(bad && kind === 5)) objects.push(event(pod, 1, 'Started', `Started container ${app}`, 'Normal'));
    }
    const say: Record<number, ExpectedCause> = {
      0: { code: 'image-pull', sentence: `${failing} new pods can't pull ${image}: not found` },
      1: { code: 'unschedulable', sentence: `${failing} pods can't be scheduled: ${SCHEDULER}` },
      2: { code: 'crash-loop', sentence: `${failing} pods are crash-looping: container ${app} last exited with code 137 (OOMKilled), restarted 6 times` },
      3: { code: 'readiness-probe', sentence: `${failing} pods are Running but not Ready: Readiness probe failed: HTTP probe failed with statuscode: 503` },
      4: { code: 'create-refused', sentence: `ReplicaSet ${app}-new can't create pods: ${refused}` },
      5: { code: 'not-ready', sentence: `${failing} of ${desired} replicas not ready; pods ${unreadyNames.join(', ')} Running but not Ready (no Events left for these pods)` },
      6: { code: 'node-not-ready', sentence: `${failing} pods are on node ${DOWN_NODE}, which is unreachable: Kubelet stopped posting node status.` },
    };
    const cause = deadline ? { code: 'progress-deadline', sentence: `Deployment ${app} exceeded its progress deadline: ReplicaSet "${app}-new" has timed out progressing.` } : say[kind];
    if (cause) expected.set(app, cause);
  }
  return { objects, expected };
}

export const causeFind: BenchScenario = {
  name: 'cause-find',
  results: ['cause_find_10k_pods_ms'],
  goals: [{ result: 'cause_find_10k_pods_ms', below: 100 }],
  async run(ctx) {
    const runs = ctx.quick ? 3 : 11;
    const check = causeCluster();
    const reports = findCauses(createCauseView(check.objects));
    if (reports.length !== check.expected.size) throw new Error(`found causes for ${reports.length} workloads, expected ${check.expected.size}`);
    const times: number[] = [];
    let indexing = 0;
    for (let i = 0; i < runs; i += 1) {
      // Fresh objects each run: nothing read in an earlier run (Event readings) is reused.
      const { objects } = causeCluster();
      (globalThis as { gc?: () => void }).gc?.();
      const start = performance.now();
      const view = createCauseView(objects);
      const indexed = performance.now();
      findCauses(view);
      times.push(performance.now() - start);
      indexing += indexed - start;
    }
    ctx.log(`causes: ${check.objects.length} objects, ${reports.length} drifting workloads; indexing ${round(indexing / runs)} ms of each run`);
    return { cause_find_10k_pods_ms: round(percentile(times, 50)) };
  },
};
