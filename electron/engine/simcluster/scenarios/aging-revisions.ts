/**
 * The StatefulSet `db` and DaemonSet `agent` of an aged cluster (aging.ts), each rolled out
 * `revisions` times over the cluster's age. What a real cluster keeps of that is their
 * ControllerRevisions (controllers/controller-history.ts's shape: `<owner>-<hash>`, the template
 * as a `$patch: replace` patch, `revision` 1..n, created when each template was first applied),
 * the set's status revisions and its pods' `controller-revision-hash`, all pods on the last one.
 */
import { CONTROLLER_HASH_LABEL } from '../controllers/controller-history.ts';
import { podTemplateHash } from '../controllers/deployment-util.ts';
import type { IncomingObject } from '../types.ts';
import { agedPod, iso, managedEntry, seconds } from './aging-objects.ts';
import { hostIP, ownerRef, template, type Template, type WorkloadPlan } from './aging-workloads.ts';

interface Revisioned {
  kind: 'StatefulSet' | 'DaemonSet';
  type: 'statefulsets.apps' | 'daemonsets.apps';
  name: string;
  templates: Template[];
  hashes: string[];
  /** When revision `i` (1-based) was first applied. */
  at: (revision: number) => number;
}

function revisioned(w: WorkloadPlan, kind: Revisioned['kind'], name: string, images: string[], offsetMs: number): Revisioned {
  const age = w.now - w.start;
  const templates = images.map((image) => w.defaultTemplate(template(name, image)));
  return {
    kind,
    type: kind === 'StatefulSet' ? 'statefulsets.apps' : 'daemonsets.apps',
    name,
    templates,
    hashes: templates.map((t) => podTemplateHash(t)),
    at: (revision) => w.start + offsetMs + Math.floor(((revision - 1) * age) / (images.length + 0.5)),
  };
}

/** Plans each revision's ControllerRevision, owned by the set (stored before them). */
function planRevisions(w: WorkloadPlan, r: Revisioned, hashLabel: string): void {
  r.templates.forEach((tpl, i) => {
    const revision = i + 1;
    const hash = r.hashes[i] ?? '';
    const at = r.at(revision);
    w.history.controllerRevisions.push({ kind: r.kind, owner: r.name, revision, name: `${r.name}-${hash}`, at: iso(at) });
    w.plan.push({
      at,
      type: 'controllerrevisions.apps',
      build: () => ({
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: { name: `${r.name}-${hash}`, namespace: w.namespace, labels: { ...tpl.metadata.labels, [hashLabel]: hash }, ownerReferences: [ownerRef(w.find(r.type, r.name))] },
        data: { spec: { template: { ...structuredClone(tpl), $patch: 'replace' } } },
        revision,
      }),
    });
  });
}

/** Plans the StatefulSet and the DaemonSet with their revision history. */
export function agedRevisionedWorkloads(w: WorkloadPlan): void {
  const images = (base: string) => Array.from({ length: w.revisions }, (_, i) => `${base}.${i + 1}`);
  statefulSet(w, revisioned(w, 'StatefulSet', 'db', images('postgres:16'), seconds(2)));
  daemonSet(w, revisioned(w, 'DaemonSet', 'agent', images('registry.k8s.io/agent:1'), seconds(4)));
}

function statefulSet(w: WorkloadPlan, r: Revisioned): void {
  const { namespace, start } = w;
  const last = w.revisions;
  const tpl = r.templates[last - 1] as Template;
  const revision = `db-${r.hashes[last - 1] ?? ''}`;
  const image = String((tpl.spec['containers'] as Array<{ image: string }>)[0]?.image);
  w.plan.push({
    at: start + seconds(2),
    type: 'statefulsets.apps',
    generation: last,
    build: () => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace, labels: { app: 'db' }, managedFields: [managedEntry('kubectl-client-side-apply', 'apps/v1', r.at(last), { 'f:spec': { 'f:replicas': {}, 'f:template': {} } })] },
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: tpl, podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, revisionHistoryLimit: 10 },
      status: { observedGeneration: last, replicas: 2, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 2, currentRevision: revision, updateRevision: revision, collisionCount: 0 },
    }),
  });
  planRevisions(w, r, CONTROLLER_HASH_LABEL);
  for (let ordinal = 0; ordinal < 2; ordinal += 1) {
    const name = `db-${ordinal}`;
    // A rolling update replaces the highest ordinal first.
    const createdAt = r.at(last) + seconds(5 + 12 * (1 - ordinal));
    w.plan.push({
      at: createdAt,
      type: 'pods',
      build: () => {
        const pod = agedPod({ name, namespace, labels: { app: 'db', 'controller-revision-hash': revision, 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': String(ordinal) }, owner: ownerRef(w.find('statefulsets.apps', 'db')), nodeName: w.nodeName, hostIP: hostIP(w.find('nodes', w.nodeName)), podIP: `10.244.1.${30 + ordinal}`, image, container: 'db', createdAt, terminations: [] }).object as { spec: Record<string, unknown> };
        return { ...pod, spec: { ...pod.spec, hostname: name, subdomain: 'db' } } as IncomingObject;
      },
    });
  }
}

function daemonSet(w: WorkloadPlan, r: Revisioned): void {
  const { namespace, start } = w;
  const last = w.revisions;
  const tpl = r.templates[last - 1] as Template;
  const hash = r.hashes[last - 1] ?? '';
  const image = String((tpl.spec['containers'] as Array<{ image: string }>)[0]?.image);
  w.plan.push({
    at: start + seconds(4),
    type: 'daemonsets.apps',
    generation: last,
    build: () => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace, labels: { app: 'agent' }, managedFields: [managedEntry('kubectl-client-side-apply', 'apps/v1', r.at(last), { 'f:spec': { 'f:selector': {}, 'f:template': {} } })] },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: tpl, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 },
      status: { currentNumberScheduled: 1, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 1, observedGeneration: last, updatedNumberScheduled: 1, numberAvailable: 1 },
    }),
  });
  planRevisions(w, r, 'controller-revision-hash');
  const createdAt = r.at(last) + seconds(3);
  w.plan.push({
    at: createdAt,
    type: 'pods',
    build: () => {
      const pod = agedPod({ name: `agent-${hash.slice(0, 5)}`, namespace, labels: { app: 'agent', 'controller-revision-hash': hash, 'pod-template-generation': String(last) }, owner: ownerRef(w.find('daemonsets.apps', 'agent')), nodeName: w.nodeName, hostIP: hostIP(w.find('nodes', w.nodeName)), podIP: '10.244.1.40', image, container: 'agent', createdAt, terminations: [] }).object as { spec: Record<string, unknown> };
      // Pinned as the DaemonSet controller pins its pods (node affinity on metadata.name).
      const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [w.nodeName] }] }] } } };
      return { ...pod, spec: { ...pod.spec, affinity } } as IncomingObject;
    },
  });
}
