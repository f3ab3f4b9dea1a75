/**
 * Load for benchmarks: N namespaces x M Deployments x P Running pods written straight into the
 * store (no controllers, so 50,000 pods load quickly), then E modifications per second at a
 * steady rate — readiness flips, label changes and container restarts, as a busy cluster's
 * kubelets and operators produce them.
 */
import { timestamp } from '../controllers/conditions.ts';
import { systemClock, type Clock } from '../controllers/runtime.ts';
import { typeById, type ResourceType } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { churnDeployment, churnNode, churnPod, churnReplicaSet, randomSuffix, seededRandom } from './churn-objects.ts';

/** Sizes, rate and clock of a churn run. */
export interface ChurnOptions {
  store: ObjectStore;
  namespaces: number;
  deploymentsPerNamespace: number;
  podsPerDeployment: number;
  /** Modifications per second after seeding; 0 only seeds. */
  eventsPerSecond: number;
  /** Timers and time; the system clock when omitted. */
  clock?: Clock;
  /** How often the generator catches up with its rate. Default 50 ms. */
  tickMs?: number;
  /** Seed of every random choice, so runs are comparable. Default 1. */
  seed?: number;
  /** Pods per node (kubelet's max-pods). Default 110. */
  podsPerNode?: number;
}

/** What a churn run has created and modified so far. */
export interface ChurnCounters {
  namespaces: number;
  nodes: number;
  deployments: number;
  replicaSets: number;
  pods: number;
  /** Modifications made since seeding (the sum of the three kinds below). */
  modifications: number;
  statusFlips: number;
  labelChanges: number;
  restarts: number;
}

/** A running churn generator. */
export interface Churn {
  /** Live counters; read them any time. */
  readonly counters: Readonly<ChurnCounters>;
  /** Stops modifying; the objects stay in the store. */
  stop(): void;
}

const type = (id: string) => typeById(id) as ResourceType;
const PODS = type('pods');
const REVISION_LABEL = 'churn.kubedrift.dev/revision';

function flipReadiness(pod: KubeObject, now: number): KubeObject {
  const status = pod['status'] as { conditions: Array<Record<string, unknown>>; containerStatuses: Array<Record<string, unknown>> };
  const ready = status.conditions.find((c) => c['type'] === 'Ready')?.['status'] === 'True';
  const next = ready ? 'False' : 'True';
  const at = timestamp(now);
  const unready = ready ? { reason: 'ContainersNotReady', message: 'containers with unready status: [app]' } : {};
  return {
    ...pod,
    status: {
      ...status,
      conditions: status.conditions.map((c) => (c['type'] === 'Ready' || c['type'] === 'ContainersReady' ? { type: c['type'], status: next, lastProbeTime: null, lastTransitionTime: at, ...unready } : c)),
      containerStatuses: status.containerStatuses.map((c) => ({ ...c, ready: !ready })),
    },
  };
}

function restart(pod: KubeObject, now: number): KubeObject {
  const status = pod['status'] as { containerStatuses: Array<Record<string, unknown>> };
  const at = timestamp(now);
  return {
    ...pod,
    status: {
      ...status,
      containerStatuses: status.containerStatuses.map((c) => {
        const startedAt = (c['state'] as { running?: { startedAt?: string } }).running?.startedAt ?? at;
        return {
          ...c,
          restartCount: Number(c['restartCount'] ?? 0) + 1,
          lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt, finishedAt: at, containerID: c['containerID'] } },
          state: { running: { startedAt: at } },
        };
      }),
    },
  };
}

/** Seeds the store and starts modifying it at `eventsPerSecond`. */
export function startChurn(options: ChurnOptions): Churn {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const random = seededRandom(options.seed ?? 1);
  const counters: ChurnCounters = { namespaces: 0, nodes: 0, deployments: 0, replicaSets: 0, pods: 0, modifications: 0, statusFlips: 0, labelChanges: 0, restarts: 0 };
  const now = clock.now();
  const totalPods = options.namespaces * options.deploymentsPerNamespace * options.podsPerDeployment;
  const podsPerNode = options.podsPerNode ?? 110;
  const nodes: Array<{ name: string; ip: string; used: number }> = [];
  for (let i = 0; i < Math.max(1, Math.ceil(totalPods / podsPerNode)); i += 1) {
    const created = store.create(type('nodes'), churnNode(`churn-node-${String(i).padStart(4, '0')}`, i, now));
    const ip = ((created['status'] as { addresses: Array<{ address: string }> }).addresses[0] as { address: string }).address;
    nodes.push({ name: created.metadata.name, ip, used: 0 });
    counters.nodes += 1;
  }
  const podKeys: Array<[string, string]> = [];
  let podIndex = 0;
  for (let n = 0; n < options.namespaces; n += 1) {
    const namespace = `churn-${String(n).padStart(3, '0')}`;
    store.create(type('namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'kubernetes.io/metadata.name': namespace } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    counters.namespaces += 1;
    for (let d = 0; d < options.deploymentsPerNamespace; d += 1) {
      const deployment = store.create(type('deployments.apps'), churnDeployment(namespace, `svc-${String(d).padStart(3, '0')}`, options.podsPerDeployment, now));
      counters.deployments += 1;
      const rs = store.create(type('replicasets.apps'), churnReplicaSet(deployment, options.podsPerDeployment));
      counters.replicaSets += 1;
      for (let p = 0; p < options.podsPerDeployment; p += 1) {
        const node = nodes[Math.floor(podIndex / podsPerNode)] ?? (nodes[nodes.length - 1] as (typeof nodes)[number]);
        node.used += 1;
        const podIP = `10.${100 + Math.floor(nodes.indexOf(node) / 256)}.${nodes.indexOf(node) % 256}.${node.used + 1}`;
        const pod = store.create(PODS, churnPod(rs, `${rs.metadata.name}-${randomSuffix(random)}`, node, podIP, now, random));
        podKeys.push([namespace, pod.metadata.name]);
        counters.pods += 1;
        podIndex += 1;
      }
    }
  }

  const tickMs = options.tickMs ?? 50;
  const start = clock.now();
  let stopped = false;
  let handle: unknown;

  const modify = (at: number) => {
    const [namespace, name] = podKeys[Math.floor(random() * podKeys.length)] as [string, string];
    const pod = store.find(PODS, namespace, name);
    if (!pod) return;
    const roll = random();
    if (roll < 0.6) {
      store.update(PODS, flipReadiness(pod, at), { subresource: 'status' });
      counters.statusFlips += 1;
    } else if (roll < 0.85) {
      store.update(PODS, { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, [REVISION_LABEL]: String(counters.modifications + 1) } } });
      counters.labelChanges += 1;
    } else {
      store.update(PODS, restart(pod, at), { subresource: 'status' });
      counters.restarts += 1;
    }
    counters.modifications += 1;
  };

  const tick = () => {
    if (stopped) return;
    const at = clock.now();
    const due = Math.floor((options.eventsPerSecond * (at - start)) / 1000) - counters.modifications;
    // A slow tick catches up, but never by more than a second's worth at once.
    for (let i = 0; i < Math.min(due, Math.max(1, options.eventsPerSecond)); i += 1) modify(at);
    handle = clock.setTimeout(tick, tickMs);
  };
  if (options.eventsPerSecond > 0 && podKeys.length > 0) handle = clock.setTimeout(tick, tickMs);

  return {
    counters,
    stop() {
      stopped = true;
      if (handle !== undefined) clock.clearTimeout(handle);
    },
  };
}
