/**
 * ControllerRevisions the StatefulSet and DaemonSet controllers keep (controller_history): one
 * per template, renumbered when an old template comes back, pruned beyond
 * revisionHistoryLimit, named by the set's status and its pods' controller-revision-hash.
 */
import { describe, expect, it } from 'vitest';
import { createDaemonSetController } from '../../../../electron/engine/simcluster/controllers/daemonset.ts';
import { createStatefulSetController } from '../../../../electron/engine/simcluster/controllers/statefulset.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { harness, node, reapPods, setPods, T, template, type Harness } from './harness.ts';

const STS = T('statefulsets.apps');
const DS = T('daemonsets.apps');
const REVISIONS = T('controllerrevisions.apps');

function statefulSet(extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2, serviceName: 'web', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }), ...extra },
  };
}

function daemonSet() {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: template({ app: 'agent' }, 'registry.k8s.io/agent:1.0') },
  };
}

/** The owner's revisions as `name=revision`, oldest first. */
const history = (h: Harness) =>
  h.store
    .all(REVISIONS, 'default')
    .sort((a, b) => Number(a['revision']) - Number(b['revision']))
    .map((r) => `${r.metadata.name}=${String(r['revision'])}`);

function setImage(h: Harness, id: 'statefulsets.apps' | 'daemonsets.apps', name: string, image: string): void {
  h.store.mutate(id === 'statefulsets.apps' ? STS : DS, 'default', name, (copy) => {
    ((copy['spec'] as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0] as { image: string }).image = image;
  });
  h.settle();
}

/** Rolls every pod of the set to its update revision (the stand-in kubelet makes them ready). */
function rollOut(h: Harness): void {
  for (let i = 0; i < 6; i += 1) {
    setPods(h, 'ready');
    reapPods(h);
  }
}

const status = (h: Harness) => h.store.get(STS, 'default', 'web')['status'] as { currentRevision?: string; updateRevision?: string };

describe('StatefulSet ControllerRevisions', () => {
  it('writes one revision per template as upstream does: name, labels, owner, data and revision', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet());
    const [revision] = h.store.all(REVISIONS, 'default') as [KubeObject];
    const sts = h.store.get(STS, 'default', 'web');
    const hash = revision.metadata.name.slice('web-'.length);
    expect(revision.metadata.name).toBe(status(h).updateRevision);
    expect(revision.metadata.labels).toEqual({ app: 'web', 'controller.kubernetes.io/hash': hash });
    expect(revision.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: sts.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(revision['revision']).toBe(1);
    const data = revision['data'] as { spec: { template: Record<string, unknown> } };
    expect(data.spec.template['$patch']).toBe('replace');
    expect(data.spec.template['spec']).toEqual((sts['spec'] as { template: { spec: unknown } }).template.spec);
    for (const pod of h.pods()) expect(pod.metadata.labels?.['controller-revision-hash']).toBe(revision.metadata.name);
  });

  it('a template change makes a new revision that status and the rolled pods name', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet());
    rollOut(h);
    const first = status(h).currentRevision;
    setImage(h, 'statefulsets.apps', 'web', 'registry.k8s.io/web:2');
    const second = status(h).updateRevision;
    expect(second).not.toBe(first);
    expect(status(h).currentRevision).toBe(first);
    expect(history(h)).toEqual([`${first}=1`, `${second}=2`]);
    rollOut(h);
    expect(status(h)).toMatchObject({ currentRevision: second, updateRevision: second });
    expect(h.pods().map((p) => p.metadata.labels?.['controller-revision-hash'])).toEqual([second, second]);
  });

  it('going back to an old template re-uses its revision with the next number', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet());
    rollOut(h);
    const first = status(h).updateRevision as string;
    setImage(h, 'statefulsets.apps', 'web', 'registry.k8s.io/web:2');
    rollOut(h);
    const second = status(h).updateRevision as string;
    setImage(h, 'statefulsets.apps', 'web', 'nginx:1.27.2');
    expect(status(h).updateRevision).toBe(first);
    expect(history(h)).toEqual([`${second}=2`, `${first}=3`]);
  });

  it('keeps at most revisionHistoryLimit old revisions besides the current and update ones', () => {
    const h = harness([createStatefulSetController()]);
    h.create('statefulsets.apps', statefulSet({ revisionHistoryLimit: 1 }));
    for (const image of ['web:2', 'web:3', 'web:4']) {
      setImage(h, 'statefulsets.apps', 'web', `registry.k8s.io/${image}`);
      rollOut(h);
    }
    const revisions = history(h);
    expect(revisions).toHaveLength(2);
    expect(revisions.map((r) => r.split('=')[1])).toEqual(['3', '4']);
    expect(revisions[1]).toBe(`${status(h).currentRevision}=4`);
  });
});

describe('DaemonSet ControllerRevisions', () => {
  function cluster(): Harness {
    const h = harness([createDaemonSetController()]);
    for (const name of ['worker-1', 'worker-2']) h.create('nodes', node(name));
    h.create('daemonsets.apps', daemonSet());
    return h;
  }

  it('names each revision `<set>-<hash>` with the hash the pods carry in controller-revision-hash', () => {
    const h = cluster();
    const [revision] = h.store.all(REVISIONS, 'default') as [KubeObject];
    const hash = h.pods()[0]?.metadata.labels?.['controller-revision-hash'];
    expect(revision.metadata.name).toBe(`agent-${hash}`);
    expect(revision.metadata.labels).toEqual({ app: 'agent', 'controller-revision-hash': hash });
    expect(revision.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', name: 'agent', controller: true });
    expect(revision['revision']).toBe(1);
  });

  it('a new template is revision 2; the old one goes once no pod and no limit keeps it', () => {
    const h = cluster();
    const first = history(h)[0]?.split('=')[0];
    setImage(h, 'daemonsets.apps', 'agent', 'registry.k8s.io/agent:2.0');
    expect(history(h)).toEqual([`${first}=1`, expect.stringMatching(/^agent-.+=2$/)]);
    h.store.mutate(DS, 'default', 'agent', (copy) => {
      (copy['spec'] as Record<string, unknown>)['revisionHistoryLimit'] = 0;
    });
    h.settle();
    rollOut(h);
    expect(history(h)).toEqual([expect.stringMatching(/^agent-.+=2$/)]);
  });
});
