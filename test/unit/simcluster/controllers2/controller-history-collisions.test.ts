/**
 * Hash collisions in controller_history: when the name `<set>-<hash>` is taken by a
 * ControllerRevision holding another template, the StatefulSet and DaemonSet controllers bump
 * `status.collisionCount` and hash it in until a name is free (CreateControllerRevision; the
 * DaemonSet controller's snapshot). A StatefulSet revision keeps the first hash in its label, as
 * upstream's renamed clone does; a DaemonSet one is labelled with the hash its name and pods
 * carry. A name taken by a revision of the same template is that revision: no collision.
 */
import { describe, expect, it } from 'vitest';
import { createDaemonSetController } from '../../../../electron/engine/simcluster/controllers/daemonset.ts';
import { podTemplateHash } from '../../../../electron/engine/simcluster/controllers/deployment-util.ts';
import type { PodTemplate } from '../../../../electron/engine/simcluster/controllers/pods.ts';
import { createStatefulSetController } from '../../../../electron/engine/simcluster/controllers/statefulset.ts';
import { harness, node, T, template, type Harness } from './harness.ts';

const STS = T('statefulsets.apps');
const DS = T('daemonsets.apps');
const REVISIONS = T('controllerrevisions.apps');

const WEB_TEMPLATE = template({ app: 'web' }) as PodTemplate;
const AGENT_TEMPLATE = template({ app: 'agent' }, 'registry.k8s.io/agent:1.0') as PodTemplate;

/** A ControllerRevision a client wrote under `name`, restoring `image` (not the set's template). */
function squatter(h: Harness, name: string, restores: PodTemplate): void {
  h.store.create(REVISIONS, { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, namespace: 'default' }, data: { spec: { template: { ...restores, $patch: 'replace' } } }, revision: 1 });
}

function statefulSet(h: Harness): void {
  h.create('statefulsets.apps', {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2, serviceName: 'web', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'web' } }, template: WEB_TEMPLATE },
  });
}

/** `t` with its first container running `image`. */
function otherImage(t: PodTemplate, image: string): PodTemplate {
  const [first] = (t.spec?.['containers'] as Array<Record<string, unknown>> | undefined) ?? [];
  return { ...t, spec: { ...t.spec, containers: [{ ...first, image }] } };
}
const stsStatus = (h: Harness) => h.store.get(STS, 'default', 'web')['status'] as { updateRevision?: string; collisionCount?: number };

describe('ControllerRevision name collisions', () => {
  it('a StatefulSet whose revision name is taken by other data bumps collisionCount and takes the next hash', () => {
    const h = harness([createStatefulSetController()]);
    const first = podTemplateHash(WEB_TEMPLATE);
    squatter(h, `web-${first}`, otherImage(WEB_TEMPLATE, 'nginx:1.0'));
    statefulSet(h);
    const second = podTemplateHash(WEB_TEMPLATE, 1);
    expect(second).not.toBe(first);
    expect(stsStatus(h)).toMatchObject({ updateRevision: `web-${second}`, collisionCount: 1 });
    const revision = h.store.get(REVISIONS, 'default', `web-${second}`);
    // history.CreateControllerRevision renames its clone but keeps the label it was made with.
    expect(revision.metadata.labels?.['controller.kubernetes.io/hash']).toBe(first);
    expect(revision.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', name: 'web' });
    expect(h.pods().map((p) => p.metadata.labels?.['controller-revision-hash'])).toEqual([`web-${second}`, `web-${second}`]);
    // The client's revision is left as it was.
    expect(h.store.get(REVISIONS, 'default', `web-${first}`).metadata.ownerReferences).toBeUndefined();
    expect(h.store.all(REVISIONS, 'default')).toHaveLength(2);
  });

  it('a StatefulSet keeps hashing its next templates with the collision count it reached', () => {
    const h = harness([createStatefulSetController()]);
    squatter(h, `web-${podTemplateHash(WEB_TEMPLATE)}`, otherImage(WEB_TEMPLATE, 'nginx:1.0'));
    statefulSet(h);
    h.store.mutate(STS, 'default', 'web', (copy) => {
      (copy['spec'] as { template: PodTemplate }).template = otherImage(WEB_TEMPLATE, 'registry.k8s.io/web:2');
    });
    h.settle();
    expect(stsStatus(h)).toMatchObject({ updateRevision: `web-${podTemplateHash(otherImage(WEB_TEMPLATE, 'registry.k8s.io/web:2'), 1)}`, collisionCount: 1 });
  });

  it('a name taken by a revision of the same template is that revision, with no collision', () => {
    const h = harness([createStatefulSetController()]);
    const first = podTemplateHash(WEB_TEMPLATE);
    squatter(h, `web-${first}`, WEB_TEMPLATE);
    statefulSet(h);
    expect(stsStatus(h)).toMatchObject({ updateRevision: `web-${first}`, collisionCount: 0 });
    expect(h.store.all(REVISIONS, 'default')).toHaveLength(1);
  });

  it('a DaemonSet whose revision name is taken bumps collisionCount; name, label and pods carry the new hash', () => {
    const h = harness([createDaemonSetController()]);
    for (const name of ['worker-1', 'worker-2']) h.create('nodes', node(name));
    const first = podTemplateHash(AGENT_TEMPLATE);
    squatter(h, `agent-${first}`, otherImage(AGENT_TEMPLATE, 'registry.k8s.io/agent:0.9'));
    h.create('daemonsets.apps', {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: AGENT_TEMPLATE },
    });
    const second = podTemplateHash(AGENT_TEMPLATE, 1);
    const revision = h.store.get(REVISIONS, 'default', `agent-${second}`);
    expect(revision.metadata.labels?.['controller-revision-hash']).toBe(second);
    expect(h.pods().map((p) => p.metadata.labels?.['controller-revision-hash'])).toEqual([second, second]);
    expect(h.store.get(DS, 'default', 'agent')['status']).toMatchObject({ collisionCount: 1, updatedNumberScheduled: 2 });
  });

  it('a DaemonSet without collisions has no collisionCount in its status', () => {
    const h = harness([createDaemonSetController()]);
    h.create('nodes', node('worker-1'));
    h.create('daemonsets.apps', { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: AGENT_TEMPLATE } });
    expect(h.store.get(DS, 'default', 'agent')['status']).not.toHaveProperty('collisionCount');
  });
});
