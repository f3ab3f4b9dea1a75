/**
 * The workloads of an aged cluster (aging.ts): a Deployment `web` rolled out `revisions` times
 * over the cluster's age (old ReplicaSets kept at 0 replicas), one of its pods restarted twice,
 * and a Job `report` that ran and completed. The StatefulSet and DaemonSet, with their
 * ControllerRevisions, are aging-revisions.ts's.
 */
import { podTemplateHash } from '../controllers/deployment-util.ts';
import type { IncomingObject, KubeObject, OwnerReference } from '../types.ts';
import { agedPod, condition, iso, managedEntry, minutes, seconds, type PastEvent, type PastTermination } from './aging-objects.ts';
import type { Planned, SeededHistory } from './aging.ts';

export interface WorkloadPlan {
  plan: Planned[];
  events: Array<() => PastEvent>;
  history: SeededHistory;
  namespace: string;
  nodeName: string;
  start: number;
  now: number;
  revisions: number;
  find: (type: string, name: string) => KubeObject;
  /** The API server's defaulting of a pod template (identity without it). */
  defaultTemplate: TemplateDefaults;
}

export interface Template {
  metadata: { labels: Record<string, string> };
  spec: Record<string, unknown>;
}

/** A pod template as the API server stores it after defaulting. */
export type TemplateDefaults = (template: Template) => Template;

const REPLICAS = 3;
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** A stable 5-character pod suffix, as generateName makes them. */
function suffix(seed: string): string {
  let hash = 0x811c9dc5;
  let out = '';
  for (let i = 0; i < 5; i += 1) {
    for (const ch of `${seed}/${i}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += SUFFIX_ALPHABET[hash % SUFFIX_ALPHABET.length];
  }
  return out;
}

/** The node's InternalIP, as kubelet reports it in a pod's hostIP. */
export function hostIP(node: KubeObject): string {
  const addresses = (node['status'] as { addresses?: Array<{ type: string; address: string }> } | undefined)?.addresses ?? [];
  return addresses.find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.10';
}

export function ownerRef(owner: KubeObject): OwnerReference {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

export function template(app: string, image: string): Template {
  return { metadata: { labels: { app } }, spec: { containers: [{ name: app, image }] } };
}

/** Plans every workload; times are spread over [start, now]. */
export function agedWorkloads(w: WorkloadPlan): void {
  deploymentHistory(w);
  job(w);
}

function deploymentHistory(w: WorkloadPlan): void {
  const { namespace, start, now, revisions } = w;
  const age = now - start;
  const rolloutAt = (revision: number): number => start + Math.floor(((revision - 1) * age) / (revisions + 0.5));
  const images = Array.from({ length: revisions }, (_, i) => `nginx:1.${25 + i}`);
  const templates = images.map((image) => w.defaultTemplate(template('web', image)));
  const hashes = templates.map((t) => podTemplateHash(t));
  const rsName = (revision: number): string => `web-${hashes[revision - 1] ?? ''}`;
  const last = rolloutAt(revisions);
  const settled = last + seconds(40);
  const crashes = crashHistory(last, now);
  // With 3 replicas and maxUnavailable 25% (0 pods), each crash took Available to False; it is
  // True again since the crashed container's last start was ready.
  const availableSince = crashes.length > 0 ? Math.max(start + seconds(30), (crashes.at(-1)?.finishedAt ?? 0) + seconds(11)) : start + seconds(30);
  const current = templates[revisions - 1] ?? template('web', 'nginx');

  w.plan.push({
    at: start,
    type: 'deployments.apps',
    generation: revisions,
    build: () => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace,
        labels: { app: 'web' },
        annotations: { 'deployment.kubernetes.io/revision': String(revisions) },
        managedFields: [
          managedEntry('kubectl-client-side-apply', 'apps/v1', last, { 'f:spec': { 'f:replicas': {}, 'f:selector': {}, 'f:template': {} } }),
          managedEntry('kube-controller-manager', 'apps/v1', Math.max(settled, availableSince), { 'f:status': { 'f:availableReplicas': {}, 'f:conditions': {}, 'f:observedGeneration': {} } }, 'status'),
        ],
      },
      spec: {
        replicas: REPLICAS,
        selector: { matchLabels: { app: 'web' } },
        template: current,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {
        observedGeneration: revisions,
        replicas: REPLICAS,
        updatedReplicas: REPLICAS,
        readyReplicas: REPLICAS,
        availableReplicas: REPLICAS,
        conditions: [
          { type: 'Available', status: 'True', lastUpdateTime: iso(availableSince), lastTransitionTime: iso(availableSince), reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
          { type: 'Progressing', status: 'True', lastUpdateTime: iso(settled), lastTransitionTime: iso(start + seconds(1)), reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rsName(revisions)}" has successfully progressed.` },
        ],
      },
    }),
  });

  for (let revision = 1; revision <= revisions; revision += 1) {
    const at = rolloutAt(revision);
    const isCurrent = revision === revisions;
    const scaledDownAt = isCurrent ? at : rolloutAt(revision + 1) + seconds(30);
    const hash = hashes[revision - 1] ?? '';
    const name = rsName(revision);
    w.history.rollouts.push({ deployment: 'web', revision, replicaSet: name, at: iso(at) });
    const replicas = isCurrent ? REPLICAS : 0;
    w.plan.push({
      at,
      type: 'replicasets.apps',
      generation: isCurrent ? 1 : 2,
      build: () => ({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name,
          namespace,
          labels: { app: 'web', 'pod-template-hash': hash },
          annotations: { 'deployment.kubernetes.io/desired-replicas': String(REPLICAS), 'deployment.kubernetes.io/max-replicas': String(REPLICAS + 1), 'deployment.kubernetes.io/revision': String(revision) },
          ownerReferences: [ownerRef(w.find('deployments.apps', 'web'))],
          managedFields: [
            managedEntry('kube-controller-manager', 'apps/v1', scaledDownAt, { 'f:metadata': { 'f:annotations': {}, 'f:labels': {}, 'f:ownerReferences': {} }, 'f:spec': { 'f:replicas': {} } }),
            managedEntry('kube-controller-manager', 'apps/v1', scaledDownAt + seconds(2), { 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } }, 'status'),
          ],
        },
        spec: {
          replicas,
          selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } },
          template: { ...(templates[revision - 1] ?? current), metadata: { labels: { app: 'web', 'pod-template-hash': hash } } },
        },
        status: { replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: isCurrent ? 1 : 2 },
      }),
    });
    w.events.push(() => ({ regarding: w.find('deployments.apps', 'web'), reason: 'ScalingReplicaSet', message: `Scaled up replica set ${name} from 0 to ${REPLICAS}`, type: 'Normal', component: 'deployment-controller', firstAt: at, lastAt: at, count: 1 }));
    if (!isCurrent) {
      w.events.push(() => ({ regarding: w.find('deployments.apps', 'web'), reason: 'ScalingReplicaSet', message: `Scaled down replica set ${name} from ${REPLICAS} to 0`, type: 'Normal', component: 'deployment-controller', firstAt: scaledDownAt, lastAt: scaledDownAt, count: 1 }));
    }
  }

  const hash = hashes[revisions - 1] ?? '';
  for (let i = 0; i < REPLICAS; i += 1) {
    const podName = `${rsName(revisions)}-${suffix(`${hash}-${i}`)}`;
    const createdAt = last + seconds(5 * i);
    const terminations = i === 0 ? crashes : [];
    terminations.forEach((t, k) => {
      w.history.terminations.push({ pod: podName, container: 'web', reason: t.reason, exitCode: t.exitCode, startedAt: iso(t.startedAt), finishedAt: iso(t.finishedAt), visible: k === terminations.length - 1 });
    });
    w.plan.push({
      at: createdAt,
      type: 'pods',
      build: () =>
        agedPod({
          name: podName,
          namespace,
          labels: { app: 'web', 'pod-template-hash': hash },
          owner: ownerRef(w.find('replicasets.apps', rsName(revisions))),
          nodeName: w.nodeName,
          hostIP: hostIP(w.find('nodes', w.nodeName)),
          podIP: `10.244.1.${10 + i}`,
          image: images[revisions - 1] ?? 'nginx',
          container: 'web',
          createdAt,
          terminations,
        }).object as IncomingObject,
    });
    podEvents(w, podName, createdAt, terminations, images[revisions - 1] ?? 'nginx', rsName(revisions));
  }
}

/**
 * The first pod's earlier runs: OOM-killed a while back, then crashed again within the Events'
 * hour (none when it has not run two minutes). The pod is created at `createdAt`, started 4 s later.
 */
function crashHistory(createdAt: number, now: number): PastTermination[] {
  const started = createdAt + seconds(4);
  const lifetime = now - started;
  if (lifetime <= minutes(2)) return [];
  const oomAt = started + Math.floor(lifetime / 4);
  return [
    { startedAt: started, finishedAt: oomAt, exitCode: 137, reason: 'OOMKilled' },
    { startedAt: oomAt + seconds(10), finishedAt: now - Math.min(minutes(20), Math.floor(lifetime / 10)), exitCode: 1, reason: 'Error' },
  ];
}

function podEvents(w: WorkloadPlan, podName: string, createdAt: number, terminations: PastTermination[], image: string, owner: string): void {
  const pod = (): KubeObject => w.find('pods', podName);
  w.events.push(() => ({ regarding: w.find('replicasets.apps', owner), reason: 'SuccessfulCreate', message: `Created pod: ${podName}`, type: 'Normal', component: 'replicaset-controller', firstAt: createdAt, lastAt: createdAt, count: 1 }));
  w.events.push(() => ({ regarding: pod(), reason: 'Scheduled', message: `Successfully assigned ${w.namespace}/${podName} to ${w.nodeName}`, type: 'Normal', component: 'default-scheduler', firstAt: createdAt + seconds(1), lastAt: createdAt + seconds(1), count: 1, eventsV1: { action: 'Binding' } }));
  const starts = [createdAt + seconds(2), ...terminations.map((t) => t.finishedAt + seconds(9))];
  starts.forEach((at, run) => {
    const container = { host: w.nodeName, fieldPath: 'spec.containers{web}', component: 'kubelet', type: 'Normal' as const, count: 1 };
    const pulled = run === 0 ? `Successfully pulled image "${image}" in 1.2s (1.2s including waiting). Image size: 72000000 bytes.` : `Container image "${image}" already present on machine`;
    w.events.push(() => ({ ...container, regarding: pod(), reason: 'Pulled', message: pulled, firstAt: at, lastAt: at }));
    w.events.push(() => ({ ...container, regarding: pod(), reason: 'Created', message: 'Created container: web', firstAt: at + 300, lastAt: at + 300 }));
    w.events.push(() => ({ ...container, regarding: pod(), reason: 'Started', message: 'Started container web', firstAt: at + seconds(1), lastAt: at + seconds(1) }));
  });
  const last = terminations.at(-1);
  if (last) {
    w.events.push(() => ({ regarding: pod(), host: w.nodeName, fieldPath: 'spec.containers{web}', component: 'kubelet', reason: 'BackOff', message: `Back-off restarting failed container web in pod ${podName}_${w.namespace}(${pod().metadata.uid})`, type: 'Warning', firstAt: last.finishedAt + seconds(1), lastAt: last.finishedAt + seconds(8), count: 2 }));
  }
}

function job(w: WorkloadPlan): void {
  const { namespace, start, now } = w;
  const startTime = start + Math.floor((now - start) / 2);
  const completionTime = startTime + seconds(45);
  w.history.jobRuns.push({ job: 'report', startTime: iso(startTime), completionTime: iso(completionTime) });
  const podName = `report-${suffix('report')}`;
  w.plan.push({
    at: startTime,
    type: 'jobs.batch',
    admit: (object) => {
      const uid = object.metadata.uid ?? '';
      const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'report', 'controller-uid': uid, 'job-name': 'report' };
      const spec = object['spec'] as { template: { metadata?: Record<string, unknown> } };
      return { ...object, spec: { ...spec, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } }, template: { ...spec.template, metadata: { labels } } } };
    },
    build: () => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'report', namespace, managedFields: [managedEntry('kube-controller-manager', 'batch/v1', completionTime, { 'f:status': { 'f:completionTime': {}, 'f:conditions': {}, 'f:succeeded': {} } }, 'status')] },
      spec: { completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'report', image: 'busybox:1.36' }] } } },
      status: {
        startTime: iso(startTime),
        completionTime: iso(completionTime),
        succeeded: 1,
        ready: 0,
        terminating: 0,
        uncountedTerminatedPods: {},
        conditions: ['SuccessCriteriaMet', 'Complete'].map((type) =>
          condition(type, 'True', completionTime, { lastProbeTime: iso(completionTime), reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' }),
        ),
      },
    }),
  });
  w.plan.push({
    at: startTime + seconds(1),
    type: 'pods',
    build: () => {
      const owner = w.find('jobs.batch', 'report');
      const uid = owner.metadata.uid ?? '';
      const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'report', 'controller-uid': uid, 'job-name': 'report' };
      return agedPod({ name: podName, namespace, labels, owner: ownerRef(owner), nodeName: w.nodeName, hostIP: hostIP(w.find('nodes', w.nodeName)), podIP: '10.244.1.50', image: 'busybox:1.36', container: 'report', createdAt: startTime + seconds(1), terminations: [], completedAt: completionTime - seconds(2) }).object as IncomingObject;
    },
  });
  w.events.push(() => ({ regarding: w.find('jobs.batch', 'report'), reason: 'Completed', message: 'Job completed', type: 'Normal', component: 'job-controller', firstAt: completionTime, lastAt: completionTime, count: 1 }));
}
